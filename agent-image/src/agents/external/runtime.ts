// The world's runtime for an agent layer (GAIA2_AGENT=external): one launcher run per message
// the daemon delivers, one reply per run (docs/agents.md, "The launcher contract").
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonConnection } from '../client.js';
import type { MessageMsg } from '../../contract/agent-protocol.js';
import { AGENT_LAYER } from '../../contract/agent-layer.js';
import { launchTurn, type RunningTurn } from './launch-turn.js';

export interface ExternalRuntimeOptions {
  /** The launcher's fixed environment (provider settings, keys, options, PATH, HOME). */
  env: NodeJS.ProcessEnv;
  launcher?: string;
  layout?: Pick<typeof AGENT_LAYER, 'workDir' | 'sessionDir' | 'turnsDir' | 'traceDir'>;
  /** Heartbeat while a launcher runs (the daemon's idle timer). */
  heartbeatMs?: number;
}

export interface ExternalOutcome {
  turns: number;
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
  layout: NonNullable<ExternalRuntimeOptions['layout']>,
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
function shareTrace(dir: string): void {
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    if (!f.isFile()) continue;
    try {
      chmodSync(join(dir, f.name), 0o644);
    } catch {
      /* not ours, or gone */
    }
  }
}

export function runExternalAgent(conn: DaemonConnection, o: ExternalRuntimeOptions): Promise<ExternalOutcome> {
  const layout = o.layout ?? AGENT_LAYER;
  const launcher = o.launcher ?? AGENT_LAYER.launcher;
  for (const d of [layout.workDir, layout.sessionDir, layout.turnsDir, layout.traceDir]) mkdirSync(d, { recursive: true });
  const outcome: ExternalOutcome = { turns: 0, failed: 0 };
  let running: RunningTurn | null = null;
  let stopped = false;
  let chain = Promise.resolve();
  conn.onMessage((m) => {
    chain = chain.then(async () => {
      if (stopped) return;
      const turn = ++outcome.turns;
      const messageFile = join(layout.turnsDir, `turn-${turn}.txt`);
      writeFileSync(messageFile, m.text);
      const env = turnEnv(o.env, m, turn, messageFile, conn.welcome.tools, layout, conn.welcome.app_agents);
      running = launchTurn({ launcher, cwd: layout.workDir, env, message: m.text, stderrLog: join(layout.traceDir, `turn-${turn}.stderr.log`) });
      const beat = setInterval(() => conn.progress(`turn ${turn}: launcher running`, m.run_id), o.heartbeatMs ?? 30_000);
      const r = await running.done.finally(() => clearInterval(beat));
      running = null;
      shareTrace(layout.traceDir);
      if (r.exitCode === 0) conn.reply(m.run_id, r.reply);
      else {
        outcome.failed++;
        const why = r.lastStderrLine ? `: ${r.lastStderrLine}` : '';
        conn.log(`turn ${turn}: launcher exited with code ${r.exitCode}${why}`, 'error');
        conn.reply(m.run_id, `Error: the agent failed (launcher exit code ${r.exitCode})${why}`, 'error', 'agent_error');
      }
    });
  });
  conn.ready();
  return new Promise((resolve) =>
    conn.onShutdown(() => {
      stopped = true;
      (running as RunningTurn | null)?.stop();
      void chain.then(() => resolve(outcome));
    }),
  );
}
