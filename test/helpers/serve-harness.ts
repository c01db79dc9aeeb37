// An agent layer's bin/agent-serve run on the host as the world's runtime runs it (the serve
// contract, agent-image/src/contract/agent-serve.ts): the layer laid out as the layer build lays
// it out (the kit as lib/, the adapter's layer directory, the real npm package from the agent
// cache as pkg/), the launcher's variables, JSON lines on its stdio. The program talks to a
// provider double on 127.0.0.1. For developing and testing a bridge without an image.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RuntimeToServe, ServeToRuntime } from '@gaia2/contract/agent-serve';
import { KIT_DIR, KIT_LAYER_DIR, type AgentAdapter } from '../../runner/src/agents/index.js';
import { ensureAgentPackage } from '../../runner/src/image/agent-package.js';
import { projectRoot } from '../../runner/src/image/project-root.js';

/** The agent's package from the shared cache (GAIA2_AGENT_CACHE, else the checkout's .cache), fetched once. */
export const agentPackageTree = (a: AgentAdapter): Promise<string> =>
  ensureAgentPackage(a.package, a.package.version, { cacheDir: process.env.GAIA2_AGENT_CACHE || join(projectRoot(), '.cache') });

export interface ServeLayer {
  /** The layer's home (/opt/gaia2-agent in an image). */
  home: string;
  /** The agent user's home (HOME), with work/ and session/ in it. */
  user: string;
  trace: string;
  /** Starts bin/agent-serve (start 1, 2, … as GAIA2_SERVE_START). */
  start(env?: Record<string, string>): ServeProcess;
}

export interface ServeProcess {
  child: ChildProcess;
  /** Every line the program wrote to stdout, parsed, in order. */
  lines: ServeToRuntime[];
  /** When each of `lines` was read (Date.now()). */
  times: number[];
  stderr(): string;
  send(msg: RuntimeToServe): void;
  /** The first line (from `from` on) that `match` accepts; rejects when the program exits first. */
  next<T extends ServeToRuntime['type']>(type: T, match?: (m: Extract<ServeToRuntime, { type: T }>) => boolean, from?: number): Promise<Extract<ServeToRuntime, { type: T }>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Lays out the adapter's layer over its real package; `env` is what every start gets (provider settings). */
export function serveLayer(a: AgentAdapter, pkgTree: string, env: Record<string, string>): ServeLayer {
  if (!a.layerDir) throw new Error(`${a.name} has no layer directory`);
  const root = mkdtempSync(join(tmpdir(), `gaia2-serve-${a.name}-`));
  const home = join(root, 'opt');
  const user = join(root, 'home');
  const trace = join(root, 'trace');
  for (const d of [home, join(user, 'work'), join(user, 'session'), trace]) mkdirSync(d, { recursive: true });
  cpSync(join(projectRoot(), KIT_DIR), join(home, KIT_LAYER_DIR), { recursive: true });
  cpSync(join(projectRoot(), a.layerDir), home, { recursive: true });
  symlinkSync(pkgTree, join(home, 'pkg'));
  let starts = 0;
  return {
    home,
    user,
    trace,
    start(extra = {}) {
      starts += 1;
      const child = spawn(process.execPath, [join(home, 'bin', 'agent-serve')], {
        cwd: join(user, 'work'),
        stdio: ['pipe', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: user,
          USER: 'agent',
          LANG: 'C.UTF-8',
          GAIA2_SESSION_DIR: join(user, 'session'),
          GAIA2_TRACE_DIR: trace,
          GAIA2_WORK_DIR: join(user, 'work'),
          GAIA2_SIM_TIME: '2025-10-09 09:00:00',
          GAIA2_TOOLS: 'shopping,emails',
          GAIA2_APP_AGENTS: '',
          GAIA2_AGENT_NAME: a.name,
          GAIA2_AGENT_VERSION: a.package.version,
          GAIA2_AGENT_HOME: home,
          GAIA2_AGENT_OPTIONS: '{}',
          GAIA2_SERVE_START: String(starts),
          ...env,
          ...extra,
        },
      });
      return watch(child);
    },
  };
}

function watch(child: ChildProcess): ServeProcess {
  const lines: ServeToRuntime[] = [];
  const times: number[] = [];
  const waiters = new Set<() => void>();
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  createInterface({ input: child.stdout! }).on('line', (l) => {
    if (!l.trim()) return;
    lines.push(JSON.parse(l) as ServeToRuntime);
    times.push(Date.now());
    for (const w of waiters) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
      for (const w of waiters) w();
    }),
  );
  return {
    child,
    lines,
    times,
    stderr: () => err,
    exited,
    send: (msg) => void child.stdin!.write(JSON.stringify(msg) + '\n'),
    next(type, match = () => true, from = 0) {
      type M = Extract<ServeToRuntime, { type: typeof type }>;
      return new Promise<M>((resolve, reject) => {
        const look = () => {
          const hit = lines.slice(from).find((m): m is M => m.type === type && match(m as M));
          if (hit) {
            waiters.delete(look);
            resolve(hit);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(look);
            reject(new Error(`agent-serve exited (${child.exitCode ?? child.signalCode}) before a "${type}" line; stderr: ${err.slice(-2000)}`));
          }
        };
        waiters.add(look);
        look();
      });
    },
  };
}

/** A `turn` message as the runtime sends it. */
export const turnMsg = (turn: number, text: string, kind: 'user' | 'notification' = 'user'): RuntimeToServe => ({
  type: 'turn',
  turn,
  kind,
  text,
  parts: [],
  sim_time: '2025-10-09 09:00:00',
});

/** A `steer` message as the runtime sends it. */
export const steerMsg = (turn: number, seq: number, text: string): RuntimeToServe => ({
  type: 'steer',
  turn,
  seq,
  kind: 'user',
  text,
  parts: [],
  sim_time: '2025-10-09 09:00:05',
});
