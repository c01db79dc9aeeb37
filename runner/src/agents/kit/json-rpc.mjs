// JSON-RPC over a child program's stdio, one message per line (gaia2-runner,
// runner/src/agents/kit/; installed as /opt/gaia2-agent/lib/json-rpc.mjs). Both sides may send
// requests and notifications: the Agent Client Protocol (Gemini CLI's ACP mode and other ACP
// agents) and Codex's app-server speak it this way. Every message in both directions can be
// appended to a trace file (JSON lines `{t, dir, msg}`), the raw record of what the program did.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export class JsonRpcPeer {
  /**
   * @param {import('node:child_process').ChildProcess} child  the program, stdio piped
   * @param {{ jsonrpc?: boolean, traceFile?: string, onExit?: (code: number|null, signal: string|null) => void }} [o]
   *   jsonrpc: send the "jsonrpc": "2.0" member (ACP does; Codex's app-server omits it)
   */
  constructor(child, o = {}) {
    this.child = child;
    this.jsonrpc = o.jsonrpc !== false;
    this.traceFile = o.traceFile;
    this.nextId = 1;
    this.pending = new Map();
    this.notificationHandlers = new Map();
    this.requestHandlers = new Map();
    this.anyNotification = null;
    this.closed = false;
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (l) => this.onLine(l));
    child.on('exit', (code, signal) => {
      this.closed = true;
      const why = new Error(`the program exited (${signal ? `signal ${signal}` : `code ${code}`}) with a request unanswered`);
      for (const [, p] of this.pending) p.reject(why);
      this.pending.clear();
      o.onExit?.(code, signal);
    });
    child.stdin.on('error', () => undefined);
  }

  /** Calls `method`; resolves with its result, rejects with its error (message, code, data). */
  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`cannot call ${method}: the program has exited`));
      this.pending.set(id, { resolve, reject, method });
      this.write({ id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  notify(method, params) {
    this.write({ method, ...(params === undefined ? {} : { params }) });
  }

  /** Handles notifications of `method` ("*" for every one not handled otherwise). */
  onNotification(method, fn) {
    if (method === '*') this.anyNotification = fn;
    else this.notificationHandlers.set(method, fn);
  }

  /** Answers the program's requests of `method` with fn's result (thrown: an error answer). */
  onRequest(method, fn) {
    this.requestHandlers.set(method, fn);
  }

  write(msg) {
    const full = this.jsonrpc ? { jsonrpc: '2.0', ...msg } : msg;
    this.trace('out', full);
    if (!this.closed) this.child.stdin.write(JSON.stringify(full) + '\n');
  }

  trace(dir, msg) {
    traceLine(this.traceFile, dir, msg);
  }

  onLine(line) {
    const m = parseLine(line, 'json-rpc');
    if (m === undefined) return;
    this.trace('in', m);
    if (m.method !== undefined && m.id !== undefined) return void this.answer(m);
    if (m.method !== undefined) {
      const h = this.notificationHandlers.get(m.method) ?? this.anyNotification;
      try {
        h?.(m.params, m.method);
      } catch (e) {
        process.stderr.write(`json-rpc: handler of ${m.method}: ${e?.stack ?? e}\n`);
      }
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error) {
      const e = new Error(`${p.method}: ${m.error.message ?? JSON.stringify(m.error)}`);
      e.code = m.error.code;
      e.data = m.error.data;
      p.reject(e);
    } else p.resolve(m.result);
  }

  async answer(m) {
    const h = this.requestHandlers.get(m.method);
    if (!h) return this.write({ id: m.id, error: { code: -32601, message: `method not found: ${m.method}` } });
    try {
      this.write({ id: m.id, result: (await h(m.params, m.method)) ?? null });
    } catch (e) {
      this.write({ id: m.id, error: { code: -32603, message: e?.message ? String(e.message) : String(e) } });
    }
  }
}

/** Appends one message to a program's trace (JSON lines `{t, dir, msg}`), when there is a file. */
export function traceLine(file, dir, msg) {
  if (!file) return;
  try {
    appendFileSync(file, JSON.stringify({ t: Date.now() / 1000, dir, msg }) + '\n');
  } catch {
    /* a trace that cannot be written must not stop the agent */
  }
}

/** One line of a program's JSON-lines output: the message, or undefined (blank; not JSON: said on stderr). */
export function parseLine(line, who) {
  if (!line.trim()) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    process.stderr.write(`${who}: not JSON from the program: ${line.slice(0, 300)}\n`);
    return undefined;
  }
}
