// The API kinds the gateway speaks, per provider name of the plan: where the provider lives by
// default, which header carries its key, and which request paths exist (everything else is
// refused). Paths are checked relative to the upstream's root: its base URL without a trailing
// API version, so a client that adds the version itself (Claude Code, Gemini CLI) and one that
// is given it (the AI SDK) both fit.

export type ApiKind = 'anthropic' | 'openai' | 'gemini';

export interface KindSpec {
  kind: ApiKind;
  /** Base URL the provider's SDK uses when none is configured. */
  defaultBase: string | null;
  /** Version segments a root may end in (stripped to find the root, optional in paths). */
  versions: readonly string[];
  /** Allowed paths below the root (version segment included when the client sends one). */
  paths: readonly RegExp[];
  /** Sets the real key on an outgoing request. */
  inject(headers: Record<string, string>, key: string): void;
}

const bearer = (h: Record<string, string>, key: string) => void (h.authorization = `Bearer ${key}`);

const ANTHROPIC: KindSpec = {
  kind: 'anthropic',
  defaultBase: 'https://api.anthropic.com/v1',
  versions: ['v1'],
  paths: [/^(v1\/)?messages$/, /^(v1\/)?messages\/count_tokens$/, /^(v1\/)?models(\/[\w.:@-]+)?$/],
  inject: (h, key) => void (h['x-api-key'] = key),
};

const OPENAI_PATHS = [/^(v1\/)?chat\/completions$/, /^(v1\/)?responses$/, /^(v1\/)?models(\/[\w.:@/-]+)?$/];

const openaiLike = (defaultBase: string | null): KindSpec => ({
  kind: 'openai',
  defaultBase,
  versions: [],
  paths: OPENAI_PATHS,
  inject: bearer,
});

const GEMINI: KindSpec = {
  kind: 'gemini',
  defaultBase: 'https://generativelanguage.googleapis.com/v1beta',
  versions: ['v1beta', 'v1', 'v1alpha'],
  paths: [
    /^((v1beta|v1|v1alpha)\/)?models\/[\w.@-]+:(generateContent|streamGenerateContent|countTokens)$/,
    /^((v1beta|v1|v1alpha)\/)?models(\/[\w.@-]+)?$/,
  ],
  inject: (h, key) => void (h['x-goog-api-key'] = key),
};

const BY_PROVIDER: Record<string, KindSpec> = {
  anthropic: ANTHROPIC,
  openai: openaiLike('https://api.openai.com/v1'),
  'openai-codex': openaiLike('https://api.openai.com/v1'),
  'openai-compat': openaiLike(null),
  'openai-completions': openaiLike(null),
  openrouter: openaiLike('https://openrouter.ai/api/v1'),
  google: GEMINI,
  gemini: GEMINI,
};

/**
 * The API kind of a provider name (and its base URL: Google's OpenAI-compatible endpoint
 * …/openai speaks chat completions with a Bearer key); null when the gateway does not know it.
 */
export function kindOf(provider: string, baseUrl: string | null = null): KindSpec | null {
  const spec = BY_PROVIDER[provider.toLowerCase()] ?? null;
  if (spec?.kind === 'gemini' && baseUrl && /\/openai\/?$/.test(baseUrl)) return openaiLike(null);
  return spec;
}

/** An error body in the kind's own format, for answers the gateway makes itself. */
export function errorBody(kind: ApiKind, status: number, message: string): string {
  if (kind === 'anthropic') {
    const type = status === 401 ? 'authentication_error' : status === 404 ? 'not_found_error' : status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return JSON.stringify({ type: 'error', error: { type, message } });
  }
  if (kind === 'gemini') {
    const st = status === 401 ? 'UNAUTHENTICATED' : status === 404 ? 'NOT_FOUND' : status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT';
    return JSON.stringify({ error: { code: status, message, status: st } });
  }
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, code: status === 401 ? 'invalid_api_key' : null } });
}

export function knownGatewayProviders(): string[] {
  return Object.keys(BY_PROVIDER);
}

/** Where the configured base URL's API root is: its path without a trailing version segment. */
export function splitBase(base: string, spec: KindSpec): { origin: string; root: string; version: string | null } {
  const u = new URL(base);
  let path = u.pathname.replace(/\/+$/, '');
  let version: string | null = null;
  for (const v of spec.versions) {
    if (path.endsWith(`/${v}`)) {
      version = v;
      path = path.slice(0, -v.length - 1);
      break;
    }
  }
  return { origin: u.origin, root: path, version };
}

/**
 * The key a client sent, from any of the headers the kinds use (x-api-key, Authorization
 * Bearer, x-goog-api-key) or Gemini's ?key= query parameter.
 */
export function presentedToken(headers: Record<string, string | string[] | undefined>, url: URL): string | null {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || null;
  const auth = one(headers.authorization);
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null;
  return one(headers['x-api-key']) ?? (m ? m[1]!.trim() : null) ?? one(headers['x-goog-api-key']) ?? (url.searchParams.get('key')?.trim() || null);
}

/** Client headers never forwarded: credentials (replaced), hop-by-hop ones, and what undici sets itself. */
export const DROPPED_REQUEST_HEADERS = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'upgrade',
  'expect',
]);
