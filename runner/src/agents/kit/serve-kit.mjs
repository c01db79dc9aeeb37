// The serve side of an agent layer (gaia2-runner, runner/src/agents/kit/; installed in every
// third-party layer as /opt/gaia2-agent/lib/serve-kit.mjs). A layer's bin/agent-serve keeps its
// program up for the whole scenario run and speaks the serve contract with the world's runtime
// (agent-image/src/contract/agent-serve.ts, docs/agents.md "Programs that stay up"): JSON lines
// on stdin (turn, steer, shutdown) and stdout (ready, steered, reply, failed, log). This module
// owns that protocol, so a bridge only says how to start its program and how to run one turn:
//
//   import { serve } from '../lib/serve-kit.mjs';
//   serve({
//     async start(ctx) { …; return { steer: false }; },        // resolves once the program is up
//     async turn(t, ctx) { …; return { reply: 'text' }; },     // or { failed: 'its error text', detail }
//     async steer(s, ctx) { …; return true; },                  // optional: taken into the running turn?
//     async stop(reason) { … },                                  // optional: end the program
//   });
//
// A steer is answered (`steered`) before its turn's reply: the reply waits for the bridge's
// steer handler, which must settle by the end of the turn. A turn that throws fails with the
// error's message as the program's failure text. Anything a bridge prints goes to stdout and
// would break the protocol: log with ctx.log (or stderr).
import { createInterface } from 'node:readline';

/** Writes one protocol line to the runtime. */
function send(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

/** A line for the runtime's log (and the serve log on stderr). */
export function log(text, level = 'info') {
  send({ type: 'log', level, text: String(text) });
}

/**
 * Runs the serve loop with the bridge's handlers. Turns run one at a time, in order; a steer
 * goes to `handlers.steer` at once (the bridge answers whether it was taken); shutdown calls
 * `handlers.stop` and exits.
 */
export function serve(handlers) {
  const ctx = { env: process.env, log, send };
  let queue = Promise.resolve();
  let activeTurn = 0;
  let stopping = false;
  // Turns received, by number: resolves once the turn runs (a steer sent right after its turn
  // waits for it). Steers being answered, by turn: the turn's reply waits for them, so every
  // `steered` precedes it.
  const running = new Map();
  const answering = new Map();

  const stop = async (reason) => {
    if (stopping) return;
    stopping = true;
    try {
      await handlers.stop?.(reason, ctx);
    } catch (e) {
      process.stderr.write(`agent-serve: stop: ${e?.stack ?? e}\n`);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const runTurn = async (t, began) => {
    activeTurn = t.turn;
    began();
    let out;
    try {
      out = await handlers.turn(t, ctx);
    } catch (e) {
      out = { failed: e?.message ? String(e.message) : String(e), detail: e?.stack ? String(e.stack).slice(0, 2000) : undefined };
    }
    activeTurn = 0;
    running.delete(t.turn);
    await Promise.all([...(answering.get(t.turn) ?? [])]);
    answering.delete(t.turn);
    if (out && typeof out.failed === 'string') send({ type: 'failed', turn: t.turn, text: out.failed, ...(out.detail ? { detail: out.detail } : {}) });
    else send({ type: 'reply', turn: t.turn, text: String(out?.reply ?? '') });
  };

  const onSteer = async (s) => {
    let taken = false;
    await running.get(s.turn);
    if (handlers.steer && activeTurn === s.turn) {
      try {
        taken = !!(await handlers.steer(s, ctx));
      } catch (e) {
        process.stderr.write(`agent-serve: steer: ${e?.stack ?? e}\n`);
      }
    }
    send({ type: 'steered', turn: s.turn, seq: s.seq, taken });
  };

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const started = (async () => {
    const r = (await handlers.start(ctx)) ?? {};
    send({ type: 'ready', steer: !!(r.steer && handlers.steer) });
  })();
  started.catch(async (e) => {
    process.stderr.write(`agent-serve: the program did not start: ${e?.stack ?? e}\n`);
    // What the start left running (a program it spawned) ends with it: the next start (the
    // runtime starts the program again) must not find the old one holding its state and ports.
    stopping = true;
    try {
      await Promise.race([handlers.stop?.('start failed', ctx), new Promise((r) => setTimeout(r, 10_000))]);
    } catch (e2) {
      process.stderr.write(`agent-serve: stop: ${e2?.stack ?? e2}\n`);
    }
    process.exit(3);
  });

  lines.on('line', (line) => {
    if (!line.trim()) return;
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      process.stderr.write(`agent-serve: not a JSON line from the runtime: ${line.slice(0, 200)}\n`);
      return;
    }
    if (m.type === 'turn') {
      let began;
      running.set(m.turn, new Promise((r) => (began = r)));
      queue = queue.then(() => started).then(() => runTurn(m, began));
    } else if (m.type === 'steer') {
      const answer = started.then(() => onSteer(m));
      if (!answering.has(m.turn)) answering.set(m.turn, new Set());
      answering.get(m.turn).add(answer);
    } else if (m.type === 'shutdown') void stop(m.reason ?? 'shutdown');
  });
  lines.on('close', () => void queue.then(() => stop('stdin closed')));
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
