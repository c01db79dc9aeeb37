// The agent layer: where an agent image built FROM the world keeps its program and launcher,
// where the launcher works, and the labels it carries (docs/agents.md, "The launcher contract").

import { ARTIFACT_DIRS } from './paths.js';

export const AGENT_LAYER = {
  /** Everything of the agent layer. */
  home: '/opt/gaia2-agent',
  /** The launcher: one turn of the agent per run. */
  launcher: '/opt/gaia2-agent/bin/agent',
  /** The launcher's working directory, kept across turns. */
  workDir: '/home/agent/work',
  /** Kept across turns: the agent's session id, for resuming it. */
  sessionDir: '/home/agent/.gaia2/session',
  /** Per-turn message files. */
  turnsDir: '/home/agent/.gaia2/turns',
  /** Collected into the run's artifacts as agent-trace/<file> (ARTIFACT_DIRS). */
  traceDir: ARTIFACT_DIRS[0]![0],
} as const;

/** Image labels of an agent layer. */
export const AGENT_LABELS = {
  name: 'gaia2.agent.name',
  version: 'gaia2.agent.version',
  /** Content hash of the world image the layer was built on. */
  world: 'gaia2.agent.world',
} as const;

/** Variables the world's launcher runtime reads (set by the runner or the layer's ENV). */
export const AGENT_LAYER_ENV = {
  name: 'GAIA2_AGENT_NAME',
  version: 'GAIA2_AGENT_VERSION',
  /** [agent.options] as a JSON object. */
  options: 'GAIA2_AGENT_OPTIONS',
  /** Prefix of one variable per option. */
  optionPrefix: 'GAIA2_AGENT_OPT_',
  /** [agent].context_window: the model's context window in tokens, for agents that have such a setting. */
  contextWindow: 'GAIA2_AGENT_CONTEXT_WINDOW',
} as const;
