// Shared by the model gateway's e2e suites (local engines in gateway.test.ts, the remote engine
// in remote-engine.test.ts): a plan of our own agent and the LLM judge against provider doubles
// with a canary key, executed through the runner's own path (executePlan), and a look inside
// each running container — every process's environment and command line, and every file the
// container added or changed on top of its image — read out through the engine API and searched
// here, so the search itself never puts the canary into the container.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { planFromDatasetFlags, type DatasetFlags } from '../../../runner/src/config/cli-flags.js';
import type { RunPlan } from '../../../runner/src/plan/plan.js';
import { resolveDataset } from '../../../runner/src/dataset/index.js';
import type { UnitBackend, ContainerSpec } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { executePlan, type ExecuteOutcome } from '../../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../../runner/src/run/index.js';
import { oraclePlay } from './oracle-llm-script.js';
import type { PhaseCase } from './phase-model.js';
import { TEST_LABEL } from './llm-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
export const GATEWAY_IMAGE = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
export const KEY_VAR = 'GATEWAY_E2E_KEY';
export const CANARY = 'sk-gateway-e2e-CANARY-7f3a9c1e5d';

const golden = (id: string, f: string) => oraclePlay(join(root, 'test/fixtures/golden/cases', id, `${f}.events.jsonl`));
const bottle = golden('exec_shopping_bottle_order', 'oracle');
const flight = golden('search_email_flight_code', 'with_reads');
export const CASES: PhaseCase[] = [
  { task: 'Order two of the black 750ml Insulated Steel Bottles', ...bottle, expert: { cli: 'shopping', task: '-', actions: [], answer: '-' } },
  { task: 'booking confirmation code for my Lisbon flight', ...flight, expert: { cli: 'emails', task: '-', actions: [], answer: '-' } },
];

/** An engine that keeps every create request it was given (what the engine receives). */
export function spying(engine: UnitBackend, specs: ContainerSpec[]): UnitBackend {
  return new Proxy(engine, {
    get(target, prop, recv) {
      if (prop === 'create') return (spec: ContainerSpec) => (specs.push(spec), target.create(spec));
      const v = Reflect.get(target, prop, recv);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

export function subset(ids: Record<string, string[]>): string {
  const f = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-subset-')), 'subset.json');
  writeFileSync(f, JSON.stringify({ name: 'gateway', splits: ids }));
  return f;
}

export function gatewayPlan(out: string, f: Partial<DatasetFlags>): RunPlan {
  return planFromDatasetFlags(
    {
      dataset: join(root, 'examples/scenarios'), image: GATEWAY_IMAGE, runtime: 'podman', adapterPort: '8090', timeout: '300', healthTimeout: '60', activityTimeout: '240',
      thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', outputDir: out, concurrency: '1', passAt: '1', revision: 'main',
      agent: 'default', provider: 'openai-compat', model: 'fake-gateway', apiKeyEnv: KEY_VAR, tools: 'shell', ...f,
    } as DatasetFlags,
    { [KEY_VAR]: CANARY },
  );
}

export async function executeGateway(engine: UnitBackend, p: RunPlan, logs: string[] = []): Promise<ExecuteOutcome> {
  const hostEnv = { [KEY_VAR]: CANARY };
  const ds = await resolveDataset(p.target, { env: hostEnv });
  return executePlan(p, ds, {
    engine,
    hostEnv,
    progress: { start() {}, done() {}, stop() {}, log: (l) => void logs.push(l) },
    runScenario: (o: ScenarioRunOptions) => runScenario({ ...o, labels: { ...o.labels, ...TEST_LABEL } }),
    gatewayBackoff: { baseDelayMs: 200, maxDelayMs: 2000 },
  });
}

/** A Docker API client for a DOCKER_HOST value (unix:// or plain tcp://). */
export function dockerAt(host: string): Docker {
  if (host.startsWith('unix://')) return new Docker({ socketPath: host.slice('unix://'.length) });
  const u = new URL(host);
  return new Docker({ host: u.hostname, port: Number(u.port) });
}

export interface ContainerLook {
  name: string;
  /** Every process's environment and command line, as text. */
  processes: string;
  /** Every regular file the container added or changed on top of its image, as text. */
  files: string;
  /** How many such files were read. */
  changed: number;
}

/** Runs a command as root in a running container and returns its output (a TTY: no stream framing). */
export async function execText(c: Docker.Container, cmd: string[]): Promise<string> {
  const ex = await c.exec({ Cmd: cmd, User: 'root', AttachStdout: true, AttachStderr: true, Tty: true });
  const stream = await ex.start({ hijack: true, stdin: false, Tty: true });
  const chunks: Buffer[] = [];
  stream.on('data', (d: Buffer) => chunks.push(d));
  await new Promise<void>((resolve, reject) => {
    stream.on('end', () => resolve());
    stream.on('close', () => resolve());
    stream.on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

const PROCESSES = 'for p in /proc/[0-9]*; do echo "== $p"; tr "\\0" "\\n" < $p/environ; tr "\\0" " " < $p/cmdline; echo; done 2>/dev/null';
// The regular files among the paths, each after a "==> PATH <==" line: one tail for all of them (a cat
// per file took 100 s for the 3,000 files an OpenClaw container writes, on a busy machine).
const CAT_FILES = 'find "$@" -maxdepth 0 -type f -print0 2>/dev/null | xargs -0 -r tail -n +1 -- 2>/dev/null';

/** Looks inside a running container (by name): its processes and what it wrote. */
export async function lookInside(docker: Docker, name: string): Promise<ContainerLook> {
  const c = docker.getContainer(name);
  const processes = await execText(c, ['sh', '-c', PROCESSES]);
  const changes = ((await c.changes()) ?? []) as Array<{ Path: string; Kind: number }>;
  // Kind 0 = modified, 1 = added (2 = deleted); /proc and /sys are not part of the layer.
  const paths = changes.filter((x) => x.Kind !== 2).map((x) => x.Path);
  let files = '';
  for (let i = 0; i < paths.length; i += 1000) files += await execText(c, ['sh', '-c', CAT_FILES, 'sh', ...paths.slice(i, i + 1000)]);
  return { name, processes, files, changed: paths.length };
}
