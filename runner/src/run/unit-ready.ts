// From a started unit to a connected agent: wait until the adapter takes requests, hand it the
// files that go in late (our image: the scenario through POST /files, any backend), then until
// /health says the agent is connected.
//
// Why the files go through the adapter and not the engine's archive API: the adapter is up
// ~50 ms after start either way, and then a POST is ~2 ms, where an archive copy into a
// running container costs Docker ~50 ms of its own (it mounts the container's root for each
// copy) and a cluster has no archive API at all. The first answered request also tells when
// the adapter really listens: in front of Docker's published ports (its userland proxy) and
// SSH forwards a TCP connect succeeds before anything listens, and only an HTTP answer counts.
//
// Looks are cheap but not free: until the daemon listens every probe is wasted work, and a
// busy machine booting 8 containers at once would spend ~50 of them per run. So the first
// look comes when a boot usually ends (learnt from this process's runs); until then the probes
// are the backend's cheapest look (AdapterEndpoint.accepting: a bare TCP connect for a
// published port); the first /health comes when the world is usually composed.
import { isTerminal } from '@gaia2/contract';
import type { AdapterEndpoint, ContainerFile, ContainerHandle } from '../engine/index.js';
import { DatasetError } from '../dataset/index.js';
import { AdapterHttpError, type AdapterClient } from './adapter-client.js';
import { LatencyEstimate } from './latency-estimate.js';
import { daemonFailure } from './result.js';
import { RunFailure } from './run-failure.js';
import { sleep } from './sleep.js';

export interface UnitReadyOptions {
  client: AdapterClient;
  endpoint: AdapterEndpoint;
  container: ContainerHandle;
  /** Delivered through POST /files once the adapter answers; empty when everything went in at create. */
  lateFiles: readonly ContainerFile[];
  /** The image takes PUT /files (files-stream): each file streamed, not base64 in one JSON body. */
  streamFiles?: boolean;
  /** What boots (image and agent runtime): boot times are learnt per kind. */
  kind: string;
  healthSeconds: number;
  /**
   * While /health says the agent's program is starting (agent_starting: a program kept up for
   * the run, its start-up off the simulated clock), the wait goes on up to this long: on a loaded
   * machine such a start takes minutes. Default: healthSeconds.
   */
  startSeconds?: number;
  signal?: AbortSignal;
}

/**
 * Answers from the adapter itself that retrying will not change: the request is wrong (400,
 * 413), the token is (401, 403), or the image has no such route (404 with our body). A proxy in
 * between answers 5xx while the unit does not listen yet; those are retried.
 */
const REFUSED = new Set([400, 401, 403, 413]);

/** Boot times (start → the adapter's first answer) per image and agent runtime. */
const bootEstimate = new LatencyEstimate(50, 2000);
/** Then until /health says the agent is connected (world composed, agent attached). */
const readyEstimate = new LatencyEstimate(0, 1000);

export async function waitUnitReady(o: UnitReadyOptions): Promise<void> {
  const { client, endpoint: ep } = o;
  const since = Date.now();
  let deadline = since + o.healthSeconds * 1000;
  const startDeadline = since + Math.max(o.healthSeconds, o.startSeconds ?? 0) * 1000;
  let lastEngineCheck = since;
  let pause = 10;
  let lastErr = '';
  // Without a cheap look (a proxy answers for the unit) the first request is the look.
  let accepting = !ep.accepting;
  // Set once the adapter has answered a request (the late files are in by then).
  let answeredAt: number | null = null;
  // Whether the look now is the first of its wait (boot, then readiness): the estimates learn
  // less from a look that found it done already (latency-estimate.ts).
  let firstBootLook = true;
  let firstReadyLook = true;
  // The engine is asked whether the unit still runs only once a boot takes longer than usual
  // (an inspect costs the engine ~5 ms of CPU).
  const firstLook = bootEstimate.firstLookMs(o.kind);
  const engineCheckMs = Math.max(500, 3 * firstLook);
  await sleep(firstLook, o.signal);
  for (;;) {
    if (o.signal?.aborted) throw new RunFailure('interrupted', 'interrupted before the agent was ready');
    if (!accepting) {
      accepting = await ep.accepting!();
      if (!accepting) lastErr = neverAccepted(ep.url);
    }
    if (accepting) {
      const lookedAt = Date.now();
      try {
        if (answeredAt === null && o.lateFiles.length) {
          await (o.streamFiles ? client.putFilesStreamed(o.lateFiles) : client.putFiles(o.lateFiles));
          answeredAt = Date.now();
          bootEstimate.record(o.kind, lookedAt - since, firstBootLook);
          // The world is composed after that: the first /health when it usually is.
          await sleep(readyEstimate.firstLookMs(o.kind), o.signal);
        }
        const healthAt = Date.now();
        const h = await client.health();
        const firstAnswer = answeredAt === null;
        if (answeredAt === null) {
          answeredAt = Date.now();
          bootEstimate.record(o.kind, lookedAt - since, firstBootLook);
        }
        if (h.connected) {
          readyEstimate.record(o.kind, Math.max(0, healthAt - answeredAt), firstReadyLook && !firstAnswer);
          return;
        }
        // A fast agent can finish (and disconnect) before the first poll sees it connected.
        if (isTerminal(await client.status())) return;
        lastErr = 'adapter answers but the agent is not connected yet';
        if (h.agent_starting === true) {
          deadline = Math.max(deadline, startDeadline);
          lastErr = "the agent's program is still starting";
        }
        if (firstAnswer) {
          await sleep(readyEstimate.firstLookMs(o.kind), o.signal);
          continue;
        }
      } catch (e) {
        // A scenario changed on disk since planning: delivering it again will not help.
        if (e instanceof DatasetError) throw new RunFailure('invalid_scenario', e.message);
        if (answeredAt === null && o.lateFiles.length && e instanceof AdapterHttpError && REFUSED.has(e.statusCode)) {
          throw new RunFailure('container_start_failed', `the adapter refused the scenario: ${e.message}`);
        }
        // No such route: the world died while booting and its stand-in (gaia2-status) answers,
        // with the terminal status that says why; waiting longer changes nothing.
        if (e instanceof AdapterHttpError && e.statusCode === 404) {
          const s = await client.status().catch(() => null);
          if (s?.status === 'error') {
            const f = daemonFailure(s);
            throw new RunFailure(f.kind, f.message);
          }
        }
        lastErr = (e as Error).message;
      }
    }
    if (answeredAt === null) firstBootLook = false;
    else firstReadyLook = false;
    if (Date.now() - lastEngineCheck > engineCheckMs) {
      await assertRunning(o.container);
      lastEngineCheck = Date.now();
    }
    if (Date.now() > deadline) {
      const what = answeredAt === null && o.lateFiles.length ? 'the scenario could not be delivered and the agent was not ready' : 'agent not ready';
      // A unit that runs but never took a connection: its own log says whether its world started.
      const tail = accepting ? '' : await logTail(o.container);
      throw new RunFailure('health_timeout', `${what} within ${Math.round((deadline - since) / 1000)}s (${lastErr})${tail ? `; its log ends: ${tail}` : ''}`);
    }
    // Short polls while a boot on an idle machine would end (~0.1–0.3 s), then backing off:
    // with dozens of containers booting on a busy machine, fast polls only add load and memory.
    if (Date.now() - since > 500) pause = Math.max(25, Math.min(250, pause * 1.25));
    await sleep(pause, o.signal);
  }
}

/**
 * A unit that runs but whose published port never took a connection: its world never came up, or
 * the engine's port forward to it is gone (podman can lose one when another container's start
 * fails on the same host port). Not the agent's doing: the orchestrator starts such a unit again
 * once (outage-restart.ts).
 */
const neverAccepted = (url: string) => `nothing accepts connections on ${url} yet`;
export const NEVER_ACCEPTED = /\bnothing accepts connections on \S+ yet\b/;

/** The last lines of a unit's log on one line (empty when the backend has none to give). */
async function logTail(c: ContainerHandle, lines = 3): Promise<string> {
  const text = await c.logs(20).catch(() => '');
  return text.trim().split('\n').slice(-lines).join(' | ');
}

/** Throws a typed failure when the unit is no longer running (or the backend knows why). */
export async function assertRunning(c: ContainerHandle): Promise<void> {
  const s = await c.state();
  if (s.failure) throw new RunFailure(s.failure.kind, s.failure.message);
  if (!s.running) {
    const tail = await logTail(c, 5);
    // Killed for its memory (the engine says so): the kind Kubernetes gives it too.
    throw new RunFailure(
      s.oomKilled ? 'oom_killed' : 'container_exited',
      `container exited (code ${s.exitCode ?? '?'}${s.oomKilled ? ', out of memory: killed for exceeding its memory limit' : ''})${tail ? `: ${tail}` : ''}`,
    );
  }
}
