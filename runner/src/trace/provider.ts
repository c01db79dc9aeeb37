// Which provider and model a trace row belongs to (URL first, then response shape, then name).
import { asArr, asObj, asStr, type Obj } from './json-util.js';

export type Provider = 'anthropic' | 'google' | 'openai-compat' | '';

export function detectProvider(url: string, response: Obj, model: string): Provider {
  if (url) {
    if (url.includes('anthropic') || url.includes('/messages')) return 'anthropic';
    if (url.includes('generateContent') || (url.includes('google') && !url.includes('/chat/completions'))) return 'google';
    if (url.includes('/responses') || url.includes('/chat/completions')) return 'openai-compat';
  }
  if (response.stop_reason !== undefined && Array.isArray(response.content)) return 'anthropic';
  const m = model.toLowerCase();
  if (asStr(response.model).toLowerCase().startsWith('gemini') || m.startsWith('gemini')) return 'google';
  if (asArr(response.tool_calls).length) return 'openai-compat';
  if (m.startsWith('anthropic/') || m.startsWith('claude-')) return 'anthropic';
  if (m.startsWith('openai/') || m.startsWith('gpt-')) return 'openai-compat';
  if (m.startsWith('google/') || m.startsWith('gemini-')) return 'google';
  return '';
}

/** Native Gemini requests carry no model: the URL's, else the response's modelVersion. */
export const modelOf = (request: unknown, response: Obj, url = ''): string =>
  modelOfRequest(request, url) ?? asStr(response.model);

/**
 * The model a request names: its body's `model`, else the Gemini API's URL path
 * (`…/models/<m>:streamGenerateContent`, whose body names no model); null when neither does.
 */
export function modelOfRequest(request: unknown, url: string): string | null {
  const m = asStr(asObj(request).model);
  if (m) return m;
  const g = /\/models\/([^/:?]+):/.exec(url);
  return g ? decodeURIComponent(g[1]!) : null;
}
