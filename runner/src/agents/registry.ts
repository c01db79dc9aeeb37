// Every agent the runner can evaluate, by name: our own runtimes, `external` (the agent layer
// of --image) and one adapter per third-party agent. To add an agent: write
// runner/src/agents/<name>.ts exporting an AgentAdapter and list it in ADAPTERS below.
import type { AgentAdapter } from './adapter.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { geminiCli } from './gemini-cli.js';
import { EXTERNAL_AGENT, OWN_AGENTS } from './runtimes.js';

const ADAPTERS: readonly AgentAdapter[] = [claudeCode, codex, geminiCli];

const NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Checks the adapters once: names well-formed, unique, and not one of ours. */
export function checkAdapters(list: readonly AgentAdapter[]): Map<string, AgentAdapter> {
  const byName = new Map<string, AgentAdapter>();
  const reserved = new Set<string>([...OWN_AGENTS, EXTERNAL_AGENT]);
  for (const a of list) {
    if (!NAME.test(a.name)) throw new Error(`agent adapter name "${a.name}" must be lower case letters, digits and dashes`);
    if (reserved.has(a.name) || byName.has(a.name)) throw new Error(`agent adapter name "${a.name}" is taken`);
    if (a.providers.length === 0) throw new Error(`agent adapter ${a.name} lists no providers`);
    byName.set(a.name, a);
  }
  return byName;
}

let registry: Map<string, AgentAdapter> | null = null;
const adapters = (): Map<string, AgentAdapter> => (registry ??= checkAdapters(ADAPTERS));

/** The adapter of a third-party agent; null for our own runtimes, `external` and unknown names. */
export function findAdapter(name: string): AgentAdapter | null {
  return adapters().get(name) ?? null;
}

/** All registered adapters, by name. */
export function listAdapters(): AgentAdapter[] {
  return [...adapters().values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Every valid --agent value: ours, the adapters, then `external`. */
export function knownAgentNames(): string[] {
  return [...OWN_AGENTS, ...listAdapters().map((a) => a.name), EXTERNAL_AGENT];
}

/** The message for a name that is none of them (the caller wraps it in its own error type). */
export function unknownAgentMessage(name: string, field: string): string {
  return `${field} = "${name}" is not a known agent; known agents: ${knownAgentNames().join(', ')}`;
}

export function isKnownAgent(name: string): boolean {
  return knownAgentNames().includes(name);
}
