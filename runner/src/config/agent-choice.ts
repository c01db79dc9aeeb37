// Which agent plays, checked against the registry (runner/src/agents): the name, the package
// version of a third-party agent, its [agent.options] and its providers. Every error names the
// option at fault (TOML key or flag) and lists what is allowed.
import { agentRegistry, EXACT_VERSION, LATEST_VERSION, unknownAgentMessage, type AgentAdapter, type AgentRegistry } from '../agents/index.js';
import { ConfigError } from '../plan/errors.js';

export type AgentOptionValue = string | number | boolean;

export interface AgentChoiceNames {
  name: string;
  version: string;
  options: string;
  provider: string;
}

export interface AgentChoice {
  adapter: AgentAdapter | null;
  /** A third-party agent's exact package version, or `latest` (settled in the preflight); null for ours and `external`. */
  version: string | null;
  options: Record<string, AgentOptionValue>;
}

export function resolveAgentChoice(
  name: string,
  a: { version?: string | undefined; options?: Record<string, AgentOptionValue> | undefined; provider?: string | undefined },
  n: AgentChoiceNames,
  registry: AgentRegistry = agentRegistry(),
): AgentChoice {
  if (!registry.names().includes(name)) throw new ConfigError(unknownAgentMessage(name, n.name, registry));
  const registered = registry.find(name);
  const options = a.options ?? {};
  if (!registered) {
    if (a.version) throw new ConfigError(`${n.version} applies to third-party agents only (${n.name} = ${name})`);
    if (Object.keys(options).length && name !== 'external')
      throw new ConfigError(`${n.options} applies to agent layers only (${n.name} = ${name})`);
    return { adapter: null, version: null, options };
  }
  checkOptions(registered, options, name, n.options);
  // An agent whose options name its program (acp): from here on, that program's adapter.
  let adapter = registered;
  if (registered.fromOptions) {
    try {
      adapter = registered.fromOptions(options, n.options);
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
  }
  const version = a.version?.trim() || adapter.package.version;
  if (version !== LATEST_VERSION && !EXACT_VERSION.test(version))
    throw new ConfigError(`${n.version} must be an exact package version such as ${adapter.package.version}, or "${LATEST_VERSION}" (got "${version}")`);
  if (a.provider && !adapter.providers.includes(a.provider))
    throw new ConfigError(`${n.provider} = ${a.provider} is not a provider ${name} speaks; it speaks: ${adapter.providers.join(', ')}`);
  return { adapter, version, options };
}

/** Every option one the adapter knows, of the type it says. */
function checkOptions(adapter: AgentAdapter, options: Record<string, AgentOptionValue>, name: string, field: string): void {
  const known = adapter.options ?? {};
  for (const [k, v] of Object.entries(options)) {
    const spec = known[k];
    if (!spec) {
      const list = Object.keys(known);
      throw new ConfigError(`${field}: ${name} has no option "${k}"${list.length ? `; its options: ${list.join(', ')}` : ' (it takes none)'}`);
    }
    if (typeof v !== spec.type) throw new ConfigError(`${field}: ${name} option "${k}" must be a ${spec.type} (got ${JSON.stringify(v)})`);
  }
}

/** `--agent-option KEY=VALUE` → a value typed as the adapter's option says (strings otherwise). */
export function parseAgentOptionFlags(flags: string[], adapter: AgentAdapter | null): Record<string, AgentOptionValue> {
  const out: Record<string, AgentOptionValue> = {};
  for (const f of flags) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new ConfigError(`--agent-option must be KEY=VALUE (got "${f}")`);
    const key = f.slice(0, eq).trim();
    const raw = f.slice(eq + 1);
    const type = adapter?.options?.[key]?.type;
    if (type === 'number') {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new ConfigError(`--agent-option ${key} must be a number (got "${raw}")`);
      out[key] = n;
    } else if (type === 'boolean') {
      if (!['true', 'false'].includes(raw)) throw new ConfigError(`--agent-option ${key} must be true or false (got "${raw}")`);
      out[key] = raw === 'true';
    } else out[key] = raw;
  }
  return out;
}
