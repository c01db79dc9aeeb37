// Runs an adapter's launcher on the host as the world's runtime would (docs/agents.md, "The
// launcher contract"), with a stand-in for the agent program at the path the launcher calls:
// the stand-in records its argv, environment and stdin, and answers like the real program.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KIT_DIR, KIT_LAYER_DIR, type AgentAdapter } from '../../../runner/src/agents/index.js';
import { projectRoot } from '../../../runner/src/image/project-root.js';

export interface Layer {
  home: string;
  root: string;
  /** Runs one turn; returns exit code, stdout (the reply) and stderr. */
  turn(message: string, env?: Record<string, string>): { code: number; reply: string; stderr: string };
  /** What the stand-in saw on its last run. */
  seen(): { argv: string[]; env: Record<string, string>; stdin: string };
  file(rel: string): string;
}

/**
 * Lays out the adapter's layer (launcher + files) and the stand-in program at `program`
 * (relative to pkg/). `answer` is the stand-in's body: bash when `program` has no .js/.mjs
 * ending, else Node; it runs after the recording and may read $STANDIN_ARGV.
 */
export function layerWith(adapter: AgentAdapter, program: string, answer: string): Layer {
  const root = mkdtempSync(join(tmpdir(), `gaia2-launcher-${adapter.name}-`));
  const home = join(root, 'opt');
  const user = join(root, 'home');
  for (const d of [join(home, 'bin'), join(user, 'work'), join(user, 'session'), join(user, 'turns'), join(root, 'trace')]) mkdirSync(d, { recursive: true });
  // As the layer build lays it out (image/agent-layer.ts, layerFiles): the kit, the layer directory, the inline launcher.
  cpSync(join(projectRoot(), KIT_DIR), join(home, KIT_LAYER_DIR), { recursive: true });
  if (adapter.layerDir) cpSync(join(projectRoot(), adapter.layerDir), home, { recursive: true });
  if (adapter.launcher) writeFileSync(join(home, 'bin', 'agent'), adapter.launcher, { mode: 0o755 });
  for (const [rel, content] of Object.entries(adapter.files ?? {})) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), content);
  }
  const seenFile = join(root, 'seen.json');
  const target = join(home, 'pkg', program);
  mkdirSync(dirname(target), { recursive: true });
  // `node -e CODE -- args` has the args from argv[1]; a script has them from argv[2].
  const record = (from: number) =>
    `const fs = require('fs');` +
    `fs.writeFileSync(${JSON.stringify(seenFile)}, JSON.stringify({ argv: process.argv.slice(${from}), env: process.env, stdin: (() => { try { return fs.readFileSync(0, 'utf8'); } catch { return ''; } })() }));`;
  if (/\.m?js$/.test(program)) {
    writeFileSync(target, `${program.endsWith('.mjs') ? "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n" : ''}${record(2)}\n${answer}\n`);
  } else {
    writeFileSync(target, `#!/bin/bash\nnode -e ${JSON.stringify(record(1)).replace(/\$/g, '\\$')} -- "$@"\nSTANDIN_ARGV="$*"\n${answer}\n`);
    chmodSync(target, 0o755);
  }
  let turns = 0;
  return {
    home,
    root,
    turn(message, env = {}) {
      turns += 1;
      const messageFile = join(user, 'turns', `turn-${turns}.txt`);
      writeFileSync(messageFile, message);
      const r = spawnSync(join(home, 'bin', 'agent'), [], {
        cwd: join(user, 'work'),
        input: message,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          HOME: user,
          USER: 'agent',
          LANG: 'C.UTF-8',
          GAIA2_TURN: String(turns),
          GAIA2_MESSAGE_FILE: messageFile,
          GAIA2_MESSAGE_KIND: 'user',
          GAIA2_SESSION_DIR: join(user, 'session'),
          GAIA2_TRACE_DIR: join(root, 'trace'),
          GAIA2_WORK_DIR: join(user, 'work'),
          GAIA2_SIM_TIME: '2025-10-09 09:00:00',
          GAIA2_TOOLS: 'shopping,emails',
          GAIA2_AGENT_HOME: home,
          GAIA2_AGENT_OPTIONS: '{}',
          ...env,
        },
      });
      return { code: r.status ?? -1, reply: r.stdout, stderr: r.stderr };
    },
    seen() {
      if (!existsSync(seenFile)) throw new Error('the stand-in program never ran');
      return JSON.parse(readFileSync(seenFile, 'utf8'));
    },
    file: (rel) => readFileSync(join(root, rel), 'utf8'),
  };
}
