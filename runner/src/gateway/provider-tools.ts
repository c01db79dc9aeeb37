// Provider-side tools that reach the web. A sealed run's containers reach only their world and the
// gateway, but a model request can still ask the provider to search, fetch a URL or run code on
// the provider's machines, which would let an agent look answers up from outside the world. The
// gateway reads each request's tool list and refuses such requests unless the run allows that
// tool (`[gateway] allow_provider_tools`, or `[run] network = "open"`), so sealing holds at the
// model too. One name per capability, whichever provider spells it.
import type { ProviderTool } from '../plan/gateway.js';
import type { ApiKind } from './api-kinds.js';

/** What the run lets through: named tools, or all of them (an open network). */
export type ProviderToolPolicy = ReadonlySet<ProviderTool> | 'all';

/** Anthropic's server tools are dated types (web_search_20250305); the prefix names the capability. */
function anthropicTool(type: string): ProviderTool | null {
  if (/^web_search_/.test(type)) return 'web_search';
  if (/^web_fetch_/.test(type)) return 'web_fetch';
  if (/^code_execution_/.test(type)) return 'code_execution';
  return null;
}

/** OpenAI's Responses API hosted tools (web_search, web_search_preview…, code_interpreter). */
function openaiTool(type: string): ProviderTool | null {
  if (/^web_search/.test(type)) return 'web_search';
  if (type === 'code_interpreter') return 'code_execution';
  return null;
}

/** Gemini's tools are objects keyed by capability, in camelCase or snake_case (the REST API takes both). */
const GEMINI_KEYS: Record<string, ProviderTool> = {
  googleSearch: 'web_search',
  google_search: 'web_search',
  googleSearchRetrieval: 'web_search',
  google_search_retrieval: 'web_search',
  urlContext: 'web_fetch',
  url_context: 'web_fetch',
  codeExecution: 'code_execution',
  code_execution: 'code_execution',
};

/** The web-reaching provider tools a request asks for, each with the name the request used. */
export function providerToolsOf(kind: ApiKind, request: unknown): Array<{ tool: ProviderTool; as: string }> {
  if (!request || typeof request !== 'object') return [];
  const body = request as { tools?: unknown; web_search_options?: unknown };
  const found: Array<{ tool: ProviderTool; as: string }> = [];
  // Chat Completions' search models take a top-level option instead of a tool entry.
  if (kind === 'openai' && body.web_search_options !== undefined) found.push({ tool: 'web_search', as: 'web_search_options' });
  if (!Array.isArray(body.tools)) return found;
  for (const t of body.tools as unknown[]) {
    if (!t || typeof t !== 'object') continue;
    if (kind === 'gemini') {
      for (const k of Object.keys(t)) if (GEMINI_KEYS[k]) found.push({ tool: GEMINI_KEYS[k], as: k });
      continue;
    }
    const type = (t as { type?: unknown }).type;
    if (typeof type !== 'string') continue;
    const tool = kind === 'anthropic' ? anthropicTool(type) : openaiTool(type);
    if (tool) found.push({ tool, as: type });
  }
  return found;
}

/** The refusal message for a request, or null when every tool it asks for is allowed. */
export function refusedProviderTools(kind: ApiKind, request: unknown, policy: ProviderToolPolicy): string | null {
  if (policy === 'all') return null;
  const banned = providerToolsOf(kind, request).filter((f) => !policy.has(f.tool));
  if (!banned.length) return null;
  const names = [...new Set(banned.map((b) => `${b.as} (${b.tool})`))].join(', ');
  return (
    `model gateway: this run is sealed, and the request asks the provider for a tool that reaches the web: ${names}. ` +
    `Allow it with [gateway] allow_provider_tools = [${[...new Set(banned.map((b) => `"${b.tool}"`))].join(', ')}], or run with [run] network = "open"`
  );
}
