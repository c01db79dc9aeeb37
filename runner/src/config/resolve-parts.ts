// Validation shared by the TOML loader and the command-line flags: agent choice, judge,
// secrets by name, numeric ranges. `where` names the option for messages, e.g.
// `[agent].provider` for TOML or `--provider` for flags.
import { NO_BUDGET, type RunBudget } from '../plan/budget.js';
import { detectProfile } from '../env/profiles.js';
import { registerSecret } from '../secrets/redact.js';
import { ConfigError } from '../plan/errors.js';
import { parsePromptVersion } from '@gaia2/contract/lib/judge/prompt-sets';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGE_PATTERN, type AgentName, type AgentSettings, type JudgeSettings, type SecretRef } from '../plan/plan.js';
import { resolveAgentChoice, type AgentOptionValue } from './agent-choice.js';
import { loadInstructionsFile } from '../agents/instructions-template.js';
import { listAdapters } from '../agents/registry.js';

const contextWindowAgents = (): string[] => listAdapters().filter((a) => a.contextWindow).map((a) => a.name);

export interface SecretInput {
  value?: string | undefined;
  envName?: string | undefined;
}

/** A literal secret or the name of a variable holding it; both at once is an error. */
export function resolveSecret(s: SecretInput, names: { value: string; env: string; table: string; envLabel?: string }, env: Record<string, string | undefined>): SecretRef | null {
  if (s.value && s.envName) throw new ConfigError(`${names.table} cannot set both ${names.value} and ${names.env}`);
  if (s.value) {
    registerSecret(s.value);
    return { value: s.value, source: 'explicit' };
  }
  if (s.envName) {
    const v = env[s.envName]?.trim();
    if (!v) throw new ConfigError(`${names.envLabel ?? names.env} references an unset env var: ${s.envName}`);
    registerSecret(v);
    return { value: v, source: s.envName };
  }
  return null;
}

export interface AgentInput {
  name?: AgentName | undefined;
  image?: string | undefined;
  runtime?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  apiKey: SecretRef | null;
  baseUrl?: string | undefined;
  thinking?: AgentSettings['thinking'] | undefined;
  tools?: AgentSettings['tools'] | undefined;
  maxTokens?: number | undefined;
  contextWindow?: number | undefined;
  volumes?: string[] | undefined;
  script?: string | null | undefined;
  version?: string | undefined;
  options?: Record<string, AgentOptionValue> | undefined;
  /** A template of the agent's instructions (a path; third-party agents only). */
  instructionsFile?: string | null | undefined;
}

export function resolveAgent(
  a: AgentInput,
  opt: { image: string; provider: string; model: string; name: string; script: string; version: string; options: string; instructions: string; contextWindow?: string },
): AgentSettings {
  if (!a.image) throw new ConfigError(`${opt.image} is required`);
  const profile = detectProfile(a.image);
  let name: AgentName = a.name ?? (profile.oracleOnly ? 'oracle' : 'default');
  if (a.name) resolveAgentChoice(a.name, { options: a.options }, opt); // an unknown name is named first, whatever the image
  if (profile.oracleOnly && name !== 'oracle')
    throw new ConfigError(`${opt.name} = ${name} is not possible with image ${a.image}: it is an oracle image (rename the image or use ${opt.name} = oracle)`);
  if (profile.oracleOnly) name = 'oracle';
  const choice = resolveAgentChoice(name, a, opt);
  // A third-party agent talks to a model; `external` may (provider settings pass through when given).
  const provider = a.provider ?? choice.adapter?.providers[0];
  if (choice.adapter && !a.model) throw new ConfigError(`${opt.model} is required for ${opt.name} = ${name} (the model the agent runs on)`);
  if (name === 'default') {
    const missing = [!a.provider && opt.provider, !a.model && opt.model].filter(Boolean);
    if (missing.length)
      throw new ConfigError(`Agent model configuration is required for the default (LLM) agent. Missing: ${missing.join(', ')} (or choose ${opt.name} = oracle)`);
  }
  if (name === 'scripted' && !a.script) throw new ConfigError(`${opt.script} is required when ${opt.name} = scripted`);
  const llm = name === 'default' || choice.adapter !== null || (name === 'external' && !!provider);
  if (a.contextWindow !== undefined) {
    // Only where the agent itself has such a setting: elsewhere the value would be ignored.
    const where = opt.contextWindow ?? 'context_window';
    if (!choice.adapter?.contextWindow)
      throw new ConfigError(`${where} applies to agents with a context-window setting of their own (${contextWindowAgents().join(', ')}), not ${opt.name} = ${name}`);
    checkMin(a.contextWindow, 1, where);
  }
  let instructions: AgentSettings['instructions'] = null;
  if (a.instructionsFile) {
    if (!choice.adapter && name !== 'external') throw new ConfigError(`${opt.instructions} applies to third-party agents only (${opt.name} = ${name})`);
    try {
      instructions = loadInstructionsFile(a.instructionsFile, opt.instructions);
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
  }
  return {
    name,
    image: a.image,
    runtime: a.runtime ?? 'podman',
    provider: llm ? provider! : null,
    model: llm ? a.model! : null,
    apiKey: llm ? a.apiKey : null,
    baseUrl: llm ? (a.baseUrl ?? null) : null,
    thinking: a.thinking ?? 'low',
    tools: a.tools ?? 'shell',
    maxTokens: llm ? (a.maxTokens ?? null) : null,
    ...(a.contextWindow !== undefined ? { contextWindow: a.contextWindow } : {}),
    volumes: a.volumes ?? [],
    script: name === 'scripted' ? a.script! : null,
    version: choice.version,
    options: choice.options,
    instructions,
  };
}

export interface JudgeInput {
  provider?: string | undefined;
  model?: string | undefined;
  baseUrl?: string | undefined;
  apiKey: SecretRef | null;
  promptVersion?: string | undefined;
  extraBody?: Record<string, unknown> | undefined;
}

export function resolveJudge(j: JudgeInput, opt: { provider: string; model: string; promptVersion?: string }): JudgeSettings | null {
  // Checked even without a judge model: a misspelt prompt set is a mistake either way.
  const version = checkPromptVersion(j.promptVersion, opt.promptVersion ?? '[judge].prompt_version');
  if (!j.provider && !j.model) return null; // hard checks only
  const missing = [!j.provider && opt.provider, !j.model && opt.model].filter(Boolean);
  if (missing.length) throw new ConfigError(`Judge configuration is incomplete. Missing: ${missing.join(', ')} (set both, or neither for hard checks only)`);
  const extraBody = j.extraBody && Object.keys(j.extraBody).length ? j.extraBody : null;
  return { provider: j.provider!, model: j.model!, baseUrl: j.baseUrl ?? null, apiKey: j.apiKey, promptVersion: version, extraBody };
}

/** The prompt set's name, or null when unset; an unknown name is a ConfigError naming `where`. */
export function checkPromptVersion(value: string | undefined, where: string): string | null {
  if (!value?.trim()) return null;
  try {
    return parsePromptVersion(value, where);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/**
 * [run].stuck_loop_min_tool_calls (--stuck-loop-min-tool-calls): 0 = off, else at least 2 (one
 * call is no repetition). Unset = off.
 */
export function checkStuckLoopMin(value: number | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0 || value === 1) throw new ConfigError(`${name} must be 0 (off) or an integer >= 2: the number of identical tool calls in a row that ends a run (got ${value})`);
  return value;
}

/**
 * A sequences file plays whole chains: a subset or a shard would cut them, and the checkpoints
 * and resumable results need a directory. `names` are the options as the user wrote them.
 */
export function checkSequences(
  given: { sequences: string | null; subset: string | null; sharded: boolean; outputDir: string | null; scenarioTarget: boolean },
  names: { sequences: string; subset: string; shard: string; outputDir: string },
): void {
  if (!given.sequences) return;
  if (given.scenarioTarget) throw new ConfigError(`${names.sequences} chains the scenarios of a dataset target, not a single scenario`);
  if (given.subset) throw new ConfigError(`${names.sequences} cannot be used with ${names.subset}: the sequences file is the selection`);
  if (given.sharded) throw new ConfigError(`${names.sequences} cannot be used with ${names.shard}: a shard would cut chains`);
  if (!given.outputDir) throw new ConfigError(`${names.sequences} requires ${names.outputDir} (checkpoints go to <output-dir>/sequential_state/)`);
}

/**
 * The run's budget ([run] max_cost_usd … or the matching flags): each cap, when given, > 0
 * (tokens a whole number). `names` are the settings as the user wrote them, in RunBudget order.
 */
export function checkBudget(given: Partial<Record<keyof RunBudget, number | undefined>>, names: Record<keyof RunBudget, string>): RunBudget {
  const out = { ...NO_BUDGET };
  for (const k of Object.keys(names) as Array<keyof RunBudget>) {
    const v = given[k];
    if (v === undefined) continue;
    if (!Number.isFinite(v) || v <= 0 || (k.endsWith('Tokens') && !Number.isInteger(v))) throw new ConfigError(`${names[k]} must be ${k.endsWith('Tokens') ? 'a whole number of tokens' : 'a dollar amount'} > 0 (got ${v})`);
    out[k] = v;
  }
  return out;
}

export function checkMin(value: number | undefined, min: number, name: string, strict = false): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || (strict ? value <= min : value < min)) throw new ConfigError(`${name} must be ${strict ? '>' : '>='} ${min} (got ${value})`);
}

/** A `language_Script` code (spa_Latn), or null when unset; not with a single scenario. */
export function checkLanguage(value: string | undefined, where: string, o: { scenario: boolean }): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (o.scenario) throw new ConfigError(`${where} cannot be used with a single scenario (it selects a per-language dataset)`);
  if (!LANGUAGE_PATTERN.test(v)) throw new ConfigError(`${where} must be a language_Script code such as spa_Latn or cmn_Hans (got ${JSON.stringify(v)})`);
  return v;
}

/**
 * A local export with a language: `<root>/<language>` when the root holds one directory per
 * language, else the root itself (it is that language's tree).
 */
export function languageRoot(root: string, language: string): string {
  const sub = join(root, language);
  return existsSync(sub) && statSync(sub).isDirectory() ? sub : root;
}
