// raw_response text → a provider-shaped response object (docs/trace-format.md, "Reading traces").
import { isAnthropicJson, isAnthropicStream, normalizeAnthropicJson, reassembleAnthropic } from './anthropic.js';
import { isGoogleShape, normalizeGoogleJson, reassembleGoogle } from './google.js';
import { asObj, asStr, isObj, tryParseJson, type Obj } from './json-util.js';
import {
  isNativeCompletion,
  isOpenAiChatJson,
  normalizeNativeCompletion,
  normalizeOpenAiChatJson,
  reassembleOpenAiChat,
} from './openai-chat.js';
import { isResponsesJson, isResponsesStream, normalizeResponsesJson, reassembleResponses } from './openai-responses.js';
import { looksLikeSse, parseSseEvents } from './sse.js';

export function parseSseResponse(text: string): Obj {
  const events = parseSseEvents(text);
  const first = asObj(events[0]);
  if (isAnthropicStream(first)) return reassembleAnthropic(events);
  if (isGoogleShape(first)) return reassembleGoogle(events);
  if (isResponsesStream(first)) return reassembleResponses(events);
  return reassembleOpenAiChat(events);
}

export function parseJsonResponse(o: Obj): Obj {
  if (isAnthropicJson(o)) return normalizeAnthropicJson(o);
  if (isNativeCompletion(o)) return normalizeNativeCompletion(o);
  if (isResponsesJson(o)) return normalizeResponsesJson(o);
  if (isGoogleShape(o)) return normalizeGoogleJson(o);
  if (isOpenAiChatJson(o)) return normalizeOpenAiChatJson(o);
  return o; // error bodies and unknown shapes surface through error extraction
}

/** Empty object for empty or unparsable bodies (the caller keeps the raw text for display). */
export function parseRawResponse(raw: string): Obj {
  if (!raw) return {};
  if (looksLikeSse(raw)) return parseSseResponse(raw);
  const parsed = tryParseJson(raw);
  return isObj(parsed) ? parseJsonResponse(parsed) : {};
}

/**
 * Format B rows (a `response` object) are returned as the same object; Format A rows get a
 * parsed `response` with `status` = http_status on a shallow copy. The input is never mutated.
 */
export function normalizeEntry<T extends Obj>(entry: T): T & { response?: Obj } {
  if (isObj(entry.response)) return entry as T & { response: Obj };
  const raw = asStr(entry.raw_response);
  if (!raw) return entry;
  return { ...entry, response: { ...parseRawResponse(raw), status: entry.http_status } };
}
