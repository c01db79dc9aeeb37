// What both launcher modes share (docs/agents.md): the layout under /home/agent, the contract's
// per-turn variables, and handing the trace directory to the daemon.
import { chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageMsg } from '../../contract/agent-protocol.js';
import type { AGENT_LAYER } from '../../contract/agent-layer.js';

export type Layout = Pick<typeof AGENT_LAYER, 'workDir' | 'sessionDir' | 'turnsDir' | 'traceDir'>;

export interface ExternalRuntimeOptions {
  /** The launcher's fixed environment (provider settings, keys, options, PATH, HOME). */
  env: NodeJS.ProcessEnv;
  /** Heartbeat while a launcher or program works (the daemon's idle timer). */
  heartbeatMs?: number;
}

export interface ExternalOutcome {
  turns: number;
  /** Turns the agent's program failed (its failure text was the reply). */
  failed: number;
}

/**
 * The contract's variables for one turn. `appAgents`: Agent2Agent, the CLIs operated by app
 * agents (only `<cli> expert-agent --task TEXT` for those), so the launcher can say so.
 */
export function turnEnv(
  base: NodeJS.ProcessEnv,
  m: MessageMsg,
  turn: number,
  messageFile: string,
  tools: string[],
  layout: Layout,
  appAgents: readonly string[] = [],
): NodeJS.ProcessEnv {
  return {
    ...base,
    GAIA2_TURN: String(turn),
    GAIA2_MESSAGE_FILE: messageFile,
    GAIA2_MESSAGE_KIND: m.kind,
    GAIA2_SIM_TIME: m.sim_time,
    GAIA2_TOOLS: tools.join(','),
    GAIA2_APP_AGENTS: appAgents.join(','),
    GAIA2_WORK_DIR: layout.workDir,
    GAIA2_SESSION_DIR: layout.sessionDir,
    GAIA2_TRACE_DIR: layout.traceDir,
  };
}

/** The daemon (another user) collects the trace: make what the agent wrote there readable. */
export function shareTrace(dir: string): void {
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    if (!f.isFile()) continue;
    try {
      chmodSync(join(dir, f.name), 0o644);
    } catch {
      /* not ours, or gone */
    }
  }
}
