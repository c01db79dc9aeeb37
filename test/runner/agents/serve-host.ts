// An adapter's bin/agent-serve run on the host the way the world's launcher runtime runs it (the
// serve contract, agent-image/src/contract/agent-serve.ts): the layer laid out as the build lays
// it out (the kit as lib/, the layer directory, the package under pkg/), the launcher's
// variables, JSON lines on its stdio. `pkg` is the real package (from the agent cache) or a
// directory holding a stand-in at the program's path.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RuntimeToServe, ServeToRuntime } from '@gaia2/contract/agent-serve';
import { KIT_DIR, KIT_LAYER_DIR, type AgentAdapter } from '../../../runner/src/agents/index.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';

type Said<T extends ServeToRuntime['type']> = Extract<ServeToRuntime, { type: T }>;

export interface ServeRun {
  child: ChildProcessWithoutNullStreams;
  /** Every message it sent, in order. */
  said: ServeToRuntime[];
  stderr(): string;
  send(msg: RuntimeToServe): void;
  /** The first message of `type` (matching `match`) at or after index `from` of `said`, when it comes. */
  next<T extends ServeToRuntime['type']>(type: T, match?: (m: Said<T>) => boolean, from?: number): Promise<Said<T>>;
  /** Sends turn `n` and resolves with its reply or failure. */
  turn(n: number, text: string): Promise<Said<'reply'> | Said<'failed'>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServeHost {
  /** The layer's home (GAIA2_AGENT_HOME). */
  home: string;
  /** $HOME, and the session, trace and work directories every start shares. */
  dirs: { user: string; session: string; trace: string; work: string };
  /** Starts bin/agent-serve once more (GAIA2_SERVE_START counts the starts). */
  start(env?: Record<string, string>): ServeRun;
}

export function serveHost(adapter: AgentAdapter, pkg: string, baseEnv: Record<string, string> = {}): ServeHost {
  const root = mkdtempSync(join(tmpdir(), `gaia2-serve-${adapter.name}-`));
  const home = join(root, 'opt');
  const user = join(root, 'home');
  const dirs = { user, session: join(root, 'session'), trace: join(root, 'trace'), work: join(user, 'work') };
  for (const d of [home, ...Object.values(dirs)]) mkdirSync(d, { recursive: true });
  cpSync(join(projectRoot(), KIT_DIR), join(home, KIT_LAYER_DIR), { recursive: true });
  if (!adapter.layerDir) throw new Error(`${adapter.name} has no layer directory`);
  cpSync(join(projectRoot(), adapter.layerDir), home, { recursive: true });
  symlinkSync(pkg, join(home, 'pkg'));
  let starts = 0;
  return {
    home,
    dirs,
    start(env = {}) {
      starts += 1;
      // The shebang names the world image's Node; here the host's runs it.
      const child = spawn(process.execPath, [join(home, 'bin', 'agent-serve')], {
        cwd: dirs.work,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: user,
          USER: 'agent',
          LANG: 'C.UTF-8',
          GAIA2_SERVE_START: String(starts),
          GAIA2_SESSION_DIR: dirs.session,
          GAIA2_TRACE_DIR: dirs.trace,
          GAIA2_WORK_DIR: dirs.work,
          GAIA2_SIM_TIME: '2025-10-09 09:00:00',
          GAIA2_TOOLS: 'shopping,emails',
          GAIA2_AGENT_NAME: adapter.name,
          GAIA2_AGENT_VERSION: adapter.package.version,
          GAIA2_AGENT_HOME: home,
          GAIA2_AGENT_OPTIONS: '{}',
          ...baseEnv,
          ...env,
        },
      });
      return running(child);
    },
  };
}

function running(child: ChildProcessWithoutNullStreams): ServeRun {
  const said: ServeToRuntime[] = [];
  const waiters: Array<() => void> = [];
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  createInterface({ input: child.stdout }).on('line', (l) => {
    if (!l.trim()) return;
    said.push(JSON.parse(l) as ServeToRuntime);
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => {
    resolve({ code, signal });
    for (const w of waiters.splice(0)) w();
  }));
  let done = false;
  void exited.then(() => (done = true));
  // `also`: further types that match too (a turn ends with a reply or a failure).
  const next = <T extends ServeToRuntime['type']>(type: T, match: (m: Said<T>) => boolean = () => true, from = 0, also: ServeToRuntime['type'][] = []): Promise<Said<T>> =>
    new Promise((resolve, reject) => {
      const look = () => {
        const m = said.slice(from).find((x): x is Said<T> => (x.type === type || also.includes(x.type)) && match(x as Said<T>));
        if (m) return resolve(m);
        if (done || child.exitCode !== null || child.signalCode !== null) return reject(new Error(`agent-serve exited before saying ${type}; stderr:\n${err.slice(-3000)}`));
        waiters.push(look);
      };
      look();
    });
  const send = (msg: RuntimeToServe) => child.stdin.write(JSON.stringify(msg) + '\n');
  return {
    child,
    said,
    stderr: () => err,
    send,
    next,
    async turn(n, text) {
      const from = said.length;
      send({ type: 'turn', turn: n, kind: 'user', text, parts: [], sim_time: '2025-10-09 09:00:00' });
      return next('reply', (x) => x.turn === n, from, ['failed']) as Promise<Said<'reply'> | Said<'failed'>>;
    },
    exited,
  };
}
