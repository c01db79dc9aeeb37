// The scale bench's large-answer measure (issue Q: "a search returning 5,000 items ≤ 10× a
// search returning 5"): `emails search-emails` matching every inbox email of a universe whose
// INBOX holds 5 emails per factor (universe.ts `inbox`), so 5 hits at 1× and 5,000 at 1,000×.
// Measured in-process (the daemon's whole work for the call: the command, its printed answer,
// its events.jsonl line) and as the agent makes the call: the thin client process against the
// daemon's CLI socket, timed by the calling shell (timed-calls.ts); scale.ts adds the same call
// in the real container.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeWorld } from '../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv } from '../../agent-image/src/world/config.js';
import { hostCalls } from './timed-calls.js';
import { universe } from './universe.js';

export const SEARCH_ALL = ['emails', 'search-emails', '--query', '@', '--folder-name', 'INBOX'] as const;
/** INBOX emails per factor in the search universe. */
export const SEARCH_INBOX = 5;

export interface SearchAnswer {
  /** The universe's scenario text. */
  text: string;
  hits: number;
  /** Bytes of the printed answer. */
  answerBytes: number;
  /** p50 ms of the call through the daemon in-process (WorldDaemon.agentCli, what the CLI socket runs). */
  inProcess: number;
  /** p50 ms of JSON.stringify(answer, null, 2) written to a file: what writing the answer costs at least. */
  writing: number;
  /** p50 ms of the call as a process: the thin client against the daemon's socket, from a shell. */
  process: number;
}

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function searchAnswer(factor: number, n: number): Promise<SearchAnswer> {
  const text = universe(factor, { inbox: SEARCH_INBOX });
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-search-'));
  try {
    const settings = settingsFromEnv({ GAIA2_AGENT: 'scripted', GAIA2_SCRIPT: '[]' });
    const { world } = await composeWorld({ scenario: text, stateDir: dir, settings });
    // The drive's tree (built after boot) is finished by the first emails command; not timed here.
    const first = await world.agentCli(SEARCH_ALL);
    if (first.exitCode !== 0) throw new Error(`search: exit ${first.exitCode}: ${first.stderr}`);
    const hits = JSON.parse(first.stdout) as unknown[];
    const inProcess: number[] = [];
    const writing: number[] = [];
    const file = join(dir, 'answer.json');
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await world.agentCli(SEARCH_ALL);
      inProcess.push(performance.now() - t);
      if (r.stdout.length !== first.stdout.length) throw new Error('search: the answer changed between calls');
      const tw = performance.now();
      writeFileSync(file, JSON.stringify(hits, null, 2));
      writing.push(performance.now() - tw);
    }
    const calls = await hostCalls(world, SEARCH_ALL, n);
    if (calls.length !== n) throw new Error(`search as a process: ${calls.length} of ${n} calls timed`);
    return { text, hits: hits.length, answerBytes: first.stdout.length, inProcess: p50(inProcess), writing: p50(writing), process: p50(calls) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
