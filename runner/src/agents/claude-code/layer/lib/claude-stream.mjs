// One Claude Code process kept up for a whole scenario run (gaia2-runner claude-code layer,
// installed as /opt/gaia2-agent/lib/claude-stream.mjs; docs/agents.md): `claude -p
// --input-format stream-json --output-format stream-json --verbose --replay-user-messages`, the
// mode the Claude Agent SDKs drive. JSON lines both ways: we write user messages and control
// requests; it writes control responses, the turn's messages and one `result` per turn.
//
// Facts of Claude Code 2.1.332 this relies on (measured against the Anthropic double):
// - `control_request {subtype: "initialize"}` is answered once the program is up; the first user
//   message then costs what any later one does.
// - A user message written while a tool runs is folded into the running turn: the CLI hands it
//   to the model with that tool's result ("The user sent a new message while you were working")
//   and replays it (`isReplay`, our uuid). One written while the model writes its final answer
//   is not: it waits in the CLI's queue and runs as a turn of its own after the result.
//   `control_request {subtype: "cancel_async_message", message_uuid}` takes a queued one back.
// So a steer is held until a tool of the turn runs, then written (folded at that tool's result);
// one still held when the turn ends was not taken (the world delivers it as the next turn). One
// written but not folded by the end is cancelled; if the CLI had already started it, it is
// answered by a follow-up turn of the CLI, and both answers are the reply.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseLine, traceLine } from './json-rpc.mjs';

/** The text of an error result: its errors, else its text, else its subtype or HTTP status. */
export function errorText(r) {
  const errors = Array.isArray(r.errors) ? r.errors.map(String).filter(Boolean) : [];
  if (errors.length) return errors.join('; ');
  if (typeof r.result === 'string' && r.result.trim()) return r.result.trim();
  if (r.subtype && r.subtype !== 'success') return String(r.subtype);
  return r.api_error_status ? `API error (HTTP ${r.api_error_status})` : 'Claude Code reported an error';
}

const userMessage = (text, uuid) => ({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, uuid, priority: 'next' });

export class ClaudeStream {
  /**
   * @param {{ bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, traceFile?: string,
   *   onExit: (why: string) => void }} o  onExit: the program ended when nobody asked it to
   */
  constructor(o) {
    this.o = o;
    this.requests = new Map();
    this.nextRequest = 1;
    this.turn = null;
    this.stopping = false;
    this.lastStderr = '';
  }

  /** Starts the program; resolves with its answer to `initialize` (it is ready for a turn). */
  start() {
    const child = spawn(this.o.bin, this.o.args, { cwd: this.o.cwd, env: this.o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      const last = String(d).trim().split('\n').filter(Boolean).at(-1);
      if (last) this.lastStderr = last;
    });
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (l) => this.onLine(l));
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)));
    this.exited = exited;
    void exited.then((how) => {
      const why = `claude exited (${how})${this.lastStderr ? `: ${this.lastStderr}` : ''}`;
      for (const [, p] of this.requests) p.reject(new Error(why));
      this.requests.clear();
      if (!this.stopping) this.o.onExit(why);
    });
    child.on('error', (e) => this.o.onExit(`claude did not start: ${e.message}`));
    return this.request('initialize', { hooks: null });
  }

  /** Ends the program: stdin closed (it ends its session), SIGTERM after 3 s. */
  async stop() {
    this.stopping = true;
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), 3000);
    await this.exited;
    clearTimeout(timer);
  }

  write(msg) {
    this.trace('out', msg);
    this.child.stdin.write(JSON.stringify(msg) + '\n');
  }

  trace(dir, msg) {
    traceLine(this.o.traceFile, dir, msg);
  }

  /** A control request; resolves with the program's response, rejects with its error. */
  request(subtype, fields = {}) {
    const request_id = `gaia2-${this.nextRequest++}`;
    return new Promise((resolve, reject) => {
      this.requests.set(request_id, { resolve, reject });
      this.write({ type: 'control_request', request_id, request: { subtype, ...fields } });
    });
  }

  onLine(line) {
    const m = parseLine(line, 'claude-stream');
    if (m === undefined) return;
    this.trace('in', m);
    if (m.type === 'control_response') {
      const r = m.response ?? {};
      const p = this.requests.get(r.request_id);
      if (!p) return;
      this.requests.delete(r.request_id);
      if (r.subtype === 'error') p.reject(new Error(String(r.error ?? 'control request failed')));
      else p.resolve(r.response ?? {});
    } else if (m.type === 'control_request') {
      // We give it no hooks, SDK tools or permission prompts (bypassPermissions): nothing to answer.
      this.write({ type: 'control_response', response: { subtype: 'error', request_id: m.request_id, error: `gaia2 bridge: ${m.request?.subtype} is not supported` } });
    } else if (this.turn) this.onTurnMessage(this.turn, m);
  }

  /** Runs one turn: resolves with { reply } or { failed, detail }. */
  runTurn(text) {
    const uuid = randomUUID();
    const t = { uuid, tools: new Set(), held: [], written: new Map(), results: [], answered: new Set(), pending: new Set([uuid]), ending: false, steering: null };
    this.turn = t;
    const done = new Promise((resolve) => (t.finish = resolve));
    this.write(userMessage(text, uuid));
    return done.then((out) => ((this.turn = null), out));
  }

  /** Mid-turn input: resolves true once the turn took it, false when it did not. */
  steer(text) {
    const t = this.turn;
    if (!t || t.ending) return Promise.resolve(false);
    return new Promise((resolve) => {
      t.held.push({ text, resolve, settled: false });
      if (t.tools.size) this.flush(t);
    });
  }

  /** Writes the held steers while a tool runs: the CLI folds them in with its result. */
  flush(t) {
    for (const s of t.held.splice(0)) {
      s.uuid = randomUUID();
      t.written.set(s.uuid, s);
      this.write(userMessage(s.text, s.uuid));
    }
  }

  onTurnMessage(t, m) {
    const top = !m.parent_tool_use_id;
    const blocks = Array.isArray(m.message?.content) ? m.message.content : [];
    if (m.type === 'assistant' && top) {
      for (const b of blocks) if (b.type === 'tool_use') t.tools.add(b.id);
      if (t.tools.size) this.flush(t);
    } else if (m.type === 'user' && top) {
      if (m.isReplay) this.taken(t, m.uuid);
      else for (const b of blocks) if (b.type === 'tool_result') t.tools.delete(b.tool_use_id);
    } else if (m.type === 'command_lifecycle' && m.state === 'started') this.taken(t, m.command_uuid);
    else if (m.type === 'result') this.onResult(t, m);
  }

  /** The CLI took a written steer: into the running turn, or (after the result) as a follow-up turn. */
  taken(t, uuid) {
    const s = t.written.get(uuid);
    if (!s) return;
    if (t.ending && !t.answered.has(uuid)) t.pending.add(uuid);
    if (!s.settled) {
      s.settled = true;
      s.resolve(true);
    }
  }

  onResult(t, m) {
    t.results.push(m);
    const answered = Array.isArray(m.user_message_uuids) ? m.user_message_uuids : m.user_message_uuid ? [m.user_message_uuid] : [t.uuid];
    for (const u of answered) {
      t.answered.add(u);
      t.pending.delete(u);
    }
    if (!t.ending) {
      t.ending = true;
      t.steering = this.settleSteers(t);
    }
    void t.steering.then(() => {
      if (t.pending.size === 0) t.finish(this.outcome(t));
    });
  }

  /** At the turn's result: held steers were not taken; written ones not folded are taken back if they can be. */
  async settleSteers(t) {
    for (const s of t.held.splice(0)) {
      s.settled = true;
      s.resolve(false);
    }
    const open = [...t.written.entries()].filter(([, s]) => !s.settled);
    await Promise.all(
      open.map(async ([uuid, s]) => {
        const cancelled = await this.request('cancel_async_message', { message_uuid: uuid }).then((r) => r?.cancelled === true, () => false);
        if (s.settled) return;
        s.settled = true;
        if (!cancelled && !t.answered.has(uuid)) t.pending.add(uuid);
        s.resolve(!cancelled);
      }),
    );
  }

  outcome(t) {
    const failed = t.results.find((r) => r.is_error);
    if (failed) {
      const detail = [`result ${failed.subtype ?? '?'}`, failed.api_error_status ? `HTTP ${failed.api_error_status}` : '', failed.terminal_reason ? `terminal_reason ${failed.terminal_reason}` : ''].filter(Boolean).join(', ');
      return { failed: errorText(failed), detail };
    }
    return { reply: t.results.map((r) => (typeof r.result === 'string' ? r.result.trim() : '')).filter(Boolean).join('\n\n') };
  }
}
