// One third-party agent evaluated as a user would: its layer built by the runner (package
// fetched with npm on the host and cached), then `gaia2-runner run-dataset --agent NAME` on
// the three samples and `gaia2-runner run --agent NAME` with a wrong play, at the same time,
// each against its own scripted double of the agent's provider (shell-driver.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ScenarioResult } from '../../../../agent-image/src/contract/index.js';
import { findAdapter } from '../../../../runner/src/agents/index.js';
import type { UnitBackend } from '../../../../runner/src/engine/index.js';
import { ensureAgentLayer, type AgentLayer } from '../../../../runner/src/image/agent-layer.js';
import type { Report } from '../../../../runner/src/report/index.js';
import { shellDriver, startFakeLlm, type AgentShell, type FakeLlm, type ShellDriver } from '../../../helpers/fake-llm/index.js';
import { goodPlays, SAMPLES, scenarioFile, wrongPlay } from './agent-samples.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

export interface AgentUnderTest {
  name: string;
  shell: AgentShell;
  provider: string;
  model: string;
  /** Extra CLI flags (e.g. --thinking). */
  flags?: string[];
  /**
   * Simulated seconds per wall second (--time-speed). An agent that takes many wall seconds to
   * start (a big JavaScript CLI on a busy 2-core machine) reaches the time sample's email late
   * at speed 1; a slower clock gives it the wall time while the judge's window stays the same.
   */
  timeSpeed?: number;
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
  dir: string;
}

export interface DrivenRun extends CliRun {
  fake: FakeLlm;
  driver: ShellDriver;
}

export interface AgentSuiteRun {
  layer: AgentLayer;
  good: DrivenRun;
  wrong: DrivenRun;
  key: string;
}

const KEY_VAR = 'THIRD_PARTY_E2E_KEY';

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Omit<CliRun, 'dir'>> {
  try {
    const r = await promisify(execFile)('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env, maxBuffer: 1 << 26 });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}

/** Builds the agent's layer on `image`, then runs the samples and the wrong play concurrently. */
export async function runAgentSuite(engine: UnitBackend, image: string, a: AgentUnderTest, log: (l: string) => void = () => {}): Promise<AgentSuiteRun> {
  const adapter = findAdapter(a.name);
  if (!adapter) throw new Error(`no adapter ${a.name}`);
  const layer = await ensureAgentLayer(engine.images!, { projectRoot: root, worldTag: image, adapter, version: adapter.package.version, log });
  const work = mkdtempSync(join(tmpdir(), `gaia2-e2e-${a.name}-`));
  const key = `sk-${a.name}-e2e-${process.pid}`;
  // The judge checks hard arguments only: no judge model from the caller's environment.
  const env = { ...process.env, [KEY_VAR]: key, GAIA2_JUDGE_MODEL: '', GAIA2_JUDGE_PROVIDER: '' };
  const common = (fake: FakeLlm, out: string) => [
    '--image', image, '--agent', a.name, '--provider', a.provider, '--model', a.model,
    '--base-url', fake.url, '--api-key-env', KEY_VAR, '--output-dir', out, '--timeout', a.timeSpeed ? '900' : '400',
    ...(a.timeSpeed ? ['--time-speed', String(a.timeSpeed)] : []), ...(a.flags ?? []),
  ];
  const subset = join(work, 'subset.json');
  const splits: Record<string, string[]> = {};
  for (const s of Object.values(SAMPLES)) (splits[s.split('/')[0]!] ??= []).push(s.split('/')[1]!);
  writeFileSync(subset, JSON.stringify({ name: `${a.name}-samples`, splits }));

  const start = async (plays: ReturnType<typeof goodPlays>) => {
    const driver = shellDriver(a.shell, plays);
    return { driver, fake: await startFakeLlm({ format: a.shell.format, respond: driver.respond }) };
  };
  const good = await start(goodPlays());
  const wrong = await start(wrongPlay());
  try {
    const goodOut = join(work, 'samples');
    const wrongOut = join(work, 'wrong');
    const [g, w] = await Promise.all([
      cli(['run-dataset', '-d', join(root, 'examples/scenarios'), '--subset', subset, '--concurrency', '3', ...common(good.fake, goodOut)], env),
      cli(['run', '-s', scenarioFile(SAMPLES.single), ...common(wrong.fake, wrongOut)], env),
    ]);
    return { layer, key, good: { ...g, dir: goodOut, ...good }, wrong: { ...w, dir: wrongOut, ...wrong } };
  } finally {
    await good.fake.close();
    await wrong.fake.close();
  }
}

export const readResults = (dir: string): ScenarioResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ScenarioResult);

export const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
