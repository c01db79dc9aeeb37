// Drives an agent image the way the reference Python runner (gaia2-cli's gaia2_runner) does,
// with the podman CLI and nothing of ours: `run -d` with its `-e` variables and
// `--network=host`, `exec curl /health` inside the container until `connected`, `GET /status`
// from the host every 2 s (recovering daemon_status.json by `cp` after 5 failed polls),
// `exec -u gaia2 cat` of the events, `cp` of the artifacts, then `stop -t 5` and `rm -f`.
// The reference's result rule: a judgment in the daemon status decides pass/fail; without
// one the run is an error. The sequence, names and intervals are documented in
// docs/reference-runner.md.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
// The key export names are a reference fact both sides share (plus `gemini`, which the reference lacks).
import { keyExportVars } from '../../../runner/src/env/providers.js';

const run = promisify(execFile);
const PODMAN = 'podman';
const TERMINAL = new Set(['complete', 'stopped', 'error']);

/** The reference's image profiles, by substring of the lower-cased image name (first match wins). */
export type Profile = 'openclaw' | 'hermes' | 'oracle' | 'default';
export function detectProfile(image: string): Profile {
  const n = image.toLowerCase();
  if (n.includes('gaia2-oc') || n.includes('openclaw')) return 'openclaw';
  if (n.includes('gaia2-hermes') || n.includes('hermes')) return 'hermes';
  if (n.includes('gaia2-oracle') || n.includes('oracle')) return 'oracle';
  return 'default';
}

export interface ReferenceRunOptions {
  image: string;
  scenarioFile: string;
  adapterPort: number;
  outputDir: string;
  agent?: { provider: string; model: string; apiKey: string; baseUrl?: string };
  /** promptVersion, extraBody: newer reference runners pass them, each only when set. */
  judge: { provider: string; model: string; baseUrl?: string; apiKey?: string; promptVersion?: string; extraBody?: Record<string, unknown> };
  thinking?: string;
  /** [run].idle_timeout of newer reference runners: GAIA2_IDLE_TIMEOUT, only when set. */
  idleTimeoutSec?: number;
  healthTimeoutSec: number;
  timeoutSec: number;
}

export interface ReferenceRunResult {
  scenarioId: string;
  /** true/false when judged in the container, null for an error. */
  success: boolean | null;
  error?: string;
  failureReasons?: string[];
  /** Every /health answer the wait saw, parsed. */
  healthSeen: Array<Record<string, unknown>>;
  /** /health asked once more after the terminal status, before stop. */
  healthAfterEnd: Record<string, unknown> | null;
  daemonStatus: Record<string, unknown>;
  statusSource: 'adapter' | 'container file' | null;
  eventsText: string;
  agentResponse: string | null;
  containerName: string;
  /** <outputDir>/<scenario id>: the copied artifacts. */
  artifactDir: string;
  /** The `-e` variables in launch order (values of key variables are passed by name only). */
  env: Array<[string, string]>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** "gaia2-" + the file stem with anything but alnum and _.- replaced by "_" + "-" + 8 hex. */
export function containerName(scenarioFile: string): string {
  const stem = basename(scenarioFile, extname(scenarioFile)).replace(/[^A-Za-z0-9_.-]/g, '_');
  return `gaia2-${stem}-${randomBytes(4).toString('hex')}`;
}

/** FAKETIME "YYYY-MM-DD HH:MM:SS" (UTC) from metadata.definition.start_time, when present. */
function faketime(scenario: Record<string, unknown>): string | null {
  const def = ((scenario.metadata as Record<string, unknown> | undefined)?.definition ?? {}) as Record<string, unknown>;
  const t = Number(def.start_time);
  if (!def.start_time || !Number.isFinite(t)) return null;
  return new Date(Math.floor(t) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The container variables in the reference's order. Secrets are marked so argv gets only their name. */
export function referenceEnv(o: ReferenceRunOptions, scenario: Record<string, unknown>): { env: Array<[string, string]>; secret: Set<string> } {
  const env: Array<[string, string]> = [['GAIA2_ADAPTER_PORT', String(o.adapterPort)]];
  const secret = new Set<string>();
  const profile = detectProfile(o.image);
  if (profile !== 'oracle' && o.agent) {
    env.push(['PROVIDER', o.agent.provider], ['API_KEY', o.agent.apiKey], ['MODEL', o.agent.model]);
    secret.add('API_KEY');
    for (const name of keyExportVars(o.agent.provider)) {
      env.push([name, o.agent.apiKey]);
      secret.add(name);
    }
  }
  env.push(['THINKING', o.thinking ?? 'low']);
  env.push(['GAIA2_JUDGE_MODEL', o.judge.model], ['GAIA2_JUDGE_PROVIDER', o.judge.provider]);
  if (o.judge.baseUrl) env.push(['GAIA2_JUDGE_BASE_URL', o.judge.baseUrl]);
  if (o.judge.apiKey) {
    env.push(['GAIA2_JUDGE_API_KEY', o.judge.apiKey]);
    secret.add('GAIA2_JUDGE_API_KEY');
  }
  if (o.judge.promptVersion) env.push(['GAIA2_JUDGE_PROMPT_VERSION', o.judge.promptVersion]);
  if (o.judge.extraBody) env.push(['GAIA2_JUDGE_EXTRA_BODY', JSON.stringify(o.judge.extraBody)]);
  // The oracle profile has no base-URL variables: the agent's base URL is dropped.
  if (profile !== 'oracle' && o.agent?.baseUrl) env.push(['BASE_URL', o.agent.baseUrl]);
  env.push(['GAIA2_TRACE_FILE', '/tmp/trace.jsonl']);
  const ft = faketime(scenario);
  if (ft) env.push(['FAKETIME', ft]);
  env.push(['GAIA2_JUDGE_FINAL_TURN', '1']);
  // a float as Python writes one (600 → "600.0")
  if (o.idleTimeoutSec !== undefined) env.push(['GAIA2_IDLE_TIMEOUT', Number.isInteger(o.idleTimeoutSec) ? `${o.idleTimeoutSec}.0` : String(o.idleTimeoutSec)]);
  return { env, secret };
}

async function podman(args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run(PODMAN, args, { env: env ?? process.env, maxBuffer: 64 << 20 });
  return stdout;
}

/** One scenario, start to removal. The container is removed whatever happens. */
export async function runLikeReference(o: ReferenceRunOptions): Promise<ReferenceRunResult> {
  const scenarioPath = resolve(o.scenarioFile);
  const scenario = JSON.parse(readFileSync(scenarioPath, 'utf8')) as Record<string, unknown>;
  const meta = ((scenario.metadata as Record<string, unknown> | undefined)?.definition ?? {}) as Record<string, unknown>;
  const scenarioId = String(meta.scenario_id ?? scenario.scenario_id ?? 'unknown');
  const name = containerName(scenarioPath);
  const { env, secret } = referenceEnv(o, scenario);
  // The reference writes every value on argv; keys go by name here (`-e NAME` takes the value
  // from podman's own environment), which gives the container the same variables.
  const launchEnv: NodeJS.ProcessEnv = { ...process.env };
  const envArgs: string[] = [];
  for (const [k, v] of env) {
    if (secret.has(k)) {
      launchEnv[k] = v;
      envArgs.push('-e', k);
    } else envArgs.push('-e', `${k}=${v}`);
  }
  const args = [
    'run', '-d', `--name=${name}`, '--network=host', '--security-opt', 'seccomp=unconfined',
    '-v', `${scenarioPath}:/var/gaia2/custom_scenario.json:ro`, '--entrypoint', 'bash',
    ...envArgs, o.image, '/opt/gaia2-init-entrypoint.sh',
  ];
  const out: ReferenceRunResult = {
    scenarioId, success: null, healthSeen: [], healthAfterEnd: null, daemonStatus: {}, statusSource: null,
    eventsText: '', agentResponse: null, containerName: name, artifactDir: join(o.outputDir, scenarioId), env,
  };
  let cid: string | null = null;
  const exec = (cmd: string[], user?: string): Promise<string> =>
    podman(['exec', ...(user ? ['-u', user] : []), cid!, ...cmd]);
  const health = async (): Promise<Record<string, unknown>> =>
    JSON.parse(await exec(['/usr/bin/curl', '-sf', '-m', '2', '--noproxy', '127.0.0.1', `http://127.0.0.1:${o.adapterPort}/health`])) as Record<string, unknown>;
  try {
    cid = (await podman(args, launchEnv)).trim();

    // Health: inside the container, every 2 s, until connected.
    const healthDeadline = performance.now() + o.healthTimeoutSec * 1000;
    let lastErr = '';
    for (;;) {
      if (performance.now() >= healthDeadline) throw new Error(`Adapter on port ${o.adapterPort} not ready after ${o.healthTimeoutSec}s: ${lastErr}`);
      try {
        const h = await health();
        out.healthSeen.push(h);
        if (h.connected) break;
        lastErr = `adapter not connected: ${JSON.stringify(h)}`;
      } catch (e) {
        lastErr = (e as Error).message;
      }
      await sleep(2000);
    }

    // The scenario has events: the daemon sends the task; the runner only polls /status.
    const deadline = performance.now() + o.timeoutSec * 1000;
    let failures = 0;
    let lastResponse: string | null = null;
    const observe = (d: Record<string, unknown>, source: 'adapter' | 'container file'): boolean => {
      if (d.last_response) lastResponse = String(d.last_response);
      if (!TERMINAL.has(String(d.status ?? 'waiting'))) return false;
      out.daemonStatus = d;
      out.statusSource = source;
      return true;
    };
    polling: while (performance.now() < deadline) {
      try {
        const r = await fetch(`http://127.0.0.1:${o.adapterPort}/status`, { signal: AbortSignal.timeout(5000) });
        failures = 0;
        if (observe((await r.json()) as Record<string, unknown>, 'adapter')) break polling;
      } catch {
        failures++;
        if (failures % 5 === 0) {
          const tmp = join(o.outputDir, `.status-${name}.json`);
          try {
            await podman(['cp', `${cid}:/var/gaia2/state/daemon_status.json`, tmp]);
            const d = JSON.parse(readFileSync(tmp, 'utf8')) as unknown;
            if (d && typeof d === 'object' && !Array.isArray(d) && observe(d as Record<string, unknown>, 'container file')) break polling;
          } catch {
            /* nothing recoverable yet */
          } finally {
            rmSync(tmp, { force: true });
          }
        }
      }
      await sleep(2000);
    }
    out.healthAfterEnd = await health().catch(() => null);

    // Events: exec cat as gaia2, falling back to cp.
    try {
      out.eventsText = await exec(['cat', '/var/gaia2/state/events.jsonl'], 'gaia2');
    } catch {
      const tmp = join(o.outputDir, `.events-${name}.jsonl`);
      await podman(['cp', `${cid}:/var/gaia2/state/events.jsonl`, tmp]).catch(() => '');
      try {
        out.eventsText = readFileSync(tmp, 'utf8');
      } catch {
        out.eventsText = '';
      }
      rmSync(tmp, { force: true });
    }
    out.agentResponse = lastResponse ?? lastReplyIn(out.eventsText);

    // Artifacts, each its own cp; failures ignored.
    mkdirSync(out.artifactDir, { recursive: true });
    for (const [src, dst] of ARTIFACTS) await podman(['cp', `${cid}:${src}`, join(out.artifactDir, dst)]).catch(() => '');

    const j = out.daemonStatus.judgment as { success?: boolean; failure_reason?: string } | undefined;
    if (j) {
      out.success = j.success ?? false;
      if (!out.success) out.failureReasons = [j.failure_reason || `daemon status: ${String(out.daemonStatus.status)}`];
    } else {
      out.error = `No judgment (daemon status: ${String(out.daemonStatus.status ?? 'unknown')})`;
    }
  } catch (e) {
    out.error = (e as Error).message;
  } finally {
    if (cid) {
      await podman(['stop', '-t', '5', cid]).catch(() => '');
      await podman(['rm', '-f', cid]).catch(() => '');
    }
  }
  return out;
}

/** In-container source → host file name, as the reference copies them. */
export const ARTIFACTS: ReadonlyArray<[string, string]> = [
  ['/tmp/gaia2-eventd.log', 'eventd.log'],
  ['/tmp/entrypoint.log', 'entrypoint.log'],
  ['/var/gaia2/state/judgments.jsonl', 'daemon_judgments.jsonl'],
  ['/var/gaia2/state/user_details.json', 'user_details.json'],
  ['/var/gaia2/state/daemon_status.json', 'daemon_status.json'],
  ['/var/gaia2/state/notifications.jsonl', 'notifications.jsonl'],
  ['/tmp/faketime.rc', 'faketime.rc'],
  ['/tmp/trace.jsonl', 'trace.jsonl'],
];

/** The content of the last non-empty send_message_to_user line of an events log. */
function lastReplyIn(text: string): string | null {
  let found: string | null = null;
  for (const line of text.split('\n')) {
    try {
      const e = JSON.parse(line) as { app?: string; fn?: string; args?: { content?: unknown } };
      if (e.app === 'AgentUserInterface' && e.fn === 'send_message_to_user' && e.args?.content) found = String(e.args.content);
    } catch {
      /* malformed lines are skipped */
    }
  }
  return found;
}
