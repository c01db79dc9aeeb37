// Runs an adapter's bin/agent-serve on the host as the world's runtime does (the serve contract,
// agent-image/src/contract/agent-serve.ts): the layer laid out as the build lays it out (kit as
// lib/, the layer directory, the program under pkg/), the program started with the launcher's
// variables, JSON lines on its stdio. The program under pkg/ is the real one (a link into the
// package cache) or a stand-in.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RuntimeToServe, ServeToRuntime } from '@gaia2/contract/agent-serve';
import { KIT_DIR, KIT_LAYER_DIR, type AgentAdapter } from '../../../runner/src/agents/index.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';

export interface ServeLayer {
  home: string;
  root: string;
  /** $HOME, $GAIA2_SESSION_DIR, $GAIA2_TRACE_DIR, $GAIA2_WORK_DIR of every start. */
  dirs: { user: string; session: string; trace: string; work: string };
  /** Starts bin/agent-serve (GAIA2_SERVE_START = how many starts so far). */
  start(env?: Record<string, string>): Serve;
}

export interface Serve {
  child: ChildProcessWithoutNullStreams;
  /** Everything it said, in order. */
  said: ServeToRuntime[];
  stderr(): string;
  send(msg: RuntimeToServe): void;
  /** Resolves with the first message (from now on, or already said when `since` is given) that matches. */
  next<T extends ServeToRuntime['type']>(type: T, match?: (m: Extract<ServeToRuntime, { type: T }>) => boolean, since?: number): Promise<Extract<ServeToRuntime, { type: T }>>;
  /** Sends a turn and resolves with its reply or failure. */
  turn(turn: number, text: string): Promise<Extract<ServeToRuntime, { type: 'reply' | 'failed' }>>;
  steer(turn: number, seq: number, text: string): void;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/** The layer of `adapter` with `pkg` (a directory whose entries are linked into pkg/). */
export function serveLayer(adapter: AgentAdapter, pkg: string): ServeLayer {
  const root = mkdtempSync(join(tmpdir(), `gaia2-serve-${adapter.name}-`));
  const home = join(root, 'opt');
  const user = join(root, 'home');
  const dirs = { user, session: join(root, 'session'), trace: join(root, 'trace'), work: join(user, 'work') };
  for (const d of [home, ...Object.values(dirs)]) mkdirSync(d, { recursive: true });
  cpSync(join(projectRoot(), KIT_DIR), join(home, KIT_LAYER_DIR), { recursive: true });
  if (adapter.layerDir) cpSync(join(projectRoot(), adapter.layerDir), home, { recursive: true });
  symlinkSync(pkg, join(home, 'pkg'));
  let starts = 0;
  return {
    home,
    root,
    dirs,
    start(env = {}) {
      starts += 1;
      // By this Node: the shebang's /usr/local/bin/node is the world image's, not the host's.
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
          GAIA2_AGENT_HOME: home,
          GAIA2_AGENT_OPTIONS: '{}',
          ...env,
        },
      });
      return driveServe(child);
    },
  };
}

function driveServe(child: ChildProcessWithoutNullStreams): Serve {
  const said: ServeToRuntime[] = [];
  const waiters: Array<{ at: number; test: (m: ServeToRuntime) => boolean; resolve: (m: ServeToRuntime) => void }> = [];
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = JSON.parse(line) as ServeToRuntime;
    said.push(m);
    for (const w of [...waiters]) {
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const send = (msg: RuntimeToServe) => child.stdin.write(JSON.stringify(msg) + '\n');
  const next: Serve['next'] = (type, match = () => true, since) =>
    new Promise((resolve, reject) => {
      const test = (m: ServeToRuntime) => m.type === type && match(m as never);
      const old = since === undefined ? undefined : said.slice(since).find(test);
      if (old) return resolve(old as never);
      waiters.push({ at: said.length, test, resolve: resolve as (m: ServeToRuntime) => void });
      void exited.then((x) => reject(new Error(`agent-serve exited (${JSON.stringify(x)}) before a "${type}"; stderr:\n${err.slice(-2000)}`)));
    });
  const parts = (text: string) => [{ kind: 'user' as const, text }];
  return {
    child,
    said,
    stderr: () => err,
    send,
    next,
    turn(turn, text) {
      const at = said.length;
      send({ type: 'turn', turn, kind: 'user', text, parts: parts(text), sim_time: '2025-10-09 09:00:00' });
      return Promise.race([next('reply', (m) => m.turn === turn, at), next('failed', (m) => m.turn === turn, at)]);
    },
    steer(turn, seq, text) {
      send({ type: 'steer', turn, seq, kind: 'user', text, parts: parts(text), sim_time: '2025-10-09 09:00:00' });
    },
    exited,
  };
}
