// One scenario run: create (with the scenario) → start → health → notify (event-less
// scenarios only) → poll status → collect artifacts → result.json → remove. With our image
// (its gaia2.features label) the scenario goes in through the adapter once it runs, the
// artifacts come in one HTTP answer and the container is asked to exit before removal. Every
// per-scenario failure becomes a typed result; only programming errors escape. The container
// is removed in a finally, whatever happens, or (onCleanup) its removal is handed to the
// caller, who runs it once the result is recorded: removal is then off the critical path.
import { budgetReason } from '../plan/budget.js';
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import {
  CONTAINER_PATHS,
  DEFAULT_ADAPTER_PORT,
  ENV,
  IMAGE_FEATURES,
  isTerminal,
  UPLOAD_ROOT,
  type ScenarioResult,
} from '@gaia2/contract';
import { EngineError, LABELS, type AdapterEndpoint, type ContainerFile, type ContainerHandle } from '../engine/index.js';
import { readScenarioFile, scenarioContent, type ScenarioEntry } from '../dataset/index.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import { redact, redactValue } from '../secrets/redact.js';
import { AdapterClient } from './adapter-client.js';
import { collectArtifacts, keepRunArtifacts } from './artifacts.js';
import { assertRunning, waitUnitReady } from './unit-ready.js';
import { RunFailure } from './run-failure.js';
import { waitExited } from './exit-wait.js';
import { sleep } from './sleep.js';
import { imageFeatures } from './image-features.js';
import { sealAllowList } from './seal.js';
import type { ScenarioRunOptions } from './options.js';
import { buildResult, type Observed } from './result.js';
import { usageOfRun } from '../usage/run-usage.js';
import { readCollected } from './collected.js';
import { formatSimTime } from './scenario-facts.js';
import { agentRuntime } from '../agents/index.js';
import { findStuckLoop } from './stuck-loop.js';
import { StuckLoopWatch } from './stuck-loop-watch.js';

export async function runScenario(o: ScenarioRunOptions): Promise<ScenarioResult> {
  const log = (l: string) => o.log?.(redact(l));
  const started = new Date();
  const stem = basename(o.scenarioFile).replace(/\.json$/i, '');
  let facts: ScenarioEntry;
  // A planned scenario's bytes go to the container streamed from disk as they are sent (a 5 MB
  // universe must not be held per run in flight, times -j); an unplanned one was just read.
  let delivery: { create: ContainerFile[]; late: ContainerFile[] } | null;
  const features = await imageFeatures(o.engine, o.image);
  // Our image takes the scenario from its adapter once it runs (unit-ready.ts says why); files
  // outside the adapter's reach (a CA bundle) and everything for other images go in at create.
  const late = features.has(IMAGE_FEATURES.scenarioAfterStart) && features.has(IMAGE_FEATURES.filesRoute);
  try {
    let content: ContainerFile['content'];
    if (o.scenario) {
      facts = o.scenario;
      content = o.content ?? scenarioContent(facts);
    } else {
      ({ entry: facts, bytes: content } = readScenarioFile(o.scenarioFile, null)!);
      if (o.content) content = o.content;
    }
    delivery = splitDelivery(content, o.files ?? [], late);
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
  const id = facts.id;
  const observed: Observed = {
    scenarioId: id,
    scenarioFile: o.scenarioFile,
    status: null,
    numAgentEvents: 0,
    agentResponse: null,
    duration: facts.duration,
  };

  const port = o.adapterPort ?? DEFAULT_ADAPTER_PORT;
  const token = randomBytes(16).toString('hex');
  const start = facts.startTime;
  const env: Record<string, string> = {
    [ENV.judgeFinalTurn]: '1',
    ...(o.outputDir ? { [ENV.traceFile]: CONTAINER_PATHS.trace } : {}),
    ...(start ? { [ENV.faketime]: formatSimTime(start) } : {}),
    ...o.env,
    [ENV.adapterPort]: String(port),
    [ENV.agent]: agentRuntime(o.agent),
    [ENV.adapterToken]: token,
    ...(late ? { [ENV.scenarioReady]: CONTAINER_PATHS.scenarioReady } : {}),
  };
  // An image without the filter runs unsealed, and its result says so.
  let sealed = Boolean(o.seal) && features.has(IMAGE_FEATURES.sealedNetwork) && o.engine.capabilities.capAdd;
  if (sealed) env[ENV.sealAllow] = sealAllowList(env).join(',');

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
      ...(sealed ? { capAdd: ['NET_ADMIN'] } : {}),
      publishPort: o.network === 'bridge' ? port : undefined,
      extraHosts: o.network === 'bridge' ? ['host.containers.internal:host-gateway'] : undefined,
      ...(delivery.create.length ? { files: delivery.create } : {}),
    });
    lap('create_ms');
    // the backend could not grant the capability (a cluster's admission) and was told to go on
    if (sealed && container.unsealed) {
      sealed = false;
      log(`${id}: network not sealed: ${container.unsealed}`);
    }
    await container.start();
    log(`${id}: started ${container.name}`);
    const ep = await container.adapter(port);
    client = new AdapterClient(ep, token);
    lap('start_ms');
    await waitUnitReady({
      client,
      endpoint: ep,
      container,
      lateFiles: delivery.late,
      streamFiles: features.has(IMAGE_FEATURES.filesStream),
      kind: `${o.image} ${o.agent}`, // the agent runtime is part of the boot
      healthSeconds: o.timeouts.healthSeconds,
      startSeconds: o.timeouts.scenarioSeconds,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    lap('health_ms');
    delivery = null;
    if (facts.notifyTask) await client.notify(facts.notifyTask);
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
        artifacts = await collectArtifacts(container, features.has(IMAGE_FEATURES.artifactsRoute) ? client : null, features.has(IMAGE_FEATURES.artifactsTar));
      } catch (e) {
        log(`${id}: could not collect artifacts: ${(e as Error).message}`);
      }
      if (observed.failure && !artifacts.has('container.log')) {
        const logs = await container.logs(200);
        if (logs) artifacts.set('container.log', Buffer.from(logs));
      }
      lap('collect_ms');
      if (o.beforeRemove) await o.beforeRemove(container, client && features.has(IMAGE_FEATURES.carryRoute) ? client : null).catch((e: unknown) => log(`${id}: ${(e as Error).message}`));
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

  const collected = readCollected(artifacts);
  observed.numAgentEvents = collected.numAgentEvents;
  observed.agentResponse = collected.agentResponse;
  // The collected log decides (the live watch may have been late, or had no file access), and
  // it counts the whole streak; the live record stands when no log came back.
  const loopAt = o.stuckLoopMinToolCalls ?? 0;
  observed.stuckLoop = findStuckLoop(artifacts.get('events.jsonl'), loopAt) ?? observed.stuckLoop ?? null;
  // the last calls' answers may have come in after the last poll
  observed.budget = observed.budget ?? (o.overBudgetNow ? await o.overBudgetNow() : o.overBudget?.()) ?? null;
  const s = collected.statusFile;
  if (s && (!observed.status || !isTerminal(observed.status)) && (!observed.status || isTerminal(s))) observed.status = s;
  const usage = usageOfRun(artifacts, observed.status, o.env);
  const result: ScenarioResult = { ...buildResult(observed), ...(usage ? { usage } : {}), timings, network_sealed: sealed };
  if (o.outputDir) await keepRunArtifacts(o.outputDir, artifacts, observed.agentResponse);
  return finish(o, result, started, o.outputDir);
}

/** The files of a run: at create, or (our image) through the adapter, the ready marker last. */
export function splitDelivery(scenario: ContainerFile['content'], extra: readonly ContainerFile[], late: boolean): { create: ContainerFile[]; late: ContainerFile[] } {
  // 0644 like the reference's read-only mount; /var/gaia2 (700, gaia2) keeps the agent out.
  const files: ContainerFile[] = [{ path: CONTAINER_PATHS.scenario, content: scenario, mode: 0o644 }, ...extra];
  const lateFiles = late ? files.filter((f) => f.path.startsWith(UPLOAD_ROOT) && !f.dir && f.linkname === undefined) : [];
  // The marker goes last: once the daemon sees it, every file before it is complete.
  if (late) lateFiles.push({ path: CONTAINER_PATHS.scenarioReady, content: '', mode: 0o644 });
  // The adapter's uploads are plain files, their folders made as they are written: a folder or
  // a link there (a carried drive's) is not sent (an empty folder the Files app's state names
  // is made again by the world's drive build).
  const notSent = (f: ContainerFile) => late && f.path.startsWith(UPLOAD_ROOT) && (f.dir || f.linkname !== undefined);
  return { create: files.filter((f) => !lateFiles.includes(f) && !notSent(f)), late: lateFiles };
}

async function finish(o: ScenarioRunOptions, r: ScenarioResult, started: Date, dir: string | null): Promise<ScenarioResult> {
  const finished = new Date();
  const result: ScenarioResult = redactValue({
    ...r,
    ...(o.split ? { split: o.split } : {}),
    ...(o.runIndex ? { run_index: o.runIndex } : {}),
    agent: o.agentRecord ?? { name: o.agent, version: null },
    image: o.image,
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    duration_seconds: Math.round((finished.getTime() - started.getTime()) / 10) / 100,
  });
  const out = dir ?? o.outputDir;
  if (out) await writeJsonAtomic(join(out, 'result.json'), result);
  return result;
}

async function pollUntilDone(client: AdapterClient, c: ContainerHandle, o: ScenarioRunOptions, obs: Observed): Promise<void> {
  const duration = obs.duration ?? null;
  const scenarioSeconds = duration ? Math.max(duration + 60, o.timeouts.scenarioSeconds) : o.timeouts.scenarioSeconds;
  const deadline = Date.now() + scenarioSeconds * 1000;
  let lastActivity = Date.now();
  let lastKey = '';
  let failures = 0;
  const interval = o.pollIntervalMs ?? 300;
  const loopAt = o.stuckLoopMinToolCalls ?? 0;
  const log = (l: string) => o.log?.(redact(l));
  const watch = loopAt >= 2 ? new StuckLoopWatch(c, loopAt, log) : null;
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
      const over = o.overBudget?.();
      if (over) {
        obs.budget = over;
        log(`${obs.scenarioId}: ${budgetReason(over)}; stopping the run`);
        return;
      }
      const loop = await watch?.check(s.num_events);
      if (loop) {
        obs.stuckLoop = loop;
        log(`${obs.scenarioId}: stuck loop: ${loop.tool} repeated ${loop.count} times with the same result; stopping the run`);
        return;
      }
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
