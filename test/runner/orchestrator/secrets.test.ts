// A canary secret used as API key reaches the container env and nothing else: no output
// file, no log line, no printed plan.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromDatasetFlags } from '../../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import { executePlan } from '../../../runner/src/orchestrator/index.js';
import { redactValue } from '../../../runner/src/secrets/redact.js';
import { writeFileSync, mkdirSync } from 'node:fs';
import { writeScenario } from '../dataset/make-scenario.js';
import { runCliInProcess } from '../config/in-process-cli.js';
import { fakeEngine, recordingProgress } from './fakes.js';
import type { ScenarioRunOptions } from '../../../runner/src/run/index.js';
import type { ScenarioResult } from '@gaia2/contract/result';

const CANARY = 'sk-canary-7f3e9d2a41b8c6';

function allFiles(d: string): string[] {
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

/** Two scenarios, the canary as the agent's and the judge's key, Anthropic for both. */
function canaryPlan(prefix: string, flags: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeScenario(join(dir, 'data/search/a.json'), 'a');
  writeScenario(join(dir, 'data/search/b.json'), 'b');
  const env = { CANARY_KEY: CANARY, ANTHROPIC_API_KEY: CANARY };
  const plan = planFromDatasetFlags(
    {
      dataset: join(dir, 'data'), image: 'localhost/gaia2-agent:latest', runtime: 'podman', adapterPort: '8090', timeout: '600', healthTimeout: '120', activityTimeout: '600',
      thinking: 'low', logLevel: 'DEBUG', notificationMode: 'message', network: 'bridge', concurrency: '2', passAt: '2', revision: 'main',
      provider: 'anthropic', model: 'claude-x', apiKeyEnv: 'CANARY_KEY', judgeProvider: 'anthropic', judgeModel: 'judge-x', outputDir: join(dir, 'out'),
      ...flags,
    },
    env,
  );
  return { dir, env, plan };
}

describe('secret canary', () => {
  it('direct mode (--no-gateway): never appears in run_config, result, results.jsonl, reports or logs, but reaches the container env', async () => {
    const { dir, env, plan } = canaryPlan('canary-', { baseUrl: `http://user:${CANARY}@127.0.0.1:9/v1`, gateway: false });
    const seenEnv: Array<Record<string, string>> = [];
    const progress = recordingProgress();
    const runScenario = async (o: ScenarioRunOptions): Promise<ScenarioResult> => {
      seenEnv.push(o.env);
      o.log?.(`debug: container env API_KEY=${o.env.API_KEY}`); // a careless log line
      const r: ScenarioResult = { scenario_id: 'x', success: null, status: 'error', error_kind: 'provider_error', error: `401 for key ${CANARY}`, scenario_file: o.scenarioFile, run_index: o.runIndex };
      mkdirSync(o.outputDir!, { recursive: true });
      writeFileSync(join(o.outputDir!, 'result.json'), JSON.stringify(redactValue(r)));
      return r; // the in-memory result still holds the secret
    };
    const ds = await resolveDataset(plan.target, { env });
    const outcome = await executePlan(plan, ds, { engine: fakeEngine(), runScenario, progress, hostEnv: env });
    expect(seenEnv[0]!.API_KEY).toBe(CANARY);
    expect(seenEnv[0]!.ANTHROPIC_API_KEY).toBe(CANARY);
    expect(seenEnv[0]!.GAIA2_JUDGE_API_KEY).toBe(CANARY);
    const files = allFiles(join(dir, 'out'));
    expect(files.some((f) => f.endsWith('results.jsonl'))).toBe(true);
    expect(files.some((f) => f.endsWith('run_config.json'))).toBe(true);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(CANARY);
    expect(progress.lines.join('\n')).not.toContain(CANARY);
    expect(progress.lines.join('\n')).toContain('API_KEY=***');
    expect(progress.lines.join('\n')).toContain('provider_error: 401 for key ***');
    expect(outcome.reportText).not.toContain(CANARY);
  });

  it('with the model gateway (the default): containers get per-container tokens and the gateway URL, never the key', async () => {
    const { dir, env, plan } = canaryPlan('canary-gw-', {});
    const seenEnv: Array<Record<string, string>> = [];
    const runScenario = async (o: ScenarioRunOptions): Promise<ScenarioResult> => {
      seenEnv.push(o.env);
      const r: ScenarioResult = { scenario_id: 'x', success: false, status: 'fail', scenario_file: o.scenarioFile, run_index: o.runIndex };
      mkdirSync(o.outputDir!, { recursive: true });
      writeFileSync(join(o.outputDir!, 'result.json'), JSON.stringify(r));
      return r;
    };
    const ds = await resolveDataset(plan.target, { env });
    await executePlan(plan, ds, { engine: fakeEngine(), runScenario, progress: recordingProgress(), hostEnv: env });
    expect(seenEnv).toHaveLength(4);
    for (const e of seenEnv) {
      expect(JSON.stringify(e)).not.toContain(CANARY);
      expect(e.API_KEY).toMatch(/^g2gw-/);
      expect(e.ANTHROPIC_API_KEY).toBe(e.API_KEY);
      expect(e.GAIA2_JUDGE_API_KEY).toMatch(/^g2gw-/);
      expect(e.GAIA2_JUDGE_API_KEY).not.toBe(e.API_KEY);
      expect(e.BASE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\/anthropic$/);
      expect(e.GAIA2_JUDGE_BASE_URL).toBe(e.BASE_URL);
    }
    expect(new Set(seenEnv.map((e) => e.API_KEY)).size).toBe(4);
    const cfg = JSON.parse(readFileSync(join(dir, 'out', 'run_1', 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway).toMatchObject({ mode: 'gateway', upstreams: [{ id: 'anthropic', provider: 'anthropic', base: 'https://api.anthropic.com/v1', roles: ['judge', 'agent'] }] });
    for (const f of allFiles(join(dir, 'out'))) expect(readFileSync(f, 'utf8'), f).not.toContain(CANARY);
  });

  it('the printed plan (--dry-run) names where keys come from, never their values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'canary-cli-'));
    writeScenario(join(dir, 's.json'), 's');
    writeFileSync(
      join(dir, 'c.toml'),
      `[target]\nscenario = "s.json"\n[agent]\nprovider = "openai"\nmodel = "m"\napi_key = "${CANARY}"\n[judge]\nprovider = "openai"\nmodel = "j"\napi_key_env = "JUDGE_CANARY"\n`,
    );
    const r = await runCliInProcess(['run-config', '--config', join(dir, 'c.toml'), '--dry-run'], dir, { JUDGE_CANARY: CANARY + '-judge' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('Agent API key: given in config (redacted)');
    expect(r.out).toContain('Judge API key: from $JUDGE_CANARY');
    expect(r.out + r.err).not.toContain(CANARY);
  });
});
