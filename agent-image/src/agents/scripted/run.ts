// Plays a script over a daemon connection: each run (a delivered message) takes the next
// scripted turn, runs its commands in order as agent actions and replies. Runs beyond the
// script get an empty reply, so the daemon still sees every run end.
import type { DaemonConnection } from '../client.js';
import type { Script } from './script.js';

export interface ScriptedOutcome {
  runs: number;
  commands: number;
  failedCommands: number;
}

export function runScripted(conn: DaemonConnection, script: Script): Promise<ScriptedOutcome> {
  const outcome: ScriptedOutcome = { runs: 0, commands: 0, failedCommands: 0 };
  let chain = Promise.resolve();
  conn.onMessage((m) => {
    if (m.steer) return; // folded into the active run: nothing scripted for it
    chain = chain.then(async () => {
      const turn = script.turns[outcome.runs++];
      for (const argv of turn?.commands ?? []) {
        outcome.commands++;
        try {
          const r = await conn.cli(argv);
          if (r.exit_code !== 0) {
            outcome.failedCommands++;
            conn.log(`command failed (exit ${r.exit_code}): ${argv.join(' ')}: ${r.stderr.trim()}`, 'warn');
          }
        } catch (e) {
          outcome.failedCommands++;
          conn.log(`command not run: ${argv.join(' ')}: ${(e as Error).message}`, 'error');
        }
      }
      conn.reply(m.run_id, turn?.reply ?? '');
    });
  });
  conn.ready();
  return new Promise((resolve) => conn.onShutdown(() => void chain.then(() => resolve(outcome))));
}
