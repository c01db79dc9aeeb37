// The run record is the one place a run setting is written down: a plan with every setting
// away from its default survives toRecord → run_config.json → fromRecord (rerun) unchanged,
// and every recorded setting is in the result cache's key unless record/cache-key.ts lists it
// as excluded. A setting added to RunPlan and left out of the record, the rerun or the key
// fails here.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromRunRecord } from '../../../runner/src/config/from-run-record.js';
import { RUN_DEFAULTS, type RunPlan, type RunSettings } from '../../../runner/src/plan/plan.js';
import { CACHE_KEY_EXCLUDED, findRunRecord, parseRunRecord, readRunRecord, toRecord } from '../../../runner/src/record/index.js';
import { configKey } from '../../../runner/src/result-cache/index.js';
import { loadInstructionsFile } from '../../../runner/src/agents/instructions-template.js';
import { DEFAULT_ENV_EVENTS } from '@gaia2/contract/noise';

const dir = mkdtempSync(join(tmpdir(), 'record-'));
const script = join(dir, 'script.json');
writeFileSync(script, '[["calendar","list"]]');
const template = join(dir, 'AGENTS_TEMPLATE.md');
writeFileSync(template, 'Run {{TOOL_LIST}} with {{EXEC_TOOL}}.\n');
const instructions = loadInstructionsFile(template, '[agent].instructions_file');
const env = { AGENT_KEY: 'sk-agent-0123456789', JUDGE_KEY: 'sk-judge-0123456789', A2A_KEY: 'sk-a2a-0123456789' };

// Every setting differs from its default, so a setting the rerun drops (and so falls back to
// its default) shows up as a difference.
const run: Required<RunSettings> = {
  timeout: 301, healthTimeout: 47, activityTimeout: 203, idleTimeout: 400, stuckLoopMinToolCalls: 6, budget: { maxCostUsd: 0.25, maxTokens: 50_000, totalMaxCostUsd: 12.5, totalMaxTokens: 2_000_000 }, engineOutageWait: 17, concurrency: 3, passAt: 2,
  retry: false, outputDir: join(dir, 'out'), output: null,
  logLevel: 'DEBUG', notificationMode: 'native', timeSpeed: 2.5, clockCpuWait: 'count', network: 'host', adapterPort: 8091,
  enableCaching: true, errorsAsFailures: true,
  backend: {
    kind: 'kubernetes', kubeconfig: '/home/me/.kube/config', context: 'lab', namespace: 'gaia2', imagePullPolicy: 'Always',
    resources: { requests: { cpu: '500m' }, limits: { memory: '2Gi' } }, nodeSelector: { pool: 'eval' },
    tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }], serviceAccount: 'runner', labels: { team: 'eval' }, pendingTimeout: 120, unsealedFallback: true,
  },
};
/** Settings a rerun does not take from the record, each for a reason. */
const NOT_FROM_RECORD = {
  configPath: 'a rerun is built from the record, not the TOML',
  'run.retry': 'a rerun starts afresh',
  'run.output': 'the single-scenario output file is not recorded',
  'run.outputDir': 'given to rerun (--output-dir)',
};
const full: Required<RunPlan> = {
  command: 'run-config',
  configPath: join(dir, 'run.toml'),
  target: { kind: 'hf', repo: 'org/data', revision: 'v2', splits: ['search', 'execution'], subset: join(dir, 'mini.txt'), limit: 7, language: 'spa_Latn' },
  agent: {
    name: 'scripted', image: 'localhost/gaia2-agent:x', runtime: 'docker', provider: 'anthropic', model: 'claude-x',
    apiKey: { value: env.AGENT_KEY, source: 'AGENT_KEY' }, baseUrl: 'http://127.0.0.1:9/v1', thinking: 'high', tools: 'functions',
    maxTokens: 4096, volumes: ['/data:/data:ro'], script, version: '1.2.3', options: { effort: 'high', verbose: true }, instructions,
  },
  judge: {
    provider: 'openai', model: 'gpt-j', baseUrl: 'https://judge.example/v1', apiKey: { value: env.JUDGE_KEY, source: 'JUDGE_KEY' },
    promptVersion: 'omnilingual-gaia2', extraBody: { reasoning_effort: 'low' },
  },
  run,
  agent2agent: { appProp: 0.5, seed: 9, provider: 'openai', model: 'gpt-a2a', baseUrl: 'https://a2a.example/v1', apiKey: { value: env.A2A_KEY, source: 'A2A_KEY' } },
  gateway: { mode: 'off', replay: null, retryAttempts: 3, retryBudgetSeconds: 120, limits: { default: { maxConcurrent: 2, requestsPerMinute: 60, tokensPerMinute: null }, byKey: {} }, allowProviderTools: ['web_search'] },
  noise: {
    tool_augmentation: { tool_failure_probability: 0.3, apply_tool_name_augmentation: false, apply_tool_description_augmentation: false, seed: 5 },
    env_events: { ...DEFAULT_ENV_EVENTS, num_env_events_per_minute: 3, env_events_seed: 4 },
  },
};

/** Every leaf of a value as [path, value] (arrays and maps of settings count as one leaf each). */
function leaves(v: unknown, path = ''): Array<[string, unknown]> {
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && !['run.backend', 'run_options.backend'].includes(path))
    return Object.entries(v).flatMap(([k, x]) => leaves(x, path ? `${path}.${k}` : k));
  return [[path, v]];
}

function writeRecord(plan: RunPlan, where: string): void {
  mkdirSync(where, { recursive: true });
  writeFileSync(join(where, 'run_config.json'), JSON.stringify({ schema_version: 1, ...toRecord(plan) }));
}

describe('run record', () => {
  it('the fixture sets every run setting away from its default', () => {
    for (const [k, v] of Object.entries(RUN_DEFAULTS))
      if (!(`run.${k}` in NOT_FROM_RECORD)) expect(run[k as keyof RunSettings], `run.${k}`).not.toEqual(v);
  });

  it('toRecord → run_config.json → fromRecord gives the same plan (every setting recorded and rerun)', () => {
    writeRecord(full, join(dir, 'one'));
    const { file, rec } = readRunRecord(join(dir, 'one'));
    const again = planFromRunRecord(rec, file, env, { outputDir: join(dir, 'out') });
    const want = new Map(leaves(full));
    const got = new Map(leaves(again));
    for (const [path, value] of want) {
      if (path in NOT_FROM_RECORD) continue;
      expect(got.get(path), path).toEqual(value);
    }
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  });

  it('no key value is recorded, only where it came from', () => {
    const text = JSON.stringify(toRecord(full));
    for (const v of Object.values(env)) expect(text).not.toContain(v);
    expect(toRecord(full).agent_options.api_key_env).toBe('AGENT_KEY');
  });

  it('every recorded setting is in the cache key unless listed as excluded', () => {
    const base = configKey(full, 'sha256:img');
    const rec = toRecord(full) as unknown as Record<string, unknown>;
    const paths = leaves(rec).map(([p]) => p);
    // The exclusion list names only fields the record has (no stale entries).
    for (const p of Object.keys(CACHE_KEY_EXCLUDED)) expect(paths.some((x) => x === p || x.startsWith(`${p}.`)), p).toBe(true);
    const excluded = (path: string) => Object.keys(CACHE_KEY_EXCLUDED).some((e) => path === e || path.startsWith(`${e}.`));
    for (const [path, value] of leaves(rec)) {
      if (path === 'target.kind' || path === 'seeds') continue; // another kind needs other fields (target is excluded whole); seeds is always null
      if (path.startsWith('agent_options.instructions_file.')) continue; // read again from the file on a rerun: below
      // A changed record field, read back through the schema and into a plan again.
      const changed = structuredClone(rec);
      const parts = path.split('.');
      let at = changed as Record<string, unknown>;
      for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
      at[parts.at(-1)!] = mutate(path, value);
      const plan = planFromRunRecord(parseRunRecord({ ...changed, schema_version: 2 }, 'x.json'), 'x.json', env, { outputDir: null });
      const key = configKey({ ...plan, agent: { ...plan.agent, script: full.agent.script } }, 'sha256:img');
      if (path === 'agent_options.script_sha256') continue; // derived from the script's content, not read back
      if (excluded(path)) expect(key, `${path} is excluded`).toBe(base);
      else expect(key, `${path} is in the key`).not.toBe(base);
    }
    // The instructions template: its bytes are in the key, its path is not.
    const other = { ...full, agent: { ...full.agent, instructions: { ...instructions, sha256: 'f'.repeat(64) } } };
    const moved = { ...full, agent: { ...full.agent, instructions: { ...instructions, path: '/elsewhere/AGENTS_TEMPLATE.md' } } };
    expect(configKey(other, 'sha256:img')).not.toBe(base);
    expect(configKey(moved, 'sha256:img')).toBe(base);
  });

  it('clock_cpu_wait is recorded only when set, so runs recorded before it keep their cache keys', () => {
    const unset = { ...full, run: { ...full.run, clockCpuWait: null } };
    expect(toRecord(unset).run_options).not.toHaveProperty('clock_cpu_wait');
    expect(toRecord(full).run_options.clock_cpu_wait).toBe('count');
    expect(configKey(unset, 'sha256:img')).not.toBe(configKey(full, 'sha256:img'));
  });

  it('a changed script (same path) changes the key', () => {
    const before = configKey(full, 'sha256:img');
    writeFileSync(script, '[["calendar","today"]]');
    expect(configKey(full, 'sha256:img')).not.toBe(before);
  });

  it('a pass@N root reads run_1/ once, via one rule', () => {
    writeRecord(full, join(dir, 'root', 'run_1'));
    expect(readRunRecord(join(dir, 'root')).file).toBe(join(dir, 'root', 'run_1', 'run_config.json'));
    expect(findRunRecord(join(dir, 'nothing-here'))).toBeNull();
  });

  it('a wrong field is named with its file', () => {
    const rec = { ...toRecord(full), agent_options: { ...toRecord(full).agent_options, thinking: 'very' } };
    expect(() => parseRunRecord({ ...rec, schema_version: 2 }, '/r/run_config.json')).toThrow(/\/r\/run_config\.json: field "agent_options\.thinking"/);
  });
});

/** A different valid value for a record field. */
function mutate(path: string, v: unknown): unknown {
  if (path === 'run_options.backend') return { kind: 'local' };
  if (path === 'command') return 'run-dataset';
  if (path === 'agent_options.name') return 'default';
  if (path === 'agent_options.thinking') return 'low';
  if (path === 'agent_options.tools') return 'shell';
  if (path === 'run_options.notification_mode') return 'message';
  if (path === 'run_options.network') return 'bridge';
  if (path === 'run_options.clock_cpu_wait') return 'exclude';
  if (path.endsWith('api_key_env')) return 'AGENT_KEY';
  if (path.endsWith('.api_key')) return 'given explicitly (not recorded)';
  if (path === 'agent2agent_options.app_prop') return 0.25;
  if (path.endsWith('tool_failure_probability')) return 0.6;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v + 1;
  if (Array.isArray(v)) return [...v, '/x:/x'];
  if (typeof v === 'string') return `${v}-2`;
  if (v === null) return 'x';
  return v;
}
