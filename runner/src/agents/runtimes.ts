// Agents of our own (no layer: they are part of the world image) and the name of a layer
// image that brings its own launcher. Shared by the registry and the plan.

/** Our runtimes, in the world image itself. */
export const OWN_AGENTS = ['oracle', 'default', 'scripted'] as const;
export type OwnAgent = (typeof OWN_AGENTS)[number];

/** `--agent external`: the agent layer of --image (bring your own, docs/agents.md). */
export const EXTERNAL_AGENT = 'external';

/** GAIA2_AGENT value that makes the world run an agent layer's launcher. */
export const LAUNCHER_RUNTIME = 'external';

export const isOwnAgent = (name: string): name is OwnAgent => (OWN_AGENTS as readonly string[]).includes(name);

/** GAIA2_AGENT for an agent: ours by name, everything else runs its layer's launcher. */
export const agentRuntime = (name: string): string => (isOwnAgent(name) ? name : LAUNCHER_RUNTIME);
