// The launcher contract's per-turn mode (docs/agents.md, "The launcher contract"): one run of the
// layer's bin/agent per delivered message, one reply per run. A launcher that exits non-zero
// failed the turn on its own: its failure text is the reply, judged like any other. A layer
// whose program pays a start-up on every turn may say so (GAIA2_AGENT_READY_SIGNAL=1): the clock
// is then held from the message until the launcher writes a line on fd 3 ($GAIA2_READY_FD).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonConnection } from '../client.js';
import { launchTurn, type RunningTurn } from './launch-turn.js';
import { shareTrace, turnEnv, type ExternalOutcome, type ExternalRuntimeOptions, type Layout } from './turn-env.js';

export interface PerTurnOptions extends ExternalRuntimeOptions {
  launcher: string;
  layout: Layout;
}

/** The layer's opt-in to the held clock until its launcher's program is ready. */
export const READY_SIGNAL_ENV = 'GAIA2_AGENT_READY_SIGNAL';

export function runPerTurnAgent(conn: DaemonConnection, o: PerTurnOptions): Promise<ExternalOutcome> {
  const { layout } = o;
  for (const d of [layout.workDir, layout.sessionDir, layout.turnsDir, layout.traceDir]) mkdirSync(d, { recursive: true });
  const outcome: ExternalOutcome = { turns: 0, failed: 0 };
  const signalsReady = o.env[READY_SIGNAL_ENV] === '1';
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
      let held = false;
      const release = (): void => {
        if (held) conn.clock(false, `turn ${turn}: launcher ready`);
        held = false;
      };
      if (signalsReady) {
        conn.clock(true, `turn ${turn}: launcher starting`);
        held = true;
      }
      running = launchTurn({
        launcher: o.launcher,
        cwd: layout.workDir,
        env,
        message: m.text,
        stderrLog: join(layout.traceDir, `turn-${turn}.stderr.log`),
        ...(signalsReady ? { onReady: release } : {}),
      });
      const beat = setInterval(() => conn.progress(`turn ${turn}: launcher running`, m.run_id), o.heartbeatMs ?? 30_000);
      const r = await running.done.finally(() => {
        clearInterval(beat);
        release();
      });
      running = null;
      shareTrace(layout.traceDir);
      if (r.exitCode === 0) {
        conn.reply(m.run_id, r.reply);
        return;
      }
      outcome.failed++;
      const why = r.lastStderrLine ? `: ${r.lastStderrLine}` : '';
      conn.log(`turn ${turn}: launcher exited with code ${r.exitCode}${why}`, 'error');
      // The program's own error, as it reported it on stderr (the reference's images send an
      // agent's failure text to the user the same way).
      const text = r.lastStderrLine ? `Error: ${r.lastStderrLine}` : `Error: the agent failed (launcher exit code ${r.exitCode})`;
      conn.reply(m.run_id, text, 'final', undefined, { failure: { detail: `launcher exit code ${r.exitCode}${why}` } });
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
