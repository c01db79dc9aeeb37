// Prompt sets, chosen by name as the reference's judge prompt version (docs/judge.md, "Prompt
// sets"): "default" is our base prompts; "omnilingual-gaia2" replaces six checkers' prompts and
// keeps the others. An unknown name is an error that lists the known ones.
import { OMNILINGUAL_PROMPTS } from './prompts-omnilingual.js';
import { PROMPTS, type PromptSpec } from './prompts.js';
import type { SoftCheckerName } from './registry.js';

export const PROMPT_VERSIONS = ['default', 'omnilingual-gaia2'] as const;
export type PromptVersion = (typeof PROMPT_VERSIONS)[number];
export type PromptSet = Partial<Record<SoftCheckerName, PromptSpec>>;

const SETS: Record<PromptVersion, PromptSet> = {
  default: PROMPTS,
  'omnilingual-gaia2': { ...PROMPTS, ...OMNILINGUAL_PROMPTS },
};

export class UnknownPromptVersionError extends Error {
  override name = 'UnknownPromptVersionError';
}

/**
 * The prompt version a setting names: unset or empty means "default" (as in the reference).
 * `where` names the setting for the error (a TOML key, a flag or a variable).
 */
export function parsePromptVersion(value: string | null | undefined, where: string): PromptVersion {
  const v = (value ?? '').trim();
  if (v === '') return 'default';
  if ((PROMPT_VERSIONS as readonly string[]).includes(v)) return v as PromptVersion;
  throw new UnknownPromptVersionError(`${where}: unknown judge prompt version ${JSON.stringify(v)} (known: ${PROMPT_VERSIONS.join(', ')})`);
}

export const promptSet = (version: PromptVersion = 'default'): PromptSet => SETS[version];
