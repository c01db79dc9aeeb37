// Command-line flags of `run` and `run-dataset` → RunPlan. Same validation as the TOML
// (resolve-parts.ts) with flag names in the messages; numbers are checked (spec §10.12).
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_IMAGE } from '../image/index.js';
import { isHfId } from '../dataset/index.js';
import { ConfigError } from './errors.js';
import { AGENT_TOOL_MODES, NETWORK_MODES, NOTIFICATION_MODES, RUN_DEFAULTS, THINKING_LEVELS, type RunPlan, type Target } from './plan.js';
import { checkLanguage, checkMin, languageRoot, resolveAgent, resolveJudge, resolveSecret } from './resolve-parts.js';
import { parseExtraBody } from '../../../agent-image/src/llm/extra-body.js';
import { normaliseSplits } from './splits.js';
import { FLAG_A2A_NAMES, resolveAgentToAgent } from './agent2agent.js';
import { noiseFromFlags, type NoiseFlags } from './noise.js';
import { findAdapter, knownAgentNames } from '../agents/index.js';
import { parseAgentOptionFlags } from './agent-choice.js';

export interface AgentFlags extends NoiseFlags {
  image: string;
  agent?: string;
  agentVersion?: string;
  agentOption?: string[];
  script?: string;
  runtime: string;
  adapterPort: string;
  timeout: string;
  healthTimeout: string;
  activityTimeout: string;
  provider?: string;
  model?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  baseUrl?: string;
  thinking: (typeof THINKING_LEVELS)[number];
  tools?: (typeof AGENT_TOOL_MODES)[number];
  maxTokens?: string;
  judgeModel?: string;
  judgeProvider?: string;
  judgeBaseUrl?: string;
  judgeApiKey?: string;
  judgeApiKeyEnv?: string;
  judgePromptVersion?: string;
  judgeExtraBody?: string;
  idleTimeout?: string;
  volume?: string[];
  outputDir?: string;
  logLevel: string;
  notificationMode: (typeof NOTIFICATION_MODES)[number];
  timeSpeed?: string;
  network: (typeof NETWORK_MODES)[number];
  a2aAppProp?: string;
  a2aSeed?: string;
  a2aProvider?: string;
  a2aModel?: string;
  a2aBaseUrl?: string;
  a2aApiKeyEnv?: string;
  enableCaching?: boolean;
  errorsAsFailures?: boolean;
}

export interface DatasetFlags extends AgentFlags {
  dataset: string;
  splits?: string;
  limit?: string;
  concurrency: string;
  output?: string;
  passAt: string;
  retry?: boolean;
  nonRecursive?: boolean;
  subset?: string;
  revision: string;
  refreshDataset?: boolean;
  language?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function addAgentOptions(cmd: Command): Command {
  return cmd
    .option('-i, --image <image>', 'agent image', DEFAULT_IMAGE)
    .option('--agent <name>', `who plays: oracle (replays the answer), default (our LLM agent), scripted (--script), a third-party agent, or external (the agent layer of --image); known: ${knownAgentNames().join(', ')}`)
    .option('--agent-version <version>', "a third-party agent's package version (default: the one the runner pins)")
    .option('--agent-option <key=value>', "an agent layer's option (repeatable; docs/agents.md)", collect)
    .option('--script <file>', 'JSON command list for --agent scripted')
    .option('--runtime <cli>', 'container CLI of the reference runner (podman|docker); recorded in run_config.json', 'podman')
    .option('--adapter-port <port>', 'adapter port inside the container (host networking)', String(RUN_DEFAULTS.adapterPort))
    .option('--timeout <seconds>', 'scenario timeout (raised to duration + 60 s when the scenario declares one)', String(RUN_DEFAULTS.timeout))
    .option('--health-timeout <seconds>', 'wait this long for the agent to be ready', String(RUN_DEFAULTS.healthTimeout))
    .option('--activity-timeout <seconds>', 'stop a run with no progress for this long', String(RUN_DEFAULTS.activityTimeout))
    .option('--provider <name>', 'agent LLM provider (anthropic, openai, google, gemini, openai-compat, openrouter)')
    .option('--model <id>', 'agent model id')
    .option('--api-key <key>', 'agent API key (prefer --api-key-env: argv is visible to other users)')
    .option('--api-key-env <VAR>', 'name of the variable holding the agent API key')
    .option('--base-url <url>', 'agent base URL (127.0.0.1/localhost is rewritten to the host gateway in bridge mode)')
    .addOption(new Option('--thinking <level>', 'reasoning effort').choices(THINKING_LEVELS).default('low'))
    .addOption(new Option('--tools <mode>', 'tool surface of the default agent').choices(AGENT_TOOL_MODES).default('shell'))
    .option('--max-tokens <n>', 'output token limit per model call (default: the provider default)')
    .option('--judge-model <id>', 'judge model (default $GAIA2_JUDGE_MODEL; none = hard checks only)')
    .option('--judge-provider <name>', 'judge provider (default $GAIA2_JUDGE_PROVIDER)')
    .option('--judge-base-url <url>', 'judge base URL (default $GAIA2_JUDGE_BASE_URL)')
    .option('--judge-api-key <key>', 'judge API key (prefer --judge-api-key-env)')
    .option('--judge-api-key-env <VAR>', 'name of the variable holding the judge API key')
    .option('--judge-prompt-version <name>', 'prompt set of the soft checks: default or omnilingual-gaia2 (default $GAIA2_JUDGE_PROMPT_VERSION)')
    .option('--judge-extra-body <json>', 'JSON object merged into every judge request, e.g. \'{"reasoning_effort":"low"}\' (default $GAIA2_JUDGE_EXTRA_BODY)')
    .option('--idle-timeout <seconds>', "the world daemon's idle timeout (> 0; default: the daemon's 300 s)")
    .option('--volume <spec>', 'recorded for compatibility; the engine API copies files instead of bind mounts', collect)
    .option('--output-dir <dir>', 'artifact root (result.json, events, traces, reports)')
    .option('--log-level <level>', 'log level', 'INFO')
    .addOption(new Option('--notification-mode <mode>', 'how environment notifications reach the agent').choices(NOTIFICATION_MODES).default('message'))
    .option('--time-speed <factor>', 'simulated clock speed factor (> 0)')
    .addOption(new Option('--network <mode>', 'bridge (published loopback port) or host').choices(NETWORK_MODES).default('bridge'))
    .option('--a2a-app-prop <x>', "Agent2Agent: fraction (0..1) of each scenario's apps operated by app agents (ARE's --a2a_app_prop)")
    .option('--a2a-seed <n>', "Agent2Agent: seed for the choice of apps (default: each scenario's own seed)")
    .option('--a2a-provider <name>', "Agent2Agent: the app agents' provider (default: the agent's)")
    .option('--a2a-model <id>', "Agent2Agent: the app agents' model (default: the agent's)")
    .option('--a2a-base-url <url>', "Agent2Agent: the app agents' base URL (default: the agent's)")
    .option('--a2a-api-key-env <VAR>', "Agent2Agent: name of the variable holding the app agents' API key")
    .option('--enable-caching', 'reuse finished, judged runs whose scenario, image, agent and judge are identical (result cache; GAIA2_RESULT_CACHE)')
    .option('--errors-as-failures', "the run's report counts runs that ended in errors as failed runs (default: leaves them out of every denominator, as the reference does)")
    .option('--noise', 'Noise phase: tool failures and renamed tools, background environment events (reference defaults)')
    .option('--noise-seed <n>', 'seed of the tool failures and the background events (default 0)')
    .option('--tool-failure-probability <p>', 'chance an app command fails, 0..1 (default 0.1)')
    .option('--env-events-per-minute <n>', 'background events per minute of scenario duration (default 10)');
}

/** `datasetRequired: false` for commands that can take the dataset from a config file instead. */
export function addDatasetOptions(cmd: Command, o: { datasetRequired?: boolean } = {}): Command {
  const dataset = new Option('-d, --dataset <path|org/name>', 'scenario dir, .jsonl, single JSON, or Hugging Face dataset id');
  return addAgentOptions(cmd)
    .addOption(o.datasetRequired === false ? dataset : dataset.makeOptionMandatory())
    .option('--splits <list>', 'comma-separated splits (execution,search,ambiguity,adaptability,time or all)')
    .option('--revision <rev>', 'Hugging Face revision (branch, tag or commit)', 'main')
    .option('--language <code>', 'per-language dataset (Omnilingual-Gaia2), e.g. spa_Latn: Hugging Face configs <code>_<split>, splits without time')
    .option('--refresh-dataset', 'download the Hugging Face dataset again even when cached (records the commit it now points to)')
    .option('--limit <n>', 'run only the first N scenarios (after --subset)')
    .option('-j, --concurrency <n>', 'containers in parallel', '1')
    .option('-o, --output <file>', 'extra copy of results.jsonl (always written to <output-dir>/results.jsonl)')
    .option('--pass-at <n>', 'independent runs per scenario (run_1 … run_N)', '1')
    .option('--retry', 'rerun only runs without a judged result (infrastructure errors, missing)')
    .option('--non-recursive', 'only the top level of a dataset directory')
    .option('--subset <manifest>', 'subset manifest JSON ({"splits": {"<split>": [ids]}})');
}

function int(v: string | undefined, flag: string, min = 1): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw new ConfigError(`${flag} must be an integer (got ${JSON.stringify(v)})`);
  const n = Number(v);
  checkMin(n, min, flag);
  return n;
}

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  if (v.trim() === '' || !Number.isFinite(n)) throw new ConfigError(`${flag} must be a number (got ${JSON.stringify(v)})`);
  return n;
}

/** A JSON object given as text (a flag or a variable); unset or blank = none. */
function jsonObject(v: string | undefined, where: string): Record<string, unknown> | undefined {
  try {
    return parseExtraBody(v, where);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

function existing(p: string, flag: string): string {
  const abs = resolve(p);
  if (!existsSync(abs)) throw new ConfigError(`${flag} does not exist: ${abs}`);
  return abs;
}

function commonPlan(f: AgentFlags, env: Record<string, string | undefined>): Omit<RunPlan, 'command' | 'target'> & { noise: RunPlan['noise'] } {
  const apiKey = resolveSecret({ value: f.apiKey, envName: f.apiKeyEnv }, { value: '--api-key', env: '--api-key-env', table: 'the command line' }, env);
  const agent = resolveAgent(
    { name: f.agent?.trim() || undefined, version: f.agentVersion, options: parseAgentOptionFlags(f.agentOption ?? [], f.agent ? findAdapter(f.agent.trim()) : null), image: f.image, runtime: f.runtime, provider: f.provider?.trim() || undefined, model: f.model?.trim() || undefined, apiKey, baseUrl: f.baseUrl, thinking: f.thinking, tools: f.tools, maxTokens: int(f.maxTokens, '--max-tokens'), volumes: f.volume, script: f.script ? existing(f.script, '--script') : null },
    { image: '--image', provider: '--provider', model: '--model', name: '--agent', script: '--script', version: '--agent-version', options: '--agent-option' },
  );
  const judgeKey = resolveSecret(
    { value: f.judgeApiKey ?? (env.GAIA2_JUDGE_API_KEY?.trim() || undefined), envName: f.judgeApiKey ? undefined : f.judgeApiKeyEnv },
    { value: '--judge-api-key', env: '--judge-api-key-env', table: 'the command line' },
    env,
  );
  const judge = resolveJudge(
    {
      provider: f.judgeProvider?.trim() || env.GAIA2_JUDGE_PROVIDER?.trim() || undefined,
      model: f.judgeModel?.trim() || env.GAIA2_JUDGE_MODEL?.trim() || undefined,
      baseUrl: f.judgeBaseUrl?.trim() || env.GAIA2_JUDGE_BASE_URL?.trim() || undefined,
      apiKey: judgeKey,
      promptVersion: f.judgePromptVersion?.trim() || env.GAIA2_JUDGE_PROMPT_VERSION?.trim() || undefined,
      extraBody: jsonObject(f.judgeExtraBody ?? env.GAIA2_JUDGE_EXTRA_BODY, f.judgeExtraBody !== undefined ? '--judge-extra-body' : 'GAIA2_JUDGE_EXTRA_BODY'),
    },
    {
      provider: '--judge-provider / GAIA2_JUDGE_PROVIDER',
      model: '--judge-model / GAIA2_JUDGE_MODEL',
      promptVersion: f.judgePromptVersion?.trim() ? '--judge-prompt-version' : 'GAIA2_JUDGE_PROMPT_VERSION',
    },
  );
  const agent2agent = resolveAgentToAgent(
    {
      appProp: num(f.a2aAppProp, '--a2a-app-prop'),
      seed: f.a2aSeed === undefined ? undefined : int(f.a2aSeed, '--a2a-seed', Number.MIN_SAFE_INTEGER),
      provider: f.a2aProvider,
      model: f.a2aModel,
      baseUrl: f.a2aBaseUrl,
      apiKeyEnv: f.a2aApiKeyEnv,
    },
    agent,
    FLAG_A2A_NAMES,
    env,
  );
  const timeSpeed = f.timeSpeed === undefined ? null : Number(f.timeSpeed);
  if (timeSpeed !== null) checkMin(timeSpeed, 0, '--time-speed', true);
  const idleTimeout = num(f.idleTimeout, '--idle-timeout') ?? null;
  if (idleTimeout !== null) checkMin(idleTimeout, 0, '--idle-timeout', true);
  return {
    configPath: null,
    agent,
    judge,
    agent2agent,
    noise: noiseFromFlags(f),
    run: {
      ...RUN_DEFAULTS,
      timeout: int(f.timeout, '--timeout')!,
      healthTimeout: int(f.healthTimeout, '--health-timeout')!,
      activityTimeout: int(f.activityTimeout, '--activity-timeout')!,
      idleTimeout,
      adapterPort: int(f.adapterPort, '--adapter-port')!,
      outputDir: f.outputDir ? resolve(f.outputDir) : null,
      logLevel: f.logLevel,
      notificationMode: f.notificationMode,
      timeSpeed,
      network: f.network,
      enableCaching: Boolean(f.enableCaching),
      errorsAsFailures: Boolean(f.errorsAsFailures),
    },
  };
}

export function planFromRunFlags(f: AgentFlags & { scenario: string }, env: Record<string, string | undefined>): RunPlan {
  const target: Target = { kind: 'scenario', scenario: existing(f.scenario, '--scenario') };
  return { command: 'run', target, ...commonPlan(f, env) };
}

export function planFromDatasetFlags(f: DatasetFlags, env: Record<string, string | undefined>): RunPlan {
  const common = commonPlan(f, env);
  const language = checkLanguage(f.language, '--language', { scenario: false });
  const splits = normaliseSplits(f.splits === undefined ? [] : f.splits.split(','), '--splits', language);
  const lang = language ? { language } : {};
  const limit = int(f.limit, '--limit') ?? null;
  const subset = f.subset ? existing(f.subset, '--subset') : null;
  let target: Target;
  if (isHfId(f.dataset)) target = { kind: 'hf', repo: f.dataset, revision: f.revision, splits, subset, limit, ...lang, ...(f.refreshDataset ? { refresh: true } : {}) };
  else {
    const path = existing(f.dataset, '--dataset');
    target = { kind: 'local', path: language ? languageRoot(path, language) : path, recursive: !f.nonRecursive, splits, subset, limit, ...lang };
  }
  const run = {
    ...common.run,
    concurrency: int(f.concurrency, '--concurrency')!,
    passAt: int(f.passAt, '--pass-at')!,
    retry: Boolean(f.retry),
    output: f.output ? resolve(f.output) : null,
  };
  if (run.passAt > 1 && !run.outputDir) throw new ConfigError('--pass-at > 1 requires --output-dir');
  return { command: 'run-dataset', target, ...common, run };
}
