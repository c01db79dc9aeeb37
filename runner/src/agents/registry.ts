// Every agent the runner can evaluate, by name: our own runtimes, `external` (the agent layer
// of --image) and one adapter per third-party agent. To add an agent: write
// runner/src/agents/<name>.ts exporting an AgentAdapter and list it in ADAPTERS below.
import { acp } from './acp.js';
import type { AgentAdapter } from './adapter.js';
import { claudeCode } from './claude-code.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import { geminiCli } from './gemini-cli.js';
import { openclaw } from './openclaw.js';
import { opencode } from './opencode.js';
import { qwenCode } from './qwen-code.js';
import { EXTERNAL_AGENT, OWN_AGENTS } from './runtimes.js';

const ADAPTERS: readonly AgentAdapter[] = [acp, claudeCode, cline, codex, geminiCli, openclaw, opencode, qwenCode];

const NAME = /^[a-z0-9][a-z0-9-]*$/;

export interface AgentRegistry {
  /** The adapter of a third-party agent; null for our own runtimes, `external` and unknown names. */
  find(name: string): AgentAdapter | null;
  /** All adapters, sorted by name. */
  adapters(): AgentAdapter[];
  /** Every valid --agent value: ours, the adapters, then `external`. */
  names(): string[];
}

/** A registry of these adapters, checked: names well-formed, unique, not one of ours; providers listed. */
export function createRegistry(list: readonly AgentAdapter[]): AgentRegistry {
  const byName = new Map<string, AgentAdapter>();
  const reserved = new Set<string>([...OWN_AGENTS, EXTERNAL_AGENT]);
  for (const a of list) {
    if (!NAME.test(a.name)) throw new Error(`agent adapter name "${a.name}" must be lower case letters, digits and dashes`);
    if (reserved.has(a.name) || byName.has(a.name)) throw new Error(`agent adapter name "${a.name}" is taken`);
    if (a.providers.length === 0) throw new Error(`agent adapter ${a.name} lists no providers`);
    if (!a.layerDir && !a.launcher) throw new Error(`agent adapter ${a.name} has neither a layer directory nor a launcher`);
    byName.set(a.name, a);
  }
  const sorted = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return {
    find: (name) => byName.get(name) ?? null,
    adapters: () => [...sorted],
    names: () => [...OWN_AGENTS, ...sorted.map((a) => a.name), EXTERNAL_AGENT],
  };
}

let registry: AgentRegistry | null = null;
/** The runner's registry (ADAPTERS above). */
export const agentRegistry = (): AgentRegistry => (registry ??= createRegistry(ADAPTERS));

export const findAdapter = (name: string): AgentAdapter | null => agentRegistry().find(name);

/**
 * The adapter that plays as `name` with these [agent.options]: the registry's, or for an agent
 * whose options name its program (acp) that program's (an Error naming the option at fault).
 */
export function adapterFor(name: string, options: Readonly<Record<string, unknown>>, field = '[agent.options]'): AgentAdapter | null {
  const a = findAdapter(name);
  return a?.fromOptions ? a.fromOptions(options, field) : a;
}
export const listAdapters = (): AgentAdapter[] => agentRegistry().adapters();
export const knownAgentNames = (): string[] => agentRegistry().names();

/** The message for a name that is none of them (the caller wraps it in its own error type). */
export function unknownAgentMessage(name: string, field: string, r: AgentRegistry = agentRegistry()): string {
  return `${field} = "${name}" is not a known agent; known agents: ${r.names().join(', ')}`;
}
