// The client side of the Agent Client Protocol (ACP, agentclientprotocol.com, protocol version 1)
// for a bridge that keeps an ACP agent program up (gaia2-runner, runner/src/agents/kit/;
// installed as /opt/gaia2-agent/lib/acp-client.mjs). Gemini CLI's `--acp` mode speaks it, and so
// do other agent programs; a bridge says how to start its program and what to do with a turn:
//
//   const acp = new AcpClient({ command, args, cwd, env, traceFile });
//   await acp.start();                           // spawn + initialize
//   const id = await acp.newSession(cwd);        // or: await acp.loadSession(savedId, cwd)
//   const r = await acp.prompt('the message');   // { stopReason, reply, toolCalls, result }
//
// JSON-RPC 2.0 over the program's stdio, one message per line (json-rpc.mjs): initialize,
// session/new or session/load, then one session/prompt per turn, whose result (stopReason) ends
// it; meanwhile the program streams session/update notifications (agent_message_chunk,
// agent_thought_chunk, tool_call, tool_call_update, …) and may ask session/request_permission,
// which this client always allows (the container is the agent's sandbox). We offer no file
// system or terminal of ours: the program uses its own tools. Every message in both directions
// goes to the trace file, which a bridge may switch (per turn) with setTrace.
import { spawn } from 'node:child_process';
import { JsonRpcPeer } from './json-rpc.mjs';

export const ACP_PROTOCOL_VERSION = 1;

/** The answer to a permission request: allow once where offered, else any allowing option. */
export function allowOption(options) {
  const list = Array.isArray(options) ? options : [];
  const pick = list.find((o) => o?.kind === 'allow_once') ?? list.find((o) => String(o?.kind ?? '').startsWith('allow')) ?? list[0];
  return pick ? { outcome: { outcome: 'selected', optionId: pick.optionId } } : { outcome: { outcome: 'cancelled' } };
}

/**
 * What a turn said, from its session/update notifications: the agent's final message (the text
 * after its last tool call; where that is empty, the last text before it, as a headless run of
 * such programs reports it) and the tool calls it made.
 */
export class TurnRecord {
  constructor() {
    this.segments = [''];
    this.toolCalls = [];
  }

  add(update) {
    switch (update?.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content?.type === 'text') this.segments[this.segments.length - 1] += update.content.text ?? '';
        break;
      case 'tool_call':
        this.toolCalls.push({ id: update.toolCallId, title: update.title ?? '', kind: update.kind ?? 'other', status: update.status ?? 'pending' });
        this.segments.push('');
        break;
      case 'tool_call_update': {
        const c = this.toolCalls.find((x) => x.id === update.toolCallId);
        if (c && update.status) c.status = update.status;
        break;
      }
      default:
        break;
    }
  }

  get reply() {
    return (this.segments.findLast((s) => s.trim() !== '') ?? '').trim();
  }
}

export class AcpClient {
  /**
   * @param {{ command: string, args?: string[], cwd?: string, env?: NodeJS.ProcessEnv, traceFile?: string,
   *           clientInfo?: { name: string, version: string }, onExit?: (code: number|null, signal: string|null) => void,
   *           authMethod?: string, onUpdate?: (update: object) => void }} o
   * authMethod: the ACP authenticate method to call after initialize (a program that wants one);
   * onUpdate: every session/update of the session, as it arrives (a bridge's own step log).
   */
  constructor(o) {
    this.o = o;
    this.sessionId = null;
    this.init = null;
    this.record = null;
    this.lastUpdateAt = 0;
    this.stderrLines = [];
    this.exit = null;
  }

  /** Starts the program and initializes the connection; resolves with the agent's initialize result. */
  async start() {
    const child = spawn(this.o.command, this.o.args ?? [], { cwd: this.o.cwd, env: this.o.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.on('error', (e) => this.keepStderr(`cannot start ${this.o.command}: ${e.message}`));
    // The program's stderr goes on to ours (the serve log); its last lines explain a crash.
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      for (const l of String(d).split('\n')) this.keepStderr(l);
    });
    this.peer = new JsonRpcPeer(child, {
      traceFile: this.o.traceFile,
      onExit: (code, signal) => {
        this.exit = { code, signal };
        this.o.onExit?.(code, signal);
      },
    });
    this.peer.onNotification('session/update', (p) => this.onUpdate(p));
    this.peer.onRequest('session/request_permission', (p) => allowOption(p?.options));
    this.init = await this.peer.request('initialize', {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: this.o.clientInfo ?? { name: 'gaia2-runner', version: '1' },
    });
    if (this.o.authMethod) await this.peer.request('authenticate', { methodId: this.o.authMethod });
    return this.init;
  }

  get pid() {
    return this.child?.pid;
  }

  /** The agent can resume a saved session (session/load). */
  get canLoad() {
    return this.init?.agentCapabilities?.loadSession === true;
  }

  /** Where the messages go from now on (a turn's own file, say). */
  setTrace(file) {
    this.peer.traceFile = file;
  }

  /** A line of our own in the trace, beside the protocol's (`dir: "note"`). */
  note(msg) {
    this.peer.trace('note', msg);
  }

  keepStderr(line) {
    if (!line.trim()) return;
    this.stderrLines.push(line.trim());
    if (this.stderrLines.length > 20) this.stderrLines.shift();
  }

  /** The program's last line on stderr ('' when none). */
  lastStderr() {
    return this.stderrLines.at(-1) ?? '';
  }

  onUpdate(p) {
    if (p?.sessionId !== this.sessionId) return;
    this.lastUpdateAt = performance.now();
    this.record?.add(p.update);
    this.o.onUpdate?.(p.update);
  }

  async newSession(cwd, mcpServers = []) {
    const r = await this.peer.request('session/new', { cwd, mcpServers });
    this.sessionId = r.sessionId;
    return this.sessionId;
  }

  /**
   * Resumes a saved session. The protocol has the agent replay the conversation as
   * session/update notifications before it answers; some agents (Gemini CLI 0.61) go on
   * replaying after the answer, so this waits until the updates have been quiet for `settleMs`
   * (at most `maxMs`): a replayed message must not be taken for the next turn's reply.
   */
  async loadSession(sessionId, cwd, { mcpServers = [], settleMs = 300, maxMs = 10_000 } = {}) {
    this.sessionId = sessionId;
    // Monotonic time: in the agent's container Date reads the simulated clock, held while a program starts.
    this.lastUpdateAt = performance.now();
    await this.peer.request('session/load', { sessionId, cwd, mcpServers });
    const until = performance.now() + maxMs;
    while (performance.now() - this.lastUpdateAt < settleMs && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    return sessionId;
  }

  /**
   * One turn: the text as the user's prompt; resolves when the agent ends the turn, with its
   * stopReason (end_turn, max_tokens, max_turn_requests, refusal, cancelled), the final message
   * and the tool calls it made. Rejects with the agent's error (message, code, data) or when the
   * program exits during the turn.
   */
  async prompt(text) {
    const record = new TurnRecord();
    this.record = record;
    try {
      const result = await this.peer.request('session/prompt', { sessionId: this.sessionId, prompt: [{ type: 'text', text }] });
      return { stopReason: result?.stopReason ?? 'end_turn', reply: record.reply, toolCalls: record.toolCalls, result };
    } finally {
      if (this.record === record) this.record = null;
    }
  }

  /** Asks the agent to end the running turn (its prompt then resolves with stopReason cancelled). */
  cancel() {
    if (this.sessionId) this.peer.notify('session/cancel', { sessionId: this.sessionId });
  }

  /**
   * Ends the program: its stdin closed (an ACP agent exits when its connection ends), SIGTERM
   * after `graceMs`, SIGKILL a second later; within the 5 s the runtime gives a shutdown.
   */
  async stop(graceMs = 2500) {
    if (!this.child || this.exit) return;
    this.stopping = true;
    const timers = [setTimeout(() => this.child.kill('SIGTERM'), graceMs), setTimeout(() => this.child.kill('SIGKILL'), graceMs + 1000)];
    this.child.stdin.end();
    await this.exited;
    for (const t of timers) clearTimeout(t);
  }
}
