// Which host variables hold a provider's key, and under which names the container gets it
// (docs/reference-runner.md, "Profiles"). `gemini` is added (the reference forgot it).

const LOOKUP: Record<string, readonly string[]> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  'openai-codex': ['OPENAI_API_KEY'],
  'openai-compat': ['OPENAI_COMPAT_API_KEY', 'OPENAI_COMPLETIONS_API_KEY', 'OPENAI_API_KEY'],
  'openai-completions': ['OPENAI_COMPAT_API_KEY', 'OPENAI_COMPLETIONS_API_KEY', 'OPENAI_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  // the Jev judge's scoring service; a judge-only provider (never exported to the agent)
  typesafe: ['TYPESAFE_API_KEY'],
};

const EXPORTS: Record<string, readonly string[]> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  'openai-codex': ['OPENAI_API_KEY'],
  'openai-compat': ['OPENAI_COMPAT_API_KEY', 'OPENAI_COMPLETIONS_API_KEY'],
  'openai-completions': ['OPENAI_COMPAT_API_KEY', 'OPENAI_COMPLETIONS_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
};

/** Provider names whose key variables are known. */
export function knownKeyProviders(): string[] {
  return Object.keys(LOOKUP);
}

/** Host variables consulted for a provider's key, in order; `API_KEY` is always last. */
export function keyLookupVars(provider: string | null | undefined): string[] {
  return [...(LOOKUP[(provider ?? '').toLowerCase()] ?? []), 'API_KEY'];
}

/** Extra container variables that receive the agent key besides `API_KEY`. */
export function keyExportVars(provider: string | null | undefined): string[] {
  return [...(EXPORTS[(provider ?? '').toLowerCase()] ?? [])];
}

export interface ResolvedKey {
  value: string;
  /** Name of the variable it came from, or 'explicit'. */
  source: string;
}

/** First non-empty value among the provider's variables, then `API_KEY`. */
export function lookupProviderKey(provider: string | null | undefined, env: Record<string, string | undefined>): ResolvedKey | null {
  for (const name of keyLookupVars(provider)) {
    const v = env[name]?.trim();
    if (v) return { value: v, source: name };
  }
  return null;
}
