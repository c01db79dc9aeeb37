// Any agent program that speaks the Agent Client Protocol (ACP: JSON-RPC over stdio, a session,
// one prompt per turn, session/update notifications per step, session/cancel): `--agent acp`,
// the program named by [agent.options] — its npm package and its ACP command line — rather than
// by an adapter of its own. The layer (acp/layer/) runs it through the kit's ACP client and
// bridge like opencode and qwen-code, and keeps its steps (tool calls with their output, the
// agent's messages) as agent-trace/acp-steps.jsonl. The program's own settings (its provider,
// its key variable) come from the `env` option, whose ${NAME} references are filled in inside
// the container from the launcher's variables (BASE_URL, API_KEY, MODEL, …).
import { EXACT_VERSION, type AgentAdapter, type AgentOption } from './adapter.js';

/** The agent's name; the layer of each package is named apart (acpLayerName). */
export const ACP_AGENT = 'acp';

const OPTIONS: Readonly<Record<string, AgentOption>> = {
  package: { type: 'string', description: 'the npm package holding the program, with its exact version (e.g. "opencode-linux-x64@1.18.33"); required' },
  command: { type: 'string', description: 'the program\'s ACP command line, words split on spaces, ${NAME} filled in inside the container (e.g. "opencode acp --pure"); the first word is a bin of the package, a path in it, or a program on PATH; required' },
  env: { type: 'string', description: 'variables for the program, one NAME=VALUE per line, ${NAME} (or ${NAME%SUFFIX}: without SUFFIX at its end) filled in inside the container from the launcher\'s variables (BASE_URL, API_KEY, MODEL, PROVIDER, THINKING, …)' },
  install: { type: 'string', description: '"pack" (the package alone, default) or "install" (with its production dependencies)' },
  auth_method: { type: 'string', description: 'the ACP authenticate method id to call after initialize, for a program that wants one (e.g. "gemini-api-key")' },
  context_file: { type: 'string', description: 'a file name in the working directory where the program reads extra instructions (e.g. AGENTS.md, GEMINI.md): the Gaia2 instructions are written there' },
  tool_name: { type: 'string', description: 'the name of the program\'s shell tool, as the Gaia2 instructions call it', default: 'shell' },
};

/** npm name@version, scoped or not; the version exact (it names the layer and every result). */
const SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(.+)$/;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The env option's lines as NAME → VALUE (blank lines and # comments skipped); throws naming the line at fault. */
export function parseEnvOption(text: string, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const name = eq > 0 ? line.slice(0, eq).trim() : '';
    if (!VAR_NAME.test(name)) throw new Error(`${field}.env line ${i + 1} must be NAME=VALUE with NAME letters, digits and _ (got "${line.slice(0, 80)}")`);
    out[name] = line.slice(eq + 1);
  }
  return out;
}

/** The layer's name for a package: acp-<package>, so each program has its own layer. */
export const acpLayerName = (pkgName: string): string => `acp-${pkgName.replace(/^@/, '').replace(/[^a-z0-9]+/g, '-')}`.slice(0, 60);

/**
 * The adapter of the program the options name, checked: every error names the option at fault
 * (`field` is how the user wrote the table, e.g. "[agent.options]" or "--agent-option").
 */
function fromOptions(options: Readonly<Record<string, unknown>>, field: string): AgentAdapter {
  const str = (k: string): string | undefined => {
    const v = options[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new Error(`${field}: acp option "${k}" must be a string (got ${JSON.stringify(v)})`);
    return v.trim();
  };
  const spec = str('package');
  if (!spec) throw new Error(`${field}: --agent acp needs the option "package", the npm package of the ACP program with its exact version (e.g. package = "opencode-linux-x64@1.18.33")`);
  const m = SPEC.exec(spec);
  if (!m || !EXACT_VERSION.test(m[2]!)) throw new Error(`${field}: acp option "package" must be NAME@VERSION with an exact version such as 1.2.3 (got "${spec}")`);
  const command = str('command');
  if (!command) throw new Error(`${field}: --agent acp needs the option "command", the program's ACP command line (e.g. command = "opencode acp --pure")`);
  const install = str('install') ?? 'pack';
  if (install !== 'pack' && install !== 'install') throw new Error(`${field}: acp option "install" must be "pack" or "install" (got "${install}")`);
  parseEnvOption(str('env') ?? '', field);
  const context = str('context_file');
  if (context !== undefined && (!context || context.includes('/') || context.startsWith('.')))
    throw new Error(`${field}: acp option "context_file" must be a file name in the working directory, such as AGENTS.md (got "${context}")`);
  return { ...acp, package: { name: m[1]!, version: m[2]!, install }, layerName: acpLayerName(m[1]!), summary: `${m[1]} in its ACP mode (${command})` };
}

export const acp: AgentAdapter = {
  name: ACP_AGENT,
  summary: 'any program that speaks the Agent Client Protocol, named by [agent.options] package and command',
  // Stands for no program: fromOptions gives the adapter of the one the options name.
  package: { name: '(the package option)', version: '0.0.0', install: 'pack' },
  providers: ['openai-compat', 'openai', 'anthropic', 'google', 'gemini', 'openrouter'],
  thinking: false,
  layerDir: 'runner/src/agents/acp/layer',
  options: OPTIONS,
  fromOptions,
};
