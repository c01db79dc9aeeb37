// The ACP program of an `--agent acp` run, from its [agent.options] (gaia2-runner acp adapter;
// installed as /opt/gaia2-agent/lib/acp-program.mjs): its command line and its environment,
// ${NAME} filled in here, inside the container, from the launcher's variables — so the key the
// runtime hands the launcher reaches the program without ever being on the host's command line.
// The runner checked the options (runner/src/agents/acp.ts); this only reads them.
import { existsSync, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * ${NAME} → the variable's value ('' when unset); ${NAME%SUFFIX} → the value without SUFFIX at
 * its end, as a shell does (e.g. ${BASE_URL%/v1beta} for a program that adds the version
 * itself); anything else as written.
 */
export function substitute(text, vars) {
  return String(text).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:%([^}]*))?\}/g, (_, name, suffix) => {
    const v = vars[name] ?? '';
    return suffix && v.endsWith(suffix) ? v.slice(0, -suffix.length) : v;
  });
}

/** The env option (NAME=VALUE lines, # comments) as an object, values filled in from `vars`. */
export function envOption(text, vars) {
  const out = {};
  for (const raw of String(text ?? '').split('\n')) {
    const line = raw.trim();
    const eq = line.indexOf('=');
    if (!line || line.startsWith('#') || eq <= 0) continue;
    out[line.slice(0, eq).trim()] = substitute(line.slice(eq + 1), vars);
  }
  return out;
}

/** The options the runner passed (GAIA2_AGENT_OPTIONS), with the package's name and install mode. */
export function acpOptions(env) {
  const o = JSON.parse(env.GAIA2_AGENT_OPTIONS || '{}');
  const spec = String(o.package ?? '');
  const at = spec.lastIndexOf('@');
  return { ...o, packageName: at > 0 ? spec.slice(0, at) : spec, install: o.install || 'pack', toolName: o.tool_name || 'shell' };
}

/** Where the package's own files are: the layer's pkg/ (pack), or pkg/node_modules/<name> (install). */
export const packageDir = (home, o) => (o.install === 'install' ? join(home, 'pkg', 'node_modules', o.packageName) : join(home, 'pkg'));

/** A file a Node program: a .js/.mjs/.cjs name, or a `#!…node` first line. */
function isNodeScript(file) {
  if (/\.[cm]?js$/.test(file)) return true;
  const buf = Buffer.alloc(64);
  const fd = openSync(file, 'r');
  try {
    const n = readSync(fd, buf, 0, 64, 0);
    const head = buf.subarray(0, n).toString('latin1');
    return head.startsWith('#!') && /node/.test(head.split('\n')[0]);
  } finally {
    closeSync(fd);
  }
}

/**
 * The program's first word as a file: a path (relative: in the package), a bin of the package
 * (its package.json), pkg/bin/<word>, node_modules/.bin/<word> (install), else the word as it
 * is (a program on PATH).
 */
export function programFile(word, home, o) {
  const pkg = packageDir(home, o);
  if (word.includes('/')) return isAbsolute(word) ? word : join(pkg, word);
  let bin;
  try {
    bin = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).bin;
  } catch {
    bin = undefined;
  }
  const fromBin = typeof bin === 'string' ? (word === o.packageName.split('/').pop() ? bin : undefined) : bin?.[word];
  const candidates = [fromBin && join(pkg, fromBin), join(pkg, 'bin', word), join(home, 'pkg', 'node_modules', '.bin', word)].filter(Boolean);
  return candidates.find((f) => existsSync(f)) ?? word;
}

/** The command option as spawn's { command, args }: words split on spaces, filled in; a Node script run by `node`. */
export function programCommand(commandLine, vars, home, o, node) {
  const words = String(commandLine).trim().split(/\s+/).map((w) => substitute(w, vars));
  const file = programFile(words[0], home, o);
  if (existsSync(file) && isNodeScript(file)) return { command: node, args: [file, ...words.slice(1)] };
  return { command: file, args: words.slice(1) };
}
