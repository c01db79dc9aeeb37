// One third-party agent evaluated as a user would: its layer built by the runner (package
// fetched with npm on the host and cached), then `gaia2-runner run-dataset --agent NAME` on
// the three samples and `gaia2-runner run --agent NAME` with a wrong play, at the same time,
// each against its own scripted double of the agent's provider (shell-driver.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ScenarioResult } from '@gaia2/contract';
import { adapterFor, type AgentAdapter } from '../../../../runner/src/agents/index.js';
import { connectEngine, type UnitBackend } from '../../../../runner/src/engine/index.js';
import { ensureAgentLayer, type AgentLayer } from '../../../../runner/src/image/agent-layer.js';
import type { Report } from '../../../../runner/src/report/index.js';
import { shellDriver, startFakeLlm, type FakeScriptItem, type RecordedRequest, type AgentShell, type DriverTurn, type FakeLlm, type ShellDriver } from '../../../helpers/fake-llm/index.js';
import { containerLooks } from './container-looks.js';
import type { ContainerLook } from '../../helpers/gateway-canary.js';
import { goodPlays, samplePlay, SAMPLES, scenarioFile, wrongPlay } from './agent-samples.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

export interface AgentUnderTest {
  name: string;
  shell: AgentShell;
  provider: string;
  model: string;
  /** Extra CLI flags (e.g. --thinking). */
  flags?: string[];
  /** [agent.options], given as --agent-option KEY=VALUE (acp: the program's package and command). */
  options?: Record<string, string>;
  /**
   * Simulated seconds per wall second (--time-speed). An agent that takes many wall seconds to
   * start (a big JavaScript CLI on a busy 2-core machine) reaches the time sample's email late
   * at speed 1; a slower clock gives it the wall time while the judge's window stays the same.
   */
  timeSpeed?: number;
  /**
   * Runs the samples one at a time and the wrong play after them (at most one program per engine
   * at once), as docs/agents.md "Engines and time" tells users with time scenarios: a program
   * whose first turn is CPU-heavy (OpenClaw 2026.9: 30 s of preparation with 8 gateways on 2 cores)
   * otherwise misses the time sample's 30 s window because of the test's own load.
   */
  oneAtATime?: boolean;
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
  /** Every container of the layer, looked into while its program talked to the double. */
  looks: ContainerLook[];
  /** The agent's own further runs (SuiteOptions.extra), by name. */
  extra: Record<string, DrivenRun>;
}

const KEY_VAR = 'THIRD_PARTY_E2E_KEY';

export async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Omit<CliRun, 'dir'>> {
  try {
    const r = await promisify(execFile)('node', [join(root, 'bin/gaia2-runner.mjs'), ...args], { cwd: root, env, maxBuffer: 1 << 26 });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}

/** The agent's layer on `image`, built (package fetched with npm on the host) when missing or stale. */
export async function agentLayer(engine: UnitBackend, image: string, name: string, log: (l: string) => void = () => {}, options: Record<string, string> = {}): Promise<AgentLayer> {
  const adapter = adapterFor(name, options);
  if (!adapter) throw new Error(`no adapter ${name}`);
  return ensureAgentLayer(engine.images!, { projectRoot: root, worldTag: image, adapter, version: adapter.package.version, log });
}

/** The adapter the agent plays with (acp: that of the program its options name). */
export const adapterUnderTest = (a: AgentUnderTest): AgentAdapter => adapterFor(a.name, a.options ?? {})!;

/**
 * What the double answers, given what the driver would: the driver's answer, or a failure in its
 * place (a provider refusing a request), decided per request.
 */
export type AnswerFilter = (req: RecordedRequest, driven: FakeScriptItem) => FakeScriptItem | Promise<FakeScriptItem>;

/** The agent's layer on `image` on the default engine (connected for this and closed). */
export async function agentLayerHere(image: string, name: string): Promise<AgentLayer> {
  const engine = await connectEngine();
  try {
    return await agentLayer(engine, image, name);
  } finally {
    await engine.close();
  }
}

/** A double of the agent's provider that plays `plays` through its shell tool (after `beforeAnswer`, when given; through `filter`, when given). */
export async function drivenDouble(a: AgentUnderTest, plays: DriverTurn[], beforeAnswer?: () => Promise<void>, filter?: AnswerFilter): Promise<{ driver: ShellDriver; fake: FakeLlm }> {
  const driver = shellDriver(a.shell, plays);
  const answer = filter ? (r: RecordedRequest) => filter(r, driver.respond(r)) : driver.respond;
  const respond = beforeAnswer ? async (r: RecordedRequest) => (await beforeAnswer(), answer(r)) : answer;
  return { driver, fake: await startFakeLlm({ format: a.shell.format, respond }) };
}

/**
 * The key and environment of a run: `base` (DOCKER_HOST names the engine) with the key in a
 * variable of its own and no judge model (the judge checks hard arguments only).
 */
export function runEnv(a: AgentUnderTest, extra: Record<string, string> = {}, base: NodeJS.ProcessEnv = process.env): { key: string; env: NodeJS.ProcessEnv } {
  const key = `sk-${a.name}-e2e-${process.pid}`;
  return { key, env: { ...base, [KEY_VAR]: key, GAIA2_JUDGE_MODEL: '', GAIA2_JUDGE_PROVIDER: '', ...extra } };
}

/** The flags every run of the agent gets: image, agent, its provider (the double), key, output, time. */
export const commonFlags = (a: AgentUnderTest, image: string, fake: FakeLlm, out: string): string[] => [
  '--image', image, '--agent', a.name, '--provider', a.provider, '--model', a.model,
  '--base-url', fake.url, '--api-key-env', KEY_VAR, '--output-dir', out, '--timeout', a.timeSpeed ? '900' : '400',
  ...(a.timeSpeed ? ['--time-speed', String(a.timeSpeed)] : []), ...(a.flags ?? []),
  ...Object.entries(a.options ?? {}).flatMap(([k, v]) => ['--agent-option', `${k}=${v}`]),
];

/** `gaia2-runner ARGS… <common flags> AFTER…` against a fresh double of the agent's provider playing `plays`. */
async function drivenCli(a: AgentUnderTest, image: string, plays: DriverTurn[], args: string[], out: string, env: NodeJS.ProcessEnv, after: string[] = [], beforeAnswer?: () => Promise<void>, filter?: AnswerFilter): Promise<DrivenRun> {
  const d = await drivenDouble(a, plays, beforeAnswer, filter);
  try {
    return { ...(await cli([...args, ...commonFlags(a, image, d.fake, out), ...after], env)), dir: out, ...d };
  } finally {
    await d.fake.close();
  }
}

/**
 * One `gaia2-runner run --agent NAME` of one scenario (or, with `args`, that command line, e.g.
 * a `run-dataset`) against a fresh double playing `plays`, with more flags after the common
 * ones (a phase, a second provider). `out` defaults to a fresh directory. The layer must exist.
 */
export async function runAgentOnce(
  image: string,
  a: AgentUnderTest,
  o: { scenario?: string; args?: string[]; out?: string; plays: DriverTurn[]; flags?: string[]; env?: Record<string, string>; filter?: AnswerFilter },
): Promise<DrivenRun & { key: string }> {
  const { key, env } = runEnv(a, o.env);
  const out = o.out ?? join(mkdtempSync(join(tmpdir(), `gaia2-e2e-${a.name}-`)), 'out');
  const args = o.args ?? ['run', '-s', o.scenario ?? scenarioFile(SAMPLES.single)];
  return { ...(await drivenCli(a, image, o.plays, args, out, env, o.flags, undefined, o.filter)), key };
}

export interface SuiteOptions {
  /** The CLI's environment: DOCKER_HOST names the engine `engine` is connected to. */
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** More runs of one agent's own (e.g. with runAgentOnce), after the samples. */
  extra?: SuiteExtra;
}

/** An agent's further runs on an engine (`env` reaches it), by name. */
export type SuiteExtra = (env: NodeJS.ProcessEnv) => Promise<Record<string, DrivenRun>>;

/** Builds the agent's layer on `image`, then runs the samples and the wrong play (concurrently unless `oneAtATime`). */
export async function runAgentSuite(engine: UnitBackend, image: string, a: AgentUnderTest, o: SuiteOptions): Promise<AgentSuiteRun> {
  const log = o.log ?? (() => {});
  const t0 = Date.now();
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const layer = await agentLayer(engine, image, a.name, log, a.options);
  log(`layer ${layer.tag} ${layer.built ? 'built' : 'already current'} after ${secs()}`);
  const work = mkdtempSync(join(tmpdir(), `gaia2-e2e-${a.name}-`));
  const { key, env } = runEnv(a, {}, o.env);
  const subset = join(work, 'subset.json');
  const splits: Record<string, string[]> = {};
  for (const s of Object.values(SAMPLES)) (splits[s.split('/')[0]!] ??= []).push(s.split('/')[1]!);
  writeFileSync(subset, JSON.stringify({ name: `${a.name}-samples`, splits }));
  const watch = containerLooks(String(o.env.DOCKER_HOST), layer.tag);
  const samples = () =>
    drivenCli(a, image, goodPlays(), ['run-dataset', '-d', join(root, 'examples/scenarios'), '--subset', subset, '--concurrency', a.oneAtATime ? '1' : '3'], join(work, 'samples'), env, [], watch.look);
  const wrongRun = () => drivenCli(a, image, wrongPlay(), ['run', '-s', scenarioFile(SAMPLES.single)], join(work, 'wrong'), env, [], watch.look);
  const [good, wrong] = a.oneAtATime ? [await samples(), await wrongRun()] : await Promise.all([samples(), wrongRun()]);
  log(`samples and wrong play done after ${secs()}; looked into ${watch.looks.length} containers`);
  // after the samples, so that their load is not the time sample's
  const extra = (await o.extra?.(o.env)) ?? {};
  if (o.extra) log(`${Object.keys(extra).length} more runs done after ${secs()}`);
  return { layer, key, good, wrong, looks: watch.looks, extra };
}

/**
 * `gaia2-runner run --agent NAME` of the single-turn sample as a user runs it on a fresh
 * engine: the CLI builds the layer it lacks there, then plays the sample against the double.
 */
export async function runSingleSample(image: string, a: AgentUnderTest, env: NodeJS.ProcessEnv): Promise<DrivenRun & { key: string }> {
  const run = runEnv(a, {}, env);
  const out = join(mkdtempSync(join(tmpdir(), `gaia2-e2e-${a.name}-`)), 'single');
  return { key: run.key, ...(await drivenCli(a, image, samplePlay(SAMPLES.single), ['run', '-s', scenarioFile(SAMPLES.single)], out, run.env)) };
}

export const readResults = (dir: string): ScenarioResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ScenarioResult);

export const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
