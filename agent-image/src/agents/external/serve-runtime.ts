// The world's side of the serve contract (contract/agent-serve.ts; docs/agents.md, "Programs that
// stay up"): the layer's program is started once, before the first message, while the simulated
// clock is held, and every message of the scenario run is a turn of that one process. Mid-run
// messages reach it as steers when it takes them, else they wait for the next turn. When the
// program dies it is started again, clock held, before the next turn; a turn it did not finish
// ends with its failure text as the reply (judged: docs/agents.md, "When the program fails").
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { DaemonConnection } from '../client.js';
import type { DeliveredPart, MessageMsg } from '../../contract/agent-protocol.js';
import { AGENT_SERVE_ENV, type ServeToRuntime } from '../../contract/agent-serve.js';
import { ServeProcess, type ServeExit } from './serve-process.js';
import { shareTrace, type ExternalOutcome, type ExternalRuntimeOptions, type Layout } from './turn-env.js';

export interface ServeRuntimeOptions extends ExternalRuntimeOptions {
  program: string;
  layout: Layout;
  /** Wall milliseconds a start may take before it counts as failed (default 30 min: the clock is held meanwhile). */
  startTimeoutMs?: number;
  /** Starts per scenario run (first start and restarts) before turns fail at once (default 4). */
  maxStarts?: number;
}

/** How a turn ended, as the program said (or its exit). */
type TurnEnd =
  | { kind: 'reply'; text: string }
  | { kind: 'failed'; text: string; detail: string }
  | { kind: 'exit'; exit: ServeExit };

interface ActiveTurn {
  runId: string;
  turn: number;
  /** Steers sent for this turn, by seq: their parts and the program's answer (null: none yet). */
  steers: Map<number, { parts: DeliveredPart[]; taken: boolean | null }>;
  steersSeen: number;
  end: (e: TurnEnd) => void;
}

const describeExit = (e: ServeExit): string =>
  `${e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`}${e.lastStderrLine ? `: ${e.lastStderrLine}` : ''}`;

export function runServeAgent(conn: DaemonConnection, o: ServeRuntimeOptions): Promise<ExternalOutcome> {
  const { layout } = o;
  const outcome: ExternalOutcome = { turns: 0, failed: 0 };
  const maxStarts = o.maxStarts ?? 4;
  let proc: ServeProcess | null = null;
  let up = false;
  let starts = 0;
  let lastStartFailure = '';
  let steerSeq = 0;
  let active: ActiveTurn | null = null;
  let stopped = false;
  let chain = Promise.resolve();
  const beatMs = o.heartbeatMs ?? 30_000;

  const onLine = (p: ServeProcess, m: ServeToRuntime): void => {
    if (p !== proc) return;
    switch (m.type) {
      case 'log':
        conn.log(`agent-serve: ${String(m.text).slice(0, 2000)}`, m.level ?? 'info');
        return;
      case 'steered': {
        const s = active && active.turn === m.turn ? active.steers.get(m.seq) : undefined;
        if (s) s.taken = m.taken === true;
        return;
      }
      case 'reply':
        if (active && m.turn === active.turn) active.end({ kind: 'reply', text: typeof m.text === 'string' ? m.text : '' });
        return;
      case 'failed':
        if (active && m.turn === active.turn) {
          active.end({ kind: 'failed', text: typeof m.text === 'string' ? m.text : '', detail: typeof m.detail === 'string' ? m.detail : '' });
        }
        return;
      case 'ready':
        return; // handled by start()
    }
  };

  /** One start of the program; resolves true once it said ready. */
  const start = async (simTime: string): Promise<boolean> => {
    starts++;
    const p = new ServeProcess({
      program: o.program,
      cwd: layout.workDir,
      env: {
        ...o.env,
        [AGENT_SERVE_ENV.start]: String(starts),
        GAIA2_SIM_TIME: simTime,
        GAIA2_TOOLS: conn.welcome.tools.join(','),
        GAIA2_APP_AGENTS: (conn.welcome.app_agents ?? []).join(','),
        GAIA2_WORK_DIR: layout.workDir,
        GAIA2_SESSION_DIR: layout.sessionDir,
        GAIA2_TRACE_DIR: layout.traceDir,
      },
      stderrLog: join(layout.traceDir, 'serve.stderr.log'),
    });
    proc = p;
    const beat = setInterval(() => conn.progress(`agent program starting (start ${starts})`), beatMs);
    const ready = await new Promise<{ steer: boolean } | null>((resolve) => {
      const timer = setTimeout(() => {
        p.note(`no ready within ${Math.round((o.startTimeoutMs ?? 1_800_000) / 1000)}s: stopped`);
        void p.stop('start timed out');
        resolve(null);
      }, o.startTimeoutMs ?? 1_800_000);
      p.onLine((m) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          resolve({ steer: m.steer === true });
        } else onLine(p, m);
      });
      void p.whenExited().then(() => {
        clearTimeout(timer);
        resolve(null);
      });
    });
    clearInterval(beat);
    if (!ready) {
      const e = p.exited;
      lastStartFailure = e ? describeExit(e) : 'no ready in time';
      conn.log(`agent program start ${starts} failed (${lastStartFailure})`, 'error');
      return false;
    }
    p.onLine((m) => onLine(p, m));
    void p.whenExited().then((e) => {
      if (p !== proc) return;
      up = false;
      if (!stopped) conn.log(`agent program exited (${describeExit(e)})`, active ? 'error' : 'warn');
      active?.end({ kind: 'exit', exit: e });
    });
    up = true;
    steerCapable = ready.steer;
    return true;
  };
  let steerCapable = false;

  /** Starts the program (again) if it is not up, the clock held while it starts; false when it cannot. */
  const ensureUp = async (): Promise<boolean> => {
    if (up) return true;
    if (starts >= maxStarts) return false;
    conn.clock(true, 'agent program restarting');
    try {
      const now = await conn.time().catch(() => ({ sim_time: conn.welcome.sim_time }));
      while (!stopped && starts < maxStarts) if (await start(now.sim_time)) return true;
      return false;
    } finally {
      conn.clock(false, 'agent program up');
    }
  };

  const runTurn = async (m: MessageMsg): Promise<void> => {
    const turn = ++outcome.turns;
    writeFileSync(join(layout.turnsDir, `turn-${turn}.txt`), m.text);
    const end = await (async (): Promise<TurnEnd> => {
      if (!(await ensureUp())) {
        return { kind: 'failed', text: `Error: the agent program could not start (${lastStartFailure})`, detail: `after ${starts} start(s)` };
      }
      return new Promise<TurnEnd>((resolve) => {
        active = { runId: m.run_id, turn, steers: new Map(), steersSeen: 0, end: resolve };
        proc!.send({ type: 'turn', turn, kind: m.kind, text: m.text, parts: m.parts, sim_time: m.sim_time });
      });
    })();
    const t = active as ActiveTurn | null;
    active = null;
    shareTrace(layout.traceDir);
    // Steers the program did not take (said so, or never answered before the turn ended).
    const requeue = t ? [...t.steers.values()].filter((s) => s.taken !== true).flatMap((s) => s.parts) : [];
    const extras = { requeue, steersSeen: t?.steersSeen ?? 0 };
    if (end.kind === 'reply') {
      conn.reply(m.run_id, end.text.trimEnd(), 'final', undefined, extras);
      return;
    }
    outcome.failed++;
    const text =
      end.kind === 'failed'
        ? end.text.trim() || 'Error: the agent failed'
        : `Error: the agent program ended during the turn (${describeExit(end.exit)})`;
    const detail = end.kind === 'failed' ? end.detail || end.text.slice(0, 500) : describeExit(end.exit);
    conn.log(`turn ${turn}: the agent program failed: ${detail.slice(0, 1000)}`, 'error');
    conn.reply(m.run_id, text, 'final', undefined, { ...extras, failure: { detail } });
  };

  const steer = (m: MessageMsg): void => {
    const t = active;
    if (!t || t.runId !== m.run_id || !up || !steerCapable) return; // crossed the reply: the daemon delivers it again
    t.steersSeen++;
    const seq = ++steerSeq;
    t.steers.set(seq, { parts: m.parts, taken: null });
    proc!.send({ type: 'steer', turn: t.turn, seq, kind: m.kind, text: m.text, parts: m.parts, sim_time: m.sim_time });
  };

  conn.onMessage((m) => {
    if (m.steer) return steer(m);
    chain = chain.then(async () => {
      if (stopped) return;
      const beat = setInterval(() => conn.progress(`turn ${outcome.turns}: agent program working`, m.run_id), beatMs);
      try {
        await runTurn(m);
      } finally {
        clearInterval(beat);
      }
    });
  });

  const stopProgram = async (reason: string): Promise<void> => {
    stopped = true;
    const p = proc as ServeProcess | null;
    if (p) await p.stop(reason);
    shareTrace(layout.traceDir);
  };

  // The first start: the daemon holds the clock until ready, and delivers nothing before.
  const first = (async () => {
    let ok = false;
    while (!ok && !stopped && starts < maxStarts) ok = await start(conn.welcome.sim_time);
    // A program that cannot start still gets its turns: each ends with its failure text.
    conn.ready(ok && steerCapable);
  })();

  return new Promise((resolve) =>
    conn.onShutdown((s) => {
      // A start still under way ends with its program (stopped: no further start).
      void stopProgram(s?.reason ?? 'daemon connection closed')
        .then(() => first)
        .then(() => chain)
        .then(() => resolve(outcome));
    }),
  );
}
