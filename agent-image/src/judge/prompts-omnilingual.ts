// The "omnilingual-gaia2" prompt set (docs/judge.md, "Prompt sets"): the six soft checkers the
// reference gives other prompts for Omnilingual-Gaia2, where scenario content, oracle texts and
// the agent's answers are in the target language while tool names stay English. Our own texts:
// each asks the same question as our default prompt for that checker (prompts.ts), with the same
// slots and answer markers, and adds what translated scenarios need: meaning decides whatever
// the language, and greetings, placeholders and grammar are judged in any language.
import { COMPARE_USER, type PromptSpec, successOrFailure, trueOrFalse, VERDICT_SF, VERDICT_TF } from './prompts.js';
import type { SoftCheckerName } from './registry.js';

const ANY_LANGUAGE = 'Either text may be written in any language, and the two need not share one: compare what they mean, never the language or the wording.';

export const OMNILINGUAL_PROMPTS: Partial<Record<SoftCheckerName, PromptSpec>> = {
  user_message_checker: successOrFailure(
    `You grade an AI assistant's reply to its user against a reference reply for the same task. The reference is correct by definition.
${ANY_LANGUAGE}
The reply must convey the reference's core information: names, places, product details, contacts, dates, times, file details, counts and other requested facts.
Accept: a reply in another language than the reference; a detailed reply where the reference is terse (also when the reference is "None" or a bare number); a clarification question that asks for the same missing piece; the user's name left out or a first name alone; any greeting or none; relative instead of absolute dates for the same day; other units, number formats or currency symbols for the same value; information embedded in longer text; a summary of the actions taken instead of their exact content.
Fail when requested information is missing or wrong, or the reply contradicts the reference.
${VERDICT_SF}`,
    `Task: {{task}}

${COMPARE_USER}`,
  ),
  tone_checker: trueOrFalse(
    `You check the style of a message or email an AI assistant wrote.
It passes when it is readable plain text in any language (or a bare piece of information: a phone number, an email address, a number, a date, an address or a name), its tone suits the recipient, and it has no serious grammar or spelling mistakes in the language it is written in.
${VERDICT_TF}`,
    `Text:
{{agent_action_call}}`,
  ),
  email_checker: successOrFailure(
    `You grade whether an email written by an AI assistant carries the same essential content as a reference email.
${ANY_LANGUAGE}
First list the key facts of the reference email body (names, dates, times, places, amounts, codes, decisions, requests), then check each against the assistant's email.
Greetings, salutations and sign-offs never count, whatever their language or custom. Also accept differences in style, tone, ordering and length; extra correct detail; relative versus absolute dates (today is {{today_date}}); 12-hour versus 24-hour times; first names instead of full names; another currency symbol or code for the same amount.
Fail only when a key fact is wrong, a core piece of information is missing, or the email contradicts the reference.
${VERDICT_SF}`,
    COMPARE_USER,
  ),
  message_checker: successOrFailure(
    `You grade whether a chat message written by an AI assistant carries the same essential content as a reference message.
${ANY_LANGUAGE}
Ignore the greeting line and the sign-off in any language or custom (a different name in the greeting is fine), tone and wording. Questions asking for the same thing are equivalent. Another currency symbol for the same amount is fine. Leaving out the end of a time range is acceptable. Today is {{today_date}}.
List the reference's key information, compare, and fail only when key information is wrong, missing or contradicted.
${VERDICT_SF}`,
    COMPARE_USER,
  ),
  event_checker: successOrFailure(
    `You grade a calendar event created by an AI assistant against a reference event.
${ANY_LANGUAGE}
- Titles match when they name the same activity, in whatever language or words, with or without attendee names or qualifiers; they differ only when the activity is a different one.
- Times that both sides show must agree; different time formats are equal.
- Description and tag may differ. Attendees are not your concern.
- The location may differ unless the task names a venue; "Home" or "Office", in any language, stand for the user's address ({{user_address}}).
- A field absent on either side never fails the check.
Fail only for a wrong time that is present, a different activity, or a contradiction.
${VERDICT_SF}`,
    `Task: {{task}}

${COMPARE_USER}`,
  ),
  signature_checker: trueOrFalse(
    `You review the sign-off of an email an AI assistant wrote on behalf of its user. The email may be in any language.
Rules:
- No signature at all, or a sign-off without a name, is acceptable.
- If a name is given, it must be the user's first name, last name or full name.
- A placeholder or a role instead of a name fails, in whatever language it is written: "Your Name", "[Name]", "Assistant", "User", "Your assistant", and their translations (for example "Votre nom", "Tu nombre", "Seu nome", "Asistente", "Assistente", "Utilisateur", "Usuario").
Think briefly, then decide. ${VERDICT_TF}`,
    `User's name: {{user_name}}

Email written by the assistant:
{{agent_action_call}}`,
  ),
};
