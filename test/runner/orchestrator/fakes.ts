// Test doubles injected into the orchestrator: a scenario run function that writes
// result.json like the real one, an in-memory engine, and a progress sink that records.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorKind, ScenarioResult, RunStatus, RunUsage } from '@gaia2/contract/result';
import type { DaemonStatus } from '@gaia2/contract/status';
import REAL_STATUS from '../../fixtures/k8s-double/oracle-run/daemon_status.json' with { type: 'json' };
import { buildResult } from '../../../runner/src/run/result.js';
import REAL from '../../fixtures/usage/real-results.json' with { type: 'json' };
import type { ContainerInfo, ImageStore, UnitBackend } from '../../../runner/src/engine/index.js';
import { checkRunNeeds } from '../../../runner/src/engine/preflight.js';
import { LOCAL_ENGINE_CAPABILITIES } from '../../../runner/src/engine/capabilities.js';
import type { Progress } from '../../../runner/src/progress/index.js';
import type { ScenarioRunOptions } from '../../../runner/src/run/index.js';
import { RUN_DEFAULTS, type RunPlan } from '../../../runner/src/plan/plan.js';

export type Outcome = RunStatus | { status: 'error'; kind: string; message?: string } | 'throw';

export interface FakeRuns {
  fn: (o: ScenarioRunOptions) => Promise<ScenarioResult>;
  calls: ScenarioRunOptions[];
  maxInFlight: number;
}

/**
 * With `cleanupMs`, a run hands its container's removal over through `onCleanup` (as the real
 * one does) and that removal takes `cleanupMs`; `onCleanupRun` sees the run's output dir then.
 */
export interface FakeRunOptions {
  ms?: number | ((id: string) => number);
  engine?: FakeEngine;
  cleanupMs?: number;
  onCleanupRun?: (opts: ScenarioRunOptions) => void;
  /** Turns whose agent program failed on its own (daemon status agent_failures), per judged run. */
  failedTurns?: (id: string, run: number) => number[];
}

/** `decide(id, runIndex, attempt)` picks each run's outcome; runs take `ms` milliseconds. */
export function fakeRuns(decide: (id: string, run: number, attempt: number) => Outcome, o: FakeRunOptions = {}): FakeRuns {
  let inFlight = 0;
  const attempts = new Map<string, number>();
  const state: FakeRuns = {
    calls: [],
    maxInFlight: 0,
    fn: async (opts) => {
      state.calls.push(opts);
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      const id = opts.scenarioFile.replace(/^.*\//, '').replace(/\.json$/, '');
      const container = o.engine?.add(opts.labels, id);
      try {
        await new Promise<void>((r) => {
          const t = setTimeout(r, typeof o.ms === 'function' ? o.ms(id) : (o.ms ?? 5));
          opts.signal?.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
        });
        const key = `${id}#${opts.runIndex ?? 1}`;
        const attempt = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, attempt);
        const out = opts.signal?.aborted ? ({ status: 'error', kind: 'interrupted' } as const) : decide(id, opts.runIndex ?? 1, attempt);
        if (out === 'throw') throw new Error('bug in the run lifecycle');
        // The result as a real run builds it (production's buildResult), from a real run's
        // daemon status (test/fixtures/k8s-double/oracle-run) with this outcome's verdict, and
        // a real run's usage (test/fixtures/usage/real-results.json).
        const verdict = out === 'pass' ? { success: true, failure_reason: '' } : out === 'fail' ? { success: false, failure_reason: 'Agent did not perform checkout' } : null;
        const { judgment: _real, ...unjudged } = REAL_STATUS;
        const failedTurns = verdict ? (o.failedTurns?.(id, opts.runIndex ?? 1) ?? []) : [];
        const daemon = {
          ...unjudged,
          ...(failedTurns.length ? { agent_failures: failedTurns.map((turn) => ({ turn, text: 'Error: the agent failed', detail: 'exit code 1', sim_time: unjudged.sim_time, wall_t: Date.now() / 1000 })) } : {}),
          usage: REAL.llm_agent.daemon_status_usage,
          ...(verdict ? { judgment: verdict } : { status: 'error', reason: `boom ${(out as { kind: string }).kind}` }),
        } as unknown as DaemonStatus;
        const built = buildResult({
          scenarioId: id,
          scenarioFile: opts.scenarioFile,
          status: daemon,
          numAgentEvents: daemon.num_events,
          agentResponse: daemon.last_response ?? null,
          ...(typeof out === 'object' ? { failure: { kind: out.kind as ErrorKind, message: ('message' in out && out.message) || `boom ${out.kind}` } } : {}),
        });
        const startedAt = new Date(Date.now() - 1500);
        const result: ScenarioResult = {
          ...built,
          usage: REAL.llm_agent.usage as RunUsage,
          timings: { create_ms: 10, start_ms: 120, health_ms: 90, scenario_ms: 1200, collect_ms: 2 },
          ...(opts.split ? { split: opts.split } : {}),
          ...(opts.runIndex ? { run_index: opts.runIndex } : {}),
          agent: opts.agent,
          image: opts.image,
          started_at: startedAt.toISOString(),
          finished_at: new Date().toISOString(),
          duration_seconds: 1.5,
        };
        if (opts.outputDir) {
          mkdirSync(opts.outputDir, { recursive: true });
          writeFileSync(join(opts.outputDir, 'result.json'), JSON.stringify(result, null, 2));
          writeFileSync(join(opts.outputDir, `artifact-attempt-${attempt}.txt`), 'x');
        }
        return result;
      } finally {
        inFlight--;
        if (container && o.cleanupMs !== undefined && opts.onCleanup) {
          opts.onCleanup(async () => {
            o.onCleanupRun?.(opts);
            await new Promise((r) => setTimeout(r, o.cleanupMs));
            o.engine?.removeNow(container);
          });
        } else if (container && !opts.signal?.aborted) o.engine?.removeNow(container);
      }
    },
  };
  return state;
}

/** An image store whose images all exist, unlabelled and without ids (tests replace members). */
export interface FakeImages extends ImageStore {
  labels: (ref: string) => Promise<Record<string, string> | null>;
}

export interface FakeEngine extends UnitBackend {
  images: FakeImages;
  containers: ContainerInfo[];
  add(labels: Record<string, string>, id: string): string;
  removeNow(id: string): void;
}

export function fakeEngine(): FakeEngine {
  const containers: ContainerInfo[] = [];
  let n = 0;
  const e: FakeEngine = {
    name: 'fake',
    capabilities: LOCAL_ENGINE_CAPABILITIES,
    images: fakeImages(),
    containers,
    add(labels, id) {
      const cid = `c${n++}`;
      containers.push({ id: cid, name: `gaia2-${id}`, image: 'img', state: 'running', labels });
      return cid;
    },
    removeNow(id) {
      const i = containers.findIndex((c) => c.id === id);
      if (i >= 0) containers.splice(i, 1);
    },
    async ping() {},
    // the real capability check, over this double's capabilities
    preflight: (needs) => checkRunNeeds(e, needs),
    async describe() {
      return { kind: 'fake', version: null, apiVersion: null, endpoint: 'fake://', remote: false };
    },
    async openRun(o) {
      return { env: { ...o.env }, close: async () => {} };
    },
    async create() {
      throw new Error('not used');
    },
    async listByLabels(labels) {
      return containers.filter((c) => Object.entries(labels).every(([k, v]) => c.labels[k] === v));
    },
    async remove(id) {
      e.removeNow(id);
    },
    async close() {},
  } as FakeEngine;
  return e;
}

function fakeImages(): FakeImages {
  const unused = async () => {
    throw new Error('not used');
  };
  return {
    exists: async () => true,
    labels: async () => ({}),
    id: async () => null,
    withLabel: async () => [],
    build: unused,
    pull: async () => false,
    push: unused,
    importImage: unused,
  };
}

export function recordingProgress(): Progress & { lines: string[]; done_: string[]; total: number } {
  const p = {
    lines: [] as string[],
    done_: [] as string[],
    total: -1,
    start(total: number) {
      p.total = total;
    },
    done(label: string, status: string) {
      p.done_.push(`${label}:${status}`);
    },
    log(line: string) {
      p.lines.push(line);
    },
    stop() {},
  };
  return p;
}

/** A run-dataset plan of the oracle over a local directory, for orchestrator tests. */
export function localPlan(data: string, outputDir: string, run: Partial<RunPlan['run']> = {}): RunPlan {
  return {
    command: 'run-dataset',
    configPath: null,
    target: { kind: 'local', path: data, recursive: true, splits: null, subset: null, limit: null },
    agent: { name: 'oracle', image: 'localhost/gaia2-agent:latest', runtime: 'podman', provider: null, model: null, apiKey: null, baseUrl: null, thinking: 'low', tools: 'shell', maxTokens: null, volumes: [], script: null },
    judge: null,
    run: { ...RUN_DEFAULTS, outputDir, ...run },
  };
}
