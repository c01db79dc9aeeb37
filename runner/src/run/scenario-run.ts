// One scenario run: create → put scenario → start → health → notify (event-less scenarios
// only) → poll status → collect artifacts → result.json → remove. With our image (its
// gaia2.features label) the scenario goes in right after start, the artifacts come in one
// HTTP answer and the container is asked to exit before removal. Every per-scenario failure
// becomes a typed result; only programming errors escape. The container is removed in a
// finally, whatever happens, or (onCleanup) its removal is handed to the caller, who runs it
// once the result is recorded: removal is then off the scenario's critical path.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  CONTAINER_PATHS,
  DEFAULT_ADAPTER_PORT,
  ENV,
  IMAGE_FEATURES,
  isTerminal,
  lastReply,
  parseEventsJsonl,
  parseScenarioText,
  scenarioId as idOf,
  scenarioStartTime,
  type DaemonStatus,
  type ErrorKind,
  type Scenario,
  type ScenarioResult,
} from '../../../agent-image/src/contract/index.js';
import { EngineError, LABELS, type AdapterEndpoint, type ContainerHandle } from '../engine/index.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { redact, redactValue } from '../secrets/redact.js';
import { AdapterClient } from './adapter-client.js';
import { collectArtifacts, writeArtifacts } from './artifacts.js';
import { bootEstimate, readyEstimate } from './boot-wait.js';
import { waitExited } from './exit-wait.js';
import { sleep } from './sleep.js';
import { imageFeatures } from './image-features.js';
import type { ScenarioRunOptions } from './options.js';
import { buildResult, type Observed } from './result.js';
import { usageOfRun } from '../usage/run-usage.js';
import { firstUserTask, formatSimTime } from './scenario-facts.js';

class RunFailure extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export async function runScenario(o: ScenarioRunOptions): Promise<ScenarioResult> {
  const log = (l: string) => o.log?.(redact(l));
  const started = new Date();
  const stem = basename(o.scenarioFile).replace(/\.json$/i, '');
  let scenario: Scenario;
  let scenarioText: string;
  try {
    scenarioText = await readFile(o.scenarioFile, 'utf8');
    scenario = parseScenarioText(scenarioText, o.scenarioFile);
  } catch (e) {
    const result: ScenarioResult = {
      scenario_id: stem,
      success: null,
      error: (e as Error).message,
      scenario_file: o.scenarioFile,
      status: 'error',
      error_kind: 'invalid_scenario',
    };
    return finish(o, result, started, null);
  }
  const id = idOf(scenario, stem);
  const observed: Observed = {
    scenarioId: id,
    scenarioFile: o.scenarioFile,
    status: null,
    numAgentEvents: 0,
    agentResponse: null,
    duration: scenario.metadata?.definition?.duration ?? null,
  };

  const port = o.adapterPort ?? DEFAULT_ADAPTER_PORT;
  const token = randomBytes(16).toString('hex');
  const start = scenarioStartTime(scenario);
  const features = await imageFeatures(o.engine, o.image);
  // Putting files into a running container is ~50 ms cheaper than into a created one (its
  // root is mounted already), and it overlaps the daemon's boot.
  const filesAfterStart = features.has(IMAGE_FEATURES.scenarioAfterStart);
  // 0644 like the reference's read-only mount; /var/gaia2 (700, gaia2) keeps the agent out.
  const files = [{ path: CONTAINER_PATHS.scenario, content: scenarioText, mode: 0o644 }, ...(o.files ?? [])];
  const env: Record<string, string> = {
    [ENV.judgeFinalTurn]: '1',
    ...(o.outputDir ? { [ENV.traceFile]: CONTAINER_PATHS.trace } : {}),
    ...(start ? { [ENV.faketime]: formatSimTime(start) } : {}),
    ...o.env,
    [ENV.adapterPort]: String(port),
    [ENV.agent]: o.agent,
    [ENV.adapterToken]: token,
    ...(filesAfterStart ? { [ENV.scenarioReady]: CONTAINER_PATHS.scenarioReady } : {}),
  };

  let container: ContainerHandle | null = null;
  let client: AdapterClient | null = null;
  let artifacts = new Map<string, Buffer>();
  // Where the time goes, for the result and for bench/: engine work vs the scenario's own.
  const timings: Record<string, number> = {};
  let mark = Date.now();
  const lap = (name: string) => {
    const now = Date.now();
    timings[name] = now - mark;
    mark = now;
  };
  try {
    container = await o.engine.create({
      image: o.image,
      name: `gaia2-${stem.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 60)}-${randomBytes(4).toString('hex')}`,
      env,
      labels: { [LABELS.managed]: '1', [LABELS.scenarioId]: id, [LABELS.runIndex]: String(o.runIndex ?? 1), ...o.labels },
      entrypoint: ['bash'],
      cmd: [CONTAINER_PATHS.entrypoint],
      network: o.network,
      publishPort: o.network === 'bridge' ? port : undefined,
      extraHosts: o.network === 'bridge' ? ['host.containers.internal:host-gateway'] : undefined,
      files: filesAfterStart ? undefined : files,
    });
    lap('create_ms');
    await container.start();
    log(`${id}: started ${container.name}`);
    const c = container;
    const [ep] = await Promise.all([
      c.adapter(port),
      // The marker goes last: once the daemon sees it, every file before it is complete.
      filesAfterStart ? c.putFiles([...files, { path: CONTAINER_PATHS.scenarioReady, content: '', mode: 0o644 }]) : null,
    ]);
    client = new AdapterClient(ep, token);
    lap('start_ms');
    await waitHealthy(client, ep, container, o);
    lap('health_ms');
    if (scenario.events.length === 0) {
      const task = firstUserTask(scenario);
      if (task) await client.notify(task);
    }
    await pollUntilDone(client, container, o, observed);
    lap('scenario_ms');
  } catch (e) {
    if (e instanceof RunFailure || e instanceof EngineError) observed.failure = { kind: e.kind, message: redact(e.message) };
    else observed.failure = { kind: 'internal_error', message: redact((e as Error).stack ?? String(e)) };
    log(`${id}: ${observed.failure.kind}: ${observed.failure.message}`);
  } finally {
    if (container) {
      mark = Date.now();
      try {
        artifacts = await collectArtifacts(container, features.has(IMAGE_FEATURES.artifactsRoute) ? client : null);
      } catch (e) {
        log(`${id}: could not collect artifacts: ${(e as Error).message}`);
      }
      if (observed.failure && !artifacts.has('container.log')) {
        const logs = await container.logs(200);
        if (logs) artifacts.set('container.log', Buffer.from(logs));
      }
      lap('collect_ms');
      const c = container;
      const cl = client;
      const cleanup = async () => {
        // A container that exits by itself is removed without the engine's kill (~0.1 s less).
        if (cl && features.has(IMAGE_FEATURES.shutdownRoute) && (await cl.shutdown().then(() => true, () => false))) {
          await waitExited(c, o.image);
        }
        await c.remove().catch((e) => log(`${id}: remove failed: ${(e as Error).message}`));
        await cl?.close();
      };
      if (o.onCleanup) o.onCleanup(cleanup);
      else {
        await cleanup();
        lap('remove_ms');
      }
    }
  }

  const eventsText = artifacts.get('events.jsonl')?.toString('utf8') ?? '';
  const events = parseEventsJsonl(eventsText);
  observed.numAgentEvents = eventsText.split('\n').filter((l) => l.trim()).length;
  observed.agentResponse = lastReply(events);
  const statusFile = artifacts.get('daemon_status.json');
  if (statusFile && (!observed.status || !isTerminal(observed.status))) {
    try {
      const s = JSON.parse(statusFile.toString('utf8')) as DaemonStatus;
      if (!observed.status || isTerminal(s)) observed.status = s;
    } catch {
      // keep what /status said
    }
  }
  const usage = usageOfRun(artifacts, observed.status, o.env);
  const result: ScenarioResult = { ...buildResult(observed), ...(usage ? { usage } : {}), timings };
  if (o.outputDir) {
    artifacts.set('agent_response.txt', Buffer.from(observed.agentResponse ?? ''));
    if (!artifacts.has('events.jsonl')) artifacts.set('events.jsonl', Buffer.from(''));
    await writeArtifacts(o.outputDir, artifacts);
  }
  return finish(o, result, started, o.outputDir);
}

async function finish(o: ScenarioRunOptions, r: ScenarioResult, started: Date, dir: string | null): Promise<ScenarioResult> {
  const finished = new Date();
  const result: ScenarioResult = redactValue({
    ...r,
    ...(o.split ? { split: o.split } : {}),
    ...(o.runIndex ? { run_index: o.runIndex } : {}),
    agent: o.agent,
    image: o.image,
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    duration_seconds: Math.round((finished.getTime() - started.getTime()) / 10) / 100,
  });
  const out = dir ?? o.outputDir;
  if (out) await writeJsonAtomic(join(out, 'result.json'), result);
  return result;
}

async function waitHealthy(client: AdapterClient, ep: AdapterEndpoint, c: ContainerHandle, o: ScenarioRunOptions): Promise<void> {
  const since = Date.now();
  const deadline = since + o.timeouts.healthSeconds * 1000;
  let lastEngineCheck = since;
  let pause = 10;
  let lastErr = '';
  // Without a cheap look (a proxy answers for the unit) the first /health is the look.
  let accepting = !ep.accepting;
  let acceptedAt = since;
  const kind = `${o.image} ${o.agent}`; // the agent runtime is part of the boot
  // No look before a boot usually ends (boot-wait.ts): looks before are wasted work. The
  // engine is asked whether the container still runs only once a boot takes longer than usual
  // (an inspect costs the engine ~5 ms of CPU).
  const firstLook = bootEstimate.firstLookMs(kind);
  const engineCheckMs = Math.max(500, 3 * firstLook);
  await sleep(firstLook, o.signal);
  for (;;) {
    if (o.signal?.aborted) throw new RunFailure('interrupted', 'interrupted before the agent was ready');
    if (!accepting) {
      const lookedAt = Date.now();
      accepting = await ep.accepting!();
      if (accepting) {
        bootEstimate.record(kind, lookedAt - since);
        acceptedAt = Date.now();
        // The world is composed after the adapter listens: the first /health when it usually is.
        await sleep(readyEstimate.firstLookMs(kind), o.signal);
      } else lastErr = `nothing accepts connections on ${ep.url} yet`;
    }
    if (accepting) {
      try {
        const lookedAt = Date.now();
        const h = await client.health();
        if (h.connected) {
          readyEstimate.record(kind, lookedAt - acceptedAt);
          return;
        }
        // A fast agent can finish (and disconnect) before the first poll sees it connected.
        if (isTerminal(await client.status())) return;
        lastErr = 'adapter answers but the agent is not connected yet';
      } catch (e) {
        lastErr = (e as Error).message;
      }
    }
    if (Date.now() - lastEngineCheck > engineCheckMs) {
      await assertRunning(c);
      lastEngineCheck = Date.now();
    }
    if (Date.now() > deadline) {
      throw new RunFailure('health_timeout', `agent not ready within ${o.timeouts.healthSeconds}s (${lastErr})`);
    }
    // Short polls while a boot on an idle machine would end (~0.1–0.3 s), then backing off:
    // with dozens of containers booting on a busy machine, fast polls only add load and memory.
    if (Date.now() - since > 500) pause = Math.max(25, Math.min(250, pause * 1.25));
    await sleep(pause, o.signal);
  }
}

async function assertRunning(c: ContainerHandle): Promise<void> {
  const s = await c.state();
  if (s.failure) throw new RunFailure(s.failure.kind, s.failure.message);
  if (!s.running) {
    const tail = (await c.logs(20)).trim().split('\n').slice(-5).join(' | ');
    throw new RunFailure(
      'container_exited',
      `container exited (code ${s.exitCode ?? '?'}${s.oomKilled ? ', out of memory' : ''})${tail ? `: ${tail}` : ''}`,
    );
  }
}

async function pollUntilDone(client: AdapterClient, c: ContainerHandle, o: ScenarioRunOptions, obs: Observed): Promise<void> {
  const duration = obs.duration ?? null;
  const scenarioSeconds = duration ? Math.max(duration + 60, o.timeouts.scenarioSeconds) : o.timeouts.scenarioSeconds;
  const deadline = Date.now() + scenarioSeconds * 1000;
  let lastActivity = Date.now();
  let lastKey = '';
  let failures = 0;
  const interval = o.pollIntervalMs ?? 300;
  for (;;) {
    if (o.signal?.aborted) throw new RunFailure('interrupted', 'interrupted by the user (Ctrl-C); rerun with --retry');
    try {
      const s = await client.status();
      failures = 0;
      obs.status = s;
      const key = `${s.turn}/${s.num_events}`;
      if (key !== lastKey) {
        lastKey = key;
        lastActivity = Date.now();
      }
      if (isTerminal(s)) return;
    } catch {
      failures++;
      if (failures % 5 === 0) await assertRunning(c);
    }
    if (Date.now() > deadline) {
      obs.timedOut = { seconds: scenarioSeconds, kind: 'scenario_timeout' };
      return;
    }
    if (Date.now() - lastActivity > o.timeouts.activitySeconds * 1000) {
      obs.timedOut = { seconds: o.timeouts.activitySeconds, kind: 'activity_timeout' };
      return;
    }
    await sleep(interval, o.signal);
  }
}
