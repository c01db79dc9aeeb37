// One agent runtime connected over the agent socket (contract/agent-protocol.ts). It owns the
// run bookkeeping: one run at a time; messages arriving mid-run wait in a queue and start the
// next run together after the reply (or, for steer agents, join the active run).
import type net from 'node:net';
import {
  AGENT_PROTOCOL_VERSION,
  encodeLine,
  lineSplitter,
  type AgentToDaemon,
  type DaemonToAgent,
  type DeliveredPart,
  type MessageMsg,
} from '../contract/agent-protocol.js';
import type { AgentEndpoint } from './agent-endpoint.js';
import type { WorldDaemon } from './daemon.js';

/** Delivered parts of a requeue list; anything else in it is dropped. */
function validParts(v: unknown): DeliveredPart[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (p): p is DeliveredPart => !!p && typeof p === 'object' && typeof p.text === 'string' && (p.kind === 'user' || p.kind === 'notification'),
  );
}

export class AgentSession implements AgentEndpoint {
  name = 'unknown';
  private steer = false;
  private greeted = false;
  private ready = false;
  private activeRun: string | null = null;
  private readonly queue: DeliveredPart[] = [];
  /** Parts already recorded as delivered (steer parts the agent handed back): not recorded twice. */
  private readonly recorded = new WeakSet<DeliveredPart>();
  /** Steer messages sent during the active run, in order (each one's parts). */
  private steersSent: DeliveredPart[][] = [];
  private cliInFlight = 0;
  private closed = false;

  constructor(
    private readonly world: WorldDaemon,
    private readonly socket: net.Socket,
    private readonly tools: string[],
  ) {
    socket.on('data', lineSplitter((l) => this.onLine(l)));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      if (this.greeted) this.world.agentLost('agent socket closed');
    });
  }

  deliver(part: DeliveredPart): string {
    if (!this.ready || (this.activeRun && !this.steer)) {
      this.queue.push(part);
      return this.activeRun ?? '';
    }
    if (this.activeRun && this.steer) {
      this.steersSent.push([part]);
      this.sendRun(this.activeRun, [part], true);
      return this.activeRun;
    }
    return this.startRun([part]);
  }

  isIdle(): boolean {
    return this.activeRun === null && this.queue.length === 0 && this.cliInFlight === 0;
  }

  wakeAt(): number | null {
    return null;
  }

  shutdown(status: string, reason: string): void {
    this.send({ type: 'shutdown', status, reason });
  }

  private startRun(parts: DeliveredPart[]): string {
    const runId = this.world.newRunId();
    this.activeRun = runId;
    this.steersSent = [];
    this.sendRun(runId, parts, false);
    return runId;
  }

  private sendRun(runId: string, parts: DeliveredPart[], steer: boolean): void {
    const fresh = parts.filter((p) => !this.recorded.has(p));
    if (fresh.length) this.world.recordDelivered(fresh);
    const msg: MessageMsg = {
      type: 'message',
      run_id: runId,
      kind: parts.some((p) => p.kind === 'user') ? 'user' : 'notification',
      text: parts.map((p) => p.text).join('\n\n'),
      parts,
      sim_time: this.world.clock.text(),
    };
    if (steer) msg.steer = true;
    this.send(msg);
  }

  private send(msg: DaemonToAgent): void {
    if (!this.closed) this.socket.write(encodeLine(msg));
  }

  private onLine(line: string): void {
    let m: AgentToDaemon;
    try {
      m = JSON.parse(line) as AgentToDaemon;
    } catch {
      this.send({ type: 'error', message: 'invalid JSON line' });
      return;
    }
    this.world.activity();
    if (!this.greeted) {
      if (m.type !== 'hello') {
        this.send({ type: 'error', message: 'first message must be hello' });
        this.socket.end();
        return;
      }
      this.greeted = true;
      this.name = String(m.agent || 'unknown');
      this.steer = !!m.steer;
      const renamed = this.world.renamedCommands();
      this.send({
        type: 'welcome',
        protocol: AGENT_PROTOCOL_VERSION,
        tools: this.tools,
        sim_time: this.world.clock.text(),
        clock_mode: this.world.clock.mode,
        ...(this.world.appAgentClis.length > 0 ? { app_agents: this.world.appAgentClis } : {}),
        ...(renamed.length ? { renamed_commands: renamed } : {}),
      });
      return;
    }
    switch (m.type) {
      case 'ready':
        if (this.ready) return;
        // A runtime that learns only from its program whether it takes input mid-run says so here.
        if (m.steer !== undefined) this.steer = !!m.steer;
        this.ready = true;
        this.world.markReady();
        this.flushQueue();
        return;
      case 'reply':
        return this.onReply(m.run_id, m.content, m.state, m.error_kind, m.requeue, m.steers_seen, m.failure);
      case 'cli':
        void this.onCli(m.id, m.argv);
        return;
      case 'time':
        this.send({ type: 'time', id: m.id, sim_time: this.world.clock.text(), epoch: this.world.clock.now() });
        return;
      case 'usage': {
        const { type: _t, run_id: _r, model: _m, ...nums } = m;
        this.world.addUsage(nums);
        return;
      }
      case 'progress':
        return;
      case 'log':
        this.world.log.info(`agent ${this.name}: ${String(m.text).slice(0, 2000)}`);
        return;
      default:
        this.send({ type: 'error', message: `unknown message type ${(m as { type?: unknown }).type}` });
    }
  }

  private onReply(runId: string, content: unknown, state: unknown, errorKind?: unknown, requeue?: unknown, steersSeen?: unknown, failure?: unknown): void {
    if (this.activeRun === null || runId !== this.activeRun) {
      this.send({ type: 'error', message: `reply for ${runId}, but the active run is ${this.activeRun ?? 'none'}` });
      return;
    }
    this.activeRun = null;
    // Steer parts the agent could not take into the run: first in line for the next run, as
    // delivered already (their SMA lines were written when they went out).
    const back = validParts(requeue);
    // …and steers that crossed the reply on the socket (sent after the runtime's last look).
    if (typeof steersSeen === 'number' && steersSeen >= 0) back.push(...this.steersSent.slice(steersSeen).flat());
    this.steersSent = [];
    for (const p of back) this.recorded.add(p);
    if (back.length) this.queue.unshift(...back);
    this.world.agentReply(
      typeof content === 'string' ? content : String(content ?? ''),
      runId,
      state === 'error' ? 'error' : 'final',
      typeof errorKind === 'string' ? errorKind : undefined,
      // reply.failure: the program failed on its own; any object counts, its detail as text
      failure && typeof failure === 'object' ? { detail: String((failure as { detail?: unknown }).detail ?? '') } : undefined,
    );
    this.flushQueue();
    this.world.wake();
  }

  private flushQueue(): void {
    if (!this.ready || this.activeRun || this.queue.length === 0) return;
    this.startRun(this.queue.splice(0));
  }

  private async onCli(id: number | string, argv: unknown): Promise<void> {
    if (!Array.isArray(argv) || argv.some((a) => typeof a !== 'string') || argv.length === 0) {
      this.send({ type: 'error', id, message: 'cli.argv must be a non-empty array of strings' });
      return;
    }
    this.cliInFlight++;
    try {
      const r = await this.world.agentCli(argv as string[]);
      this.send({ type: 'cli_result', id, stdout: r.stdout, stderr: r.stderr, exit_code: r.exitCode });
    } finally {
      this.cliInFlight--;
      this.world.wake();
    }
  }
}
