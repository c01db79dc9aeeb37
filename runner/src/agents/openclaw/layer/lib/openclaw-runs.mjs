// Turns and mid-turn messages over OpenClaw's gateway (docs/agents.md "OpenClaw"). Every message
// goes in as `chat.send` on the one session, as the reference's adapter sends it; each send is a
// run of its own id. What the gateway then does with a message that arrives during a run depends
// on its queue mode; with "steer" (the reference's) OpenClaw 2026.4.1 and 2026.9.6 were seen to
// take it into the running run — the model's next call has it as a user message — and to end the
// message's own run at once with an empty `final` and no lifecycle of its own. A message the
// running run could not take becomes a run of its own after it (a follow-up), with its own final.
//
// So a run that ends empty without having started was absorbed by the run that was running then;
// a turn ends when each of its runs — followed to the run that absorbed it — has its terminal
// chat event; a steer is taken when its run was absorbed, and not taken when its run started on
// its own or was still waiting when the turn ended. A steer not taken comes back as the next turn
// (the serve contract): that turn is mapped onto the follow-up run OpenClaw already has, not sent
// again.
//
// OpenClaw 2026.9.6 loses a message steered before the run's first tool has started: the send is
// answered and its run ends empty, as when taken, but no model call ever carries it (seen on a
// busy machine while the run prepared — its run_status phases preparing_workspace and
// preparing_context —, as its first model call began, and before it reported anything at all:
// 29 s with 8 gateways on 2 cores). A message steered while a tool runs is taken. So for the
// releases that report phases (`reportsPhases`: 2026.9 on) a steer waits, unsent, until the
// turn's run shows a tool step; if the turn ends first it is not taken (and comes back as the
// next turn). 2026.4.1 (no phases, and no such loss seen) gets it at once.
import { randomUUID } from 'node:crypto';
import { isToolMessage, messageText } from './openclaw-gateway.mjs';

/** Agent event streams of a run's tool steps: a steer is safe from then on (see the header). */
const TOOL_STREAMS = new Set(['item', 'command_output', 'tool']);

/** Finals OpenClaw's own housekeeping answers with: no reply to the user (dropped by the reference). */
export const INTERNAL_ACKS = new Set(['HEARTBEAT_OK', 'NO_REPLY']);

export class Runs {
  /** @param {{request: Function, onEvent: Function}} client  @param {{sessionKey: string, log?: Function, reportsPhases?: boolean}} o */
  constructor(client, o) {
    this.client = client;
    this.o = o;
    /** runId → {started, ended, terminal: {state, text}|null, delta, absorbedInto, phase, toolSeen} for every run seen (phase: the last reported, for the log). */
    this.runs = new Map();
    this.own = new Set();
    /** The run that started and has not ended. */
    this.running = null;
    /** Steers not taken whose runs go on by themselves: {runId, texts}. */
    this.followups = [];
    this.waiters = new Set();
    this.close = client.onEvent((event, payload) => this.onEvent(event, payload));
  }

  run(id) {
    let r = this.runs.get(id);
    if (!r) this.runs.set(id, (r = { id, started: false, ended: false, terminal: null, delta: '', absorbedInto: null, phase: null, toolSeen: false }));
    return r;
  }

  onEvent(event, p) {
    if (!p || typeof p !== 'object' || typeof p.runId !== 'string' || !p.runId) return;
    if (p.sessionKey && p.sessionKey !== this.o.sessionKey) return;
    const r = this.run(p.runId);
    if (event === 'agent' && p.stream === 'lifecycle') {
      const phase = p.data?.phase;
      if (phase === 'start') {
        r.started = true;
        this.running = r.id;
      } else if (phase === 'end' || phase === 'error') {
        r.ended = true;
        if (this.running === r.id) this.running = null;
      }
    } else if (event === 'agent' && p.stream === 'run_status') {
      if (typeof p.data?.phase === 'string') r.phase = p.data.phase;
    } else if (event === 'agent' && TOOL_STREAMS.has(p.stream)) {
      r.toolSeen = true;
    } else if (event === 'chat') {
      const state = p.state;
      if (state === 'delta') {
        const t = messageText(p.message).trim();
        if (t) r.delta = t;
        return;
      }
      if (!['final', 'error', 'aborted'].includes(state) || r.terminal) return;
      // A tool step's final is not the run's end: the answer comes in a later final.
      if (state === 'final' && isToolMessage(p.message)) return;
      let text = messageText(p.message).trim();
      if (state === 'final' && r.delta && text !== r.delta) text = r.delta;
      if (state !== 'final' && !text) text = typeof p.errorMessage === 'string' ? p.errorMessage.trim() : '';
      if (state === 'final' && INTERNAL_ACKS.has(text)) text = '';
      r.terminal = { state, text };
      if (state === 'final' && !r.started && !text) r.absorbedInto = this.active(r.id);
    } else return;
    this.decideSteers(false);
    for (const w of [...this.waiters]) w();
  }

  /** The run a message sent now would join: the one running, else the newest of ours not ended yet. */
  active(except) {
    if (this.running && this.running !== except) return this.running;
    return [...this.own].reverse().find((id) => id !== except && this.runs.has(id) && !this.runs.get(id).terminal) ?? null;
  }

  /** Sends one message on the session; resolves with its run's id. */
  async send(text) {
    const key = randomUUID();
    this.own.add(key);
    const res = await this.client.request('chat.send', { sessionKey: this.o.sessionKey, message: text, idempotencyKey: key });
    const id = typeof res?.runId === 'string' && res.runId ? res.runId : key;
    this.own.add(id);
    this.run(id);
    return id;
  }

  /** The run a run's message ended up in (itself, or the run that absorbed it). */
  owner(id) {
    let r = this.runs.get(id);
    for (let hops = 0; r?.terminal && r.absorbedInto && hops < 100; hops++) r = this.runs.get(r.absorbedInto);
    return r;
  }

  /** The runs a turn of `ids` waits for, once each has ended; null while one runs. */
  settled(ids) {
    const out = [];
    for (const id of ids) {
      const r = this.owner(id);
      if (!r?.terminal) return null;
      if (!out.includes(r)) out.push(r);
    }
    return out;
  }

  /** Resolves when `test()` returns something other than null/undefined. */
  until(test) {
    return new Promise((resolve) => {
      const check = () => {
        const v = test();
        if (v === null || v === undefined) return;
        this.waiters.delete(check);
        resolve(v);
      };
      this.waiters.add(check);
      check();
    });
  }

  /**
   * One turn: its parts go in as one message, except those a follow-up run already carries
   * (steers not taken). Resolves {reply} or {failed, detail} once its runs have ended.
   */
  async turn(t) {
    const parts = Array.isArray(t.parts) && t.parts.length ? t.parts.map((p) => String(p.text)) : [String(t.text)];
    const ids = [];
    const rest = [];
    for (const text of parts) {
      const f = this.followups.find((x) => x.texts.includes(text));
      if (f) {
        if (!ids.includes(f.runId)) ids.push(f.runId);
      } else rest.push(text);
    }
    this.followups = this.followups.filter((f) => !ids.includes(f.runId));
    if (ids.length) this.o.log?.(`turn ${t.turn}: ${ids.length} follow-up run(s) of OpenClaw already carry ${parts.length - rest.length} part(s)`);
    if (rest.length) {
      try {
        ids.push(await this.send(rest.join('\n\n')));
      } catch (e) {
        return { failed: `OpenClaw did not take the message: ${e.message}`, detail: JSON.stringify(e.detail ?? null) };
      }
    }
    this.turnIds = ids;
    const done = await this.until(() => this.settled(ids));
    this.turnIds = null;
    this.decideSteers(true);
    const bad = done.find((r) => r.terminal.state !== 'final');
    if (bad) return { failed: bad.terminal.text || `OpenClaw's run ended ${bad.terminal.state} without a message`, detail: `run ${bad.id}: ${bad.terminal.state}` };
    return { reply: done.map((r) => r.terminal.text).filter(Boolean).join('\n\n') };
  }

  /**
   * Mid-turn input: sent at once, as every message. Resolves true when OpenClaw took it into the
   * running run, false when it goes on as a run of its own (delivered again as the next turn).
   */
  async steer(s) {
    const texts = Array.isArray(s.parts) && s.parts.length ? s.parts.map((p) => String(p.text)) : [String(s.text)];
    const held = this.preparing();
    if (held) {
      this.o.log?.(`a message for OpenClaw held while run ${held} has no tool step yet (${this.runs.get(held).phase ?? 'not begun'})`);
      await this.until(() => (this.preparing() ? null : true));
      // the turn ended before its run ran a tool: not taken, the message comes back as the next turn
      if (!this.turnIds) return false;
    }
    const id = await this.send(texts.join('\n\n'));
    const pending = { id, texts, resolve: null };
    const decided = new Promise((resolve) => (pending.resolve = resolve));
    (this.steers ??= new Set()).add(pending);
    this.decideSteers(false);
    return decided;
  }

  /** With `reportsPhases`, the turn's run while it has shown no tool step (see the header), or null. */
  preparing() {
    if (!this.o.reportsPhases) return null;
    for (const id of this.turnIds ?? []) {
      const r = this.runs.get(id);
      if (r && !r.terminal && !r.toolSeen) return id;
    }
    return null;
  }

  /** Answers the steers whose fate is known; at a turn's end (`final`), every one left. */
  decideSteers(final) {
    for (const s of [...(this.steers ?? [])]) {
      const r = this.runs.get(s.id);
      let taken = null;
      if (r?.terminal && !r.started && !r.terminal.text && r.absorbedInto) taken = true;
      else if (r?.started || r?.terminal || final) taken = false;
      if (taken === null) continue;
      this.steers.delete(s);
      if (!taken) this.followups.push({ runId: s.id, texts: s.texts });
      s.resolve(taken);
    }
  }
}
