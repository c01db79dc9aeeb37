// A client of OpenClaw's gateway over its own WebSocket protocol, as the reference's adapter
// speaks it (gaia2-cli/containers/openclaw/gaia2_adapter.py; docs/agents.md "OpenClaw"): the
// gateway sends `connect.challenge`, the client answers with a `connect` request carrying the
// gateway token, the gateway says `hello-ok`; then requests {type:"req", id, method, params} are
// answered by {type:"res", id, ok, payload|error}, and events {type:"event", event, payload} come
// at any time (`chat` with state delta/final/error/aborted per run, `agent` with the run's
// lifecycle). Every frame but the keep-alive ticks is appended to a trace file (the token left out).
import { appendFileSync } from 'node:fs';

const PROTOCOL = { min: 3, max: 4 };
// read/write as the reference's adapter; admin to delete the warm-up's session (bin/agent-serve).
const SCOPES = ['operator.read', 'operator.write', 'operator.admin'];
/**
 * Who the client says it is. First the reference adapter's identity (the terminal UI, which
 * 2026.4.1 lets write with the token alone); releases that want a device identity of a UI client
 * (2026.9) refuse it, and take a local backend client with the token instead.
 */
export const IDENTITIES = [
  { id: 'openclaw-tui', version: '1.0.0', platform: 'linux', mode: 'ui' },
  { id: 'gateway-client', version: '1.0.0', platform: 'linux', mode: 'backend' },
];
const NOISE = new Set(['tick', 'health', 'presence']);

export class GatewayClient {
  /** @param {{url: string, token: string, traceFile?: string, log?: (s: string) => void}} o */
  constructor(o) {
    this.o = o;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.closedHandlers = new Set();
    this.hello = null;
    this.identity = null;
  }

  trace(dir, frame) {
    if (!this.o.traceFile) return;
    if (dir === 'in' && frame?.type === 'event' && NOISE.has(frame.event)) return;
    try {
      appendFileSync(this.o.traceFile, JSON.stringify({ t: Date.now() / 1000, dir, frame }) + '\n');
    } catch {
      /* a trace that cannot be written must not stop the agent */
    }
  }

  /** Events of the gateway (after the handshake): fn(event, payload). */
  onEvent(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Called once when the connection closes after the handshake: fn(code, reason). */
  onClose(fn) {
    this.closedHandlers.add(fn);
  }

  /**
   * Opens the socket and authenticates, trying each identity in turn; resolves with hello-ok. A
   * gateway that answers /health before it takes clients says "gateway starting; retry shortly":
   * the same identity is tried again a second later, until `timeoutMs` is over.
   */
  async connect(timeoutMs = 120_000) {
    const deadline = Date.now() + timeoutMs;
    let last = null;
    for (const identity of IDENTITIES) {
      for (;;) {
        try {
          this.hello = await this.handshake(identity, Math.max(1000, deadline - Date.now()));
          this.identity = identity;
          return this.hello;
        } catch (e) {
          last = e;
          if (/starting|retry/i.test(e.message) && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 1000));
            continue;
          }
          this.o.log?.(`gateway refused the client ${identity.id}/${identity.mode}: ${e.message}`);
          break;
        }
      }
    }
    throw last;
  }

  handshake(identity, timeoutMs) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.o.url);
      let settled = false;
      const fail = (why) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        try {
          ws.close();
        } catch {
          /* already closed */
        }
        reject(new Error(why));
      };
      const timer = setTimeout(() => fail(`no hello-ok within ${timeoutMs / 1000} s`), timeoutMs);
      ws.onerror = () => fail('the WebSocket failed');
      ws.onclose = (e) => {
        if (!settled) fail(`the gateway closed the connection (${e.code} ${e.reason || ''})`.trim());
        else if (this.ws === ws) {
          this.ws = null;
          const why = new Error(`the gateway connection closed (${e.code} ${e.reason || ''})`.trim());
          for (const [, p] of this.pending) p.reject(why);
          this.pending.clear();
          for (const fn of this.closedHandlers) fn(e.code, e.reason);
        }
      };
      ws.onmessage = (ev) => {
        let m;
        try {
          m = JSON.parse(String(ev.data));
        } catch {
          return;
        }
        this.trace('in', m);
        if (!settled) {
          if (m.type === 'event' && m.event === 'connect.challenge') {
            const frame = {
              type: 'req',
              id: 'connect',
              method: 'connect',
              params: {
                minProtocol: PROTOCOL.min,
                maxProtocol: PROTOCOL.max,
                client: identity,
                role: 'operator',
                scopes: SCOPES,
                caps: [],
                commands: [],
                permissions: {},
                auth: { token: this.o.token },
                locale: 'en-US',
                userAgent: 'gaia2-agent-serve/1',
              },
            };
            this.trace('out', { ...frame, params: { ...frame.params, auth: { token: '(the gateway token)' } } });
            ws.send(JSON.stringify(frame));
          } else if (m.type === 'res' && m.id === 'connect') {
            if (m.ok && m.payload?.type === 'hello-ok') {
              settled = true;
              clearTimeout(timer);
              this.ws = ws;
              resolve(m.payload);
            } else fail(m.error?.message ?? 'connect refused');
          }
          return;
        }
        if (m.type === 'res' && this.pending.has(m.id)) {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (m.ok === false) p.reject(Object.assign(new Error(m.error?.message ?? `${p.method} failed`), { detail: m.error }));
          else p.resolve(m.payload ?? {});
        } else if (m.type === 'event') {
          let payload = m.payload;
          if (typeof payload === 'string') {
            try {
              payload = JSON.parse(payload);
            } catch {
              /* keep the text */
            }
          }
          for (const fn of this.listeners) fn(m.event, payload);
        }
      };
    });
  }

  /** Calls `method`; resolves with the answer's payload, rejects with its error. */
  request(method, params, timeoutMs = 120_000) {
    const ws = this.ws;
    if (!ws) return Promise.reject(new Error(`cannot call ${method}: not connected to the gateway`));
    const id = String(this.nextId++);
    const frame = { type: 'req', id, method, ...(params === undefined ? {} : { params }) };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.trace('out', frame);
      ws.send(JSON.stringify(frame));
    });
  }

  close() {
    const ws = this.ws;
    this.ws = null;
    try {
      ws?.close();
    } catch {
      /* already closed */
    }
  }
}

/** The visible text of a chat message in any of the shapes the gateway sends. */
export function messageText(message) {
  if (typeof message === 'string') return message;
  if (!message || typeof message !== 'object') return '';
  for (const v of [message.text, message.content]) if (typeof v === 'string') return v;
  if (!Array.isArray(message.content)) return '';
  return message.content.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('');
}

const TOOL_KEYS = ['toolCalls', 'tool_calls', 'toolUses', 'tool_uses', 'toolUse', 'tool_use'];
const TOOL_TYPES = new Set(['toolCall', 'tool_call', 'toolcall', 'toolUse', 'tool_use', 'toolResult', 'tool_result']);

/** A chat message that is a tool step, not an answer to the user (such finals are not the run's end). */
export function isToolMessage(message) {
  if (!message || typeof message !== 'object') return false;
  if (TOOL_KEYS.some((k) => message[k]?.length || (message[k] && !Array.isArray(message[k])))) return true;
  if (!Array.isArray(message.content)) return false;
  return message.content.some((p) => p && typeof p === 'object' && (TOOL_TYPES.has(p.type) || ['toolCall', 'tool_call', 'toolCalls', 'tool_calls'].some((k) => p[k])));
}
