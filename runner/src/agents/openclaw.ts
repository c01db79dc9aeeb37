// OpenClaw, the real program, as the reference's OpenClaw image runs it: the openclaw package
// from npm with its dependencies, one gateway per container kept up for the whole scenario run,
// every message a `chat.send` over the gateway's WebSocket (docs/agents.md "OpenClaw"). The
// program is the layer directory's bin/agent-serve; the reference's configuration values are in
// its lib/openclaw-config.mjs. The default is the newest release (it wants Node ≥ 24.16: the layer
// brings that Node); `--agent-version 2026.4.1` runs the reference's pin on the world's Node 22.
import type { AgentAdapter } from './adapter.js';

export const openclaw: AgentAdapter = {
  name: 'openclaw',
  summary: "OpenClaw's gateway kept up for the scenario (as the reference runs it), exec as its only tool",
  package: {
    name: 'openclaw',
    version: '2026.9.6',
    install: 'install',
  },
  providers: ['anthropic', 'openai', 'openai-compat', 'google', 'openrouter'],
  thinking: true,
  contextWindow: true,
  layerDir: 'runner/src/agents/openclaw/layer',
  options: {
    queue_mode: {
      description: 'what OpenClaw does with a message that arrives during a run (messages.queue.mode): steer, followup, collect, steer-backlog, interrupt or queue',
      type: 'string',
      default: 'steer',
    },
  },
};

/** The release the reference's OpenClaw image pins (gaia2-cli/containers/openclaw/Dockerfile). */
export const OPENCLAW_REFERENCE_VERSION = '2026.4.1';
