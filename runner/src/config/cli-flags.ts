// Command-line flags of `run` and `run-dataset` → RunPlan. Same validation as the TOML
// (resolve-parts.ts) with flag names in the messages; numbers are checked (spec §10.12).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isHfId } from '../dataset/index.js';
import { ConfigError } from '../plan/errors.js';
import { AGENT_TOOL_MODES, NETWORK_MODES, NOTIFICATION_MODES, RUN_DEFAULTS, THINKING_LEVELS, type RunPlan, type Target } from '../plan/plan.js';
import { checkLanguage, checkMin, checkSequences, checkStuckLoopMin, checkBudget, languageRoot, resolveAgent, resolveJudge, resolveSecret } from './resolve-parts.js';
import { parseExtraBody } from '@gaia2/contract/lib/llm/extra-body';
import { normaliseSplits } from '../plan/splits.js';
import { checkShard, shardOutputDir } from '../plan/shard.js';
import { FLAG_A2A_NAMES, resolveAgentToAgent } from './agent2agent.js';
import { noiseFromFlags } from './noise.js';
import { findAdapter, knownAgentNames } from '../agents/index.js';
import { parseAgentOptionFlags } from './agent-choice.js';
import { gatewayFlagValues } from './gateway-flags.js';
import { resolveGateway } from './gateway.js';
import type { AgentFlags, DatasetFlags } from './cli-options.js';

export { addAgentOptions, addDatasetOptions, type AgentFlags, type DatasetFlags } from './cli-options.js';

/** A whole-number flag value at least `min`, or undefined when not given; refused naming the flag. */
export function intFlag(v: string | undefined, flag: string, min = 1): number | undefined {
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
    { name: f.agent?.trim() || undefined, version: f.agentVersion, options: parseAgentOptionFlags(f.agentOption ?? [], f.agent ? findAdapter(f.agent.trim()) : null), image: f.image, runtime: f.runtime, provider: f.provider?.trim() || undefined, model: f.model?.trim() || undefined, apiKey, baseUrl: f.baseUrl, thinking: f.thinking, tools: f.tools, maxTokens: intFlag(f.maxTokens, '--max-tokens'), volumes: f.volume, script: f.script ? existing(f.script, '--script') : null, instructionsFile: f.instructionsFile ?? null, ...(f.contextWindow !== undefined ? { contextWindow: intFlag(f.contextWindow, '--context-window') } : {}) },
    { image: '--image', provider: '--provider', model: '--model', name: '--agent', script: '--script', version: '--agent-version', options: '--agent-option', instructions: '--instructions-file', contextWindow: '--context-window' },
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
      seed: f.a2aSeed === undefined ? undefined : intFlag(f.a2aSeed, '--a2a-seed', Number.MIN_SAFE_INTEGER),
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
    gateway: resolveGateway({ flags: gatewayFlagValues(f), path: (raw) => resolve(raw) }),
    run: {
      ...RUN_DEFAULTS,
      timeout: intFlag(f.timeout, '--timeout')!,
      healthTimeout: intFlag(f.healthTimeout, '--health-timeout')!,
      activityTimeout: intFlag(f.activityTimeout, '--activity-timeout')!,
      idleTimeout,
      stuckLoopMinToolCalls: checkStuckLoopMin(intFlag(f.stuckLoopMinToolCalls, '--stuck-loop-min-tool-calls', 0), '--stuck-loop-min-tool-calls'),
      budget: checkBudget(
        { maxCostUsd: num(f.maxCostUsd, '--max-cost-usd'), maxTokens: num(f.maxRunTokens, '--max-run-tokens'), totalMaxCostUsd: num(f.totalMaxCostUsd, '--total-max-cost-usd'), totalMaxTokens: num(f.totalMaxTokens, '--total-max-tokens') },
        { maxCostUsd: '--max-cost-usd', maxTokens: '--max-run-tokens', totalMaxCostUsd: '--total-max-cost-usd', totalMaxTokens: '--total-max-tokens' },
      ),
      engineOutageWait: intFlag(f.engineOutageWait, '--engine-outage-wait', 0) ?? RUN_DEFAULTS.engineOutageWait,
      adapterPort: intFlag(f.adapterPort, '--adapter-port')!,
      outputDir: f.outputDir ? resolve(f.outputDir) : null,
      logLevel: f.logLevel,
      notificationMode: f.notificationMode,
      timeSpeed,
      clockCpuWait: f.clockCpuWait ?? null,
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
  const limit = intFlag(f.limit, '--limit') ?? null;
  const subset = f.subset ? existing(f.subset, '--subset') : null;
  const sequences = f.sequences ? existing(f.sequences, '--sequences') : null;
  const shard = checkShard(intFlag(f.shardId, '--shard-id', 0), intFlag(f.numShards, '--num-shards'), { index: '--shard-id', count: '--num-shards' });
  if (shard && !common.run.outputDir) throw new ConfigError('--num-shards requires --output-dir (each shard writes <output-dir>/shards/<I>-of-<N>/)');
  const sharded = { ...(shard ? { shard } : {}), ...(sequences ? { sequences } : {}) };
  checkSequences(
    { sequences, subset, sharded: Boolean(shard), outputDir: common.run.outputDir, scenarioTarget: false },
    { sequences: '--sequences', subset: '--subset', shard: '--num-shards', outputDir: '--output-dir' },
  );
  let target: Target;
  if (isHfId(f.dataset)) target = { kind: 'hf', repo: f.dataset, revision: f.revision, splits, subset, limit, ...lang, ...sharded, ...(f.refreshDataset ? { refresh: true } : {}) };
  else {
    const path = existing(f.dataset, '--dataset');
    target = { kind: 'local', path: language ? languageRoot(path, language) : path, recursive: !f.nonRecursive, splits, subset, limit, ...lang, ...sharded };
  }
  const run = {
    ...common.run,
    outputDir: shard && common.run.outputDir ? shardOutputDir(common.run.outputDir, shard) : common.run.outputDir,
    concurrency: intFlag(f.concurrency, '--concurrency')!,
    passAt: intFlag(f.passAt, '--pass-at')!,
    retry: Boolean(f.retry),
    output: f.output ? resolve(f.output) : null,
  };
  if (run.passAt > 1 && !run.outputDir) throw new ConfigError('--pass-at > 1 requires --output-dir');
  return { command: 'run-dataset', target, ...common, run };
}
