// Prompt texts for the LLM soft checks. Written for this project: they ask the same
// questions as the reference checkers (docs/judge.md, "Soft checks") with the same decision rules and
// answer markers, in our own words. Templates use {{name}} slots filled in one pass.
import type { SoftCheckerName } from './registry.js';

export interface PromptSpec {
  system: string;
  user: string;
  success: string;
  failure: string;
}

export const VERDICT_SF = 'End your answer with a line "Verdict: [[Success]]" or "Verdict: [[Failure]]".';
export const VERDICT_TF = 'End your answer with a line "Verdict: [[True]]" or "Verdict: [[False]]".';

export const COMPARE_USER = `Reference action (what a correct assistant did):
{{oracle_action_call}}

Assistant action (what is being graded):
{{agent_action_call}}`;

/** A checker answering [[Success]] / [[Failure]]. */
export function successOrFailure(system: string, user: string): PromptSpec {
  return { system, user, success: '[[Success]]', failure: '[[Failure]]' };
}

/** A checker answering [[True]] / [[False]]. */
export function trueOrFalse(system: string, user: string): PromptSpec {
  return { system, user, success: '[[True]]', failure: '[[False]]' };
}

export const PROMPTS: Partial<Record<SoftCheckerName, PromptSpec>> = {
  signature_checker: trueOrFalse(
    `You review the sign-off of an email an AI assistant wrote on behalf of its user.
Rules:
- No signature at all, or a sign-off without a name ("Best regards"), is acceptable.
- If a name is given, it must be the user's first name, last name or full name.
- Placeholders or generic signers fail: "Your Name", "[Name]", "Assistant", "User", "Your assistant", and similar.
Think briefly, then decide. ${VERDICT_TF}`,
    `User's name: {{user_name}}

Email written by the assistant:
{{agent_action_call}}`,
  ),
  email_checker: successOrFailure(
    `You grade whether an email written by an AI assistant carries the same essential content as a reference email.
First list the key facts of the reference email (names, dates, times, places, amounts, codes, decisions, requests), then check each against the assistant's email.
Accept differences in style, tone, greeting, sign-off, ordering and length; extra correct detail; relative versus absolute dates (today is {{today_date}}); 12-hour versus 24-hour times; first names instead of full names; currency symbols versus codes.
Fail only when a key fact is wrong, a core piece of information is missing, or the email contradicts the reference.
${VERDICT_SF}`,
    COMPARE_USER,
  ),
  message_checker: successOrFailure(
    `You grade whether a chat message written by an AI assistant carries the same essential content as a reference message.
Ignore the greeting line and the sign-off (a different name in the greeting is fine), tone and wording. Questions asking for the same thing are equivalent. Leaving out the end of a time range is acceptable. Today is {{today_date}}.
List the reference's key information, compare, and fail only when key information is wrong, missing or contradicted.
${VERDICT_SF}`,
    COMPARE_USER,
  ),
  user_message_checker: successOrFailure(
    `You grade an AI assistant's reply to its user against a reference reply for the same task.
The reply must convey the reference's core information: names, places, product details, contacts, dates, file details, counts and other requested facts.
Accept: a detailed reply where the reference is terse; a clarification question equivalent to the reference's; other units or currency formats of the same value; information embedded in longer text; a partial summary of actions as long as the requested information is there.
Fail when requested information is missing or wrong, or the reply contradicts the reference.
${VERDICT_SF}`,
    `Task: {{task}}

${COMPARE_USER}`,
  ),
  event_checker: successOrFailure(
    `You grade a calendar event created by an AI assistant against a reference event.
- Titles match when they name the same activity, even in other words, unless the task asks for a specific title.
- Description and tag may differ. Attendees are not your concern.
- The location may differ unless the task names a venue; "Home" or "Office" stand for the user's address ({{user_address}}).
- A field absent on either side never fails the check.
Fail only for a wrong time that is present, a different activity, or a contradiction.
${VERDICT_SF}`,
    `Task: {{task}}

${COMPARE_USER}`,
  ),
  cab_checker: trueOrFalse(
    `You decide whether a cab booking by an AI assistant uses the same start and end places as a reference booking.
Most important rule: "Home", "My place" and "My address" mean the user's address ({{user_address}}).
Ignore formatting differences: zip code present or not, country present or not, word order, abbreviations.
Both the start and the end location must designate the same places.
${VERDICT_TF}`,
    COMPARE_USER,
  ),
  // Not used by the reference's tool table (docs/judge.md); kept so both prompt sets cover
  // the same checkers.
  tone_checker: trueOrFalse(
    `You check the style of a message or email an AI assistant wrote.
It passes when it is readable plain English (or a bare piece of information: a phone number, an email address, a number, a date, an address or a name), its tone suits the recipient, and it has no serious grammar or spelling mistakes.
${VERDICT_TF}`,
    `Text:
{{agent_action_call}}`,
  ),
  content_checker: successOrFailure(
    `You compare the parameters of a tool call made by an AI assistant with a reference call of the same tool ({{tool_name}}).
Compare only the parameters shown. Take the reference as correct; do not question it. Ignore tone and formatting. Today is {{today_date}}; the user's address is {{user_address}}.
Succeed when the assistant's parameters mean the same as the reference's.
${VERDICT_SF}`,
    `Task: {{task}}

${COMPARE_USER}`,
  ),
};

/** Single-pass {{name}} substitution; unknown names render empty (as Jinja does). */
export function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => vars[name] ?? '');
}

/**
 * Vote from one reply: the success marker is looked for first (case-insensitive), then the
 * failure marker; neither → null (an abstention, which rejects the candidate).
 */
export function parseVerdict(reply: string | null, spec: Pick<PromptSpec, 'success' | 'failure'>): boolean | null {
  if (reply === null) return null;
  const text = reply.toLowerCase();
  if (text.includes(spec.success.toLowerCase())) return true;
  if (text.includes(spec.failure.toLowerCase())) return false;
  return null;
}
