// Client side of the agent ↔ daemon protocol (contract/agent-protocol.ts), for agent
// runtimes that run as a separate process (default LLM agent, scripted).
//
//   const conn = await connectToDaemon({ agent: 'default' });
//   conn.onMessage(async (m) => { …; conn.reply(m.run_id, text); });
//   conn.ready();
//   const r = await conn.cli(['calendar', 'list-events']);   // {stdout, stderr, exit_code}
import net from 'node:net';
import {
  AGENT_PROTOCOL_VERSION,
  AGENT_SOCKET_ENV,
  DAEMON_SOCKETS,
  encodeLine,
  lineSplitter,
  type AgentToDaemon,
  type CliResultMsg,
  type DaemonToAgent,
  type DeliveredPart,
  type MessageMsg,
  type ShutdownMsg,
  type TimeMsg,
  type UsageMsg,
  type WelcomeMsg,
} from '../contract/agent-protocol.js';

export interface ConnectOptions {
  /** Runtime name sent in hello. */
  agent: string;
  /** Defaults to $GAIA2_AGENT_SOCKET, then /run/gaia2/agent.sock. */
  socketPath?: string;
  steer?: boolean;
  /**
   * Keep retrying the connection this long (daemon still starting). Default 180 s: the image
   * starts the runtime together with the daemon, which may wait up to 120 s for its scenario
   * (GAIA2_SCENARIO_READY) and then composes the world before it serves the agent socket.
   */
  connectTimeoutMs?: number;
}

/** What a reply may carry besides its text (contract/agent-protocol.ts ReplyMsg). */
export interface ReplyExtras {
  /** The agent's program failed this run on its own; the content is its failure text (judged). */
  failure?: { detail: string };
  /** Steer parts the program did not take: delivered again as the next run. */
  requeue?: DeliveredPart[];
  /** Steer messages of this run received before replying (later ones are delivered again). */
  steersSeen?: number;
}

export interface CliResult {
  stdout: string;
  stderr: string;
  exit_code: number;
}

export class DaemonConnection {
  private nextId = 1;
  private readonly pending = new Map<string, (m: DaemonToAgent) => void>();
  private messageHandler: ((m: MessageMsg) => void) | null = null;
  private readonly early: MessageMsg[] = [];
  private shutdownHandlers: Array<(m: ShutdownMsg | null) => void> = [];
  private closed = false;

  constructor(
    private readonly socket: net.Socket,
    readonly welcome: WelcomeMsg,
    push: (cb: (line: string) => void) => void,
  ) {
    push((line) => this.dispatch(line));
    socket.on('close', () => this.onClose(null));
  }

  /**
   * Tells the daemon the agent can take messages (adapter reports connected:true; the simulated
   * clock starts). `steer`: mid-run messages come at once (see hello's steer).
   */
  ready(steer?: boolean): void {
    this.send(steer === undefined ? { type: 'ready' } : { type: 'ready', steer });
  }

  /** Holds or releases the simulated clock (a program restarting: its start-up is not the agent's time). */
  clock(hold: boolean, reason?: string): void {
    this.send({ type: 'clock', hold, ...(reason ? { reason } : {}) });
  }

  /** Called for each new run (and, with steer, for mid-run input). Messages that arrived
   *  before a handler was set are replayed to it. */
  onMessage(handler: (m: MessageMsg) => void): void {
    this.messageHandler = handler;
    for (const m of this.early.splice(0)) handler(m);
  }

  /** Called once when the daemon reaches a terminal status (msg) or the socket closes (null). */
  onShutdown(handler: (m: ShutdownMsg | null) => void): void {
    this.shutdownHandlers.push(handler);
  }

  /** Ends the run: the daemon writes the reply to the user (a turn boundary). */
  reply(runId: string, content: string, state: 'final' | 'error' = 'final', errorKind?: string, more: ReplyExtras = {}): void {
    this.send({
      type: 'reply',
      run_id: runId,
      content,
      state,
      ...(errorKind ? { error_kind: errorKind } : {}),
      ...(more.failure ? { failure: more.failure } : {}),
      ...(more.requeue?.length ? { requeue: more.requeue } : {}),
      ...(more.steersSeen !== undefined ? { steers_seen: more.steersSeen } : {}),
    });
  }

  /** Runs an app command as an agent action; argv[0] is the CLI name. */
  async cli(argv: string[]): Promise<CliResult> {
    const r = (await this.request({ type: 'cli', id: this.id(), argv })) as CliResultMsg;
    return { stdout: r.stdout, stderr: r.stderr, exit_code: r.exit_code };
  }

  /** Current simulated time. */
  async time(): Promise<{ sim_time: string; epoch: number }> {
    const r = (await this.request({ type: 'time', id: this.id() })) as TimeMsg;
    return { sim_time: r.sim_time, epoch: r.epoch };
  }

  usage(u: Omit<UsageMsg, 'type'>): void {
    this.send({ type: 'usage', ...u });
  }

  progress(text?: string, runId?: string): void {
    this.send({ type: 'progress', text, run_id: runId });
  }

  log(text: string, level: 'debug' | 'info' | 'warn' | 'error' = 'info'): void {
    this.send({ type: 'log', level, text });
  }

  close(): void {
    this.socket.end();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private id(): string {
    return String(this.nextId++);
  }

  private send(msg: AgentToDaemon): void {
    if (!this.closed) this.socket.write(encodeLine(msg));
  }

  private request(msg: AgentToDaemon & { id: string }): Promise<DaemonToAgent> {
    if (this.closed) return Promise.reject(new Error('daemon connection closed'));
    return new Promise((resolve, reject) => {
      this.pending.set(msg.id, (m) => (m.type === 'error' ? reject(new Error(m.message)) : resolve(m)));
      this.send(msg);
    });
  }

  private dispatch(line: string): void {
    let m: DaemonToAgent;
    try {
      m = JSON.parse(line) as DaemonToAgent;
    } catch {
      return;
    }
    if ((m.type === 'cli_result' || m.type === 'time' || m.type === 'error') && m.id !== undefined) {
      const waiter = this.pending.get(String(m.id));
      if (waiter) {
        this.pending.delete(String(m.id));
        waiter(m);
      }
      return;
    }
    if (m.type === 'message') {
      if (this.messageHandler) this.messageHandler(m);
      else this.early.push(m);
    } else if (m.type === 'shutdown') {
      this.onClose(m);
    }
  }

  private onClose(m: ShutdownMsg | null): void {
    const first = !this.closed;
    this.closed = true;
    if (!first && m === null) return;
    for (const [, waiter] of this.pending) waiter({ type: 'error', message: 'daemon connection closed' });
    this.pending.clear();
    const handlers = this.shutdownHandlers.splice(0);
    for (const h of handlers) h(m);
  }
}

/** Between connection attempts while the daemon starts (a refused attempt costs microseconds). */
const CONNECT_RETRY_MS = 10;

/** Connects, sends hello and waits for the daemon's welcome. Retries while the socket is absent. */
export async function connectToDaemon(opts: ConnectOptions): Promise<DaemonConnection> {
  const socketPath = opts.socketPath ?? process.env[AGENT_SOCKET_ENV] ?? DAEMON_SOCKETS.agent;
  const deadline = Date.now() + (opts.connectTimeoutMs ?? 180_000);
  for (;;) {
    try {
      return await attempt(socketPath, opts);
    } catch (e) {
      if (Date.now() > deadline) {
        throw new Error(`cannot connect to the world daemon at ${socketPath}: ${(e as Error).message}`);
      }
      // Short: the socket appears once the world is composed, and every wait here is boot time.
      await new Promise((r) => setTimeout(r, CONNECT_RETRY_MS));
    }
  }
}

function attempt(socketPath: string, opts: ConnectOptions): Promise<DaemonConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let lineHandler: ((line: string) => void) | null = null;
    const buffered: string[] = [];
    const push = lineSplitter((line) => (lineHandler ? lineHandler(line) : buffered.push(line)));
    socket.on('data', push);
    socket.once('error', reject);
    socket.once('connect', () => {
      const hello: AgentToDaemon = { type: 'hello', protocol: AGENT_PROTOCOL_VERSION, agent: opts.agent };
      if (opts.steer) hello.steer = true;
      socket.write(encodeLine(hello));
    });
    // The first line must be the welcome; everything after goes to the connection.
    lineHandler = (line) => {
      let m: DaemonToAgent;
      try {
        m = JSON.parse(line) as DaemonToAgent;
      } catch {
        reject(new Error(`bad welcome line: ${line.slice(0, 200)}`));
        socket.destroy();
        return;
      }
      if (m.type !== 'welcome') {
        reject(new Error(m.type === 'error' ? m.message : `expected welcome, got ${m.type}`));
        socket.destroy();
        return;
      }
      socket.removeListener('error', reject);
      socket.on('error', () => undefined); // close follows; handled there
      const conn = new DaemonConnection(socket, m, (cb) => {
        lineHandler = cb;
        for (const l of buffered.splice(0)) cb(l);
      });
      resolve(conn);
    };
  });
}
