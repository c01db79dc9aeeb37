// The scale bench's large-answer measure (issue Q: "a search returning 5,000 items ≤ 10× a
// search returning 5"): `emails search-emails` matching every inbox email of a universe whose
// INBOX holds 5 emails per factor (universe.ts `inbox`), so 5 hits at 1× and 5,000 at 1,000×.
// Measured in-process (the daemon's whole work for the call: the command, its printed answer,
// its events.jsonl line) and as the agent makes the call: the thin client process against the
// daemon's CLI socket, timed by the calling shell (timed-calls.ts); scale.ts adds the same call
// in the real container. The universes are measured in alternating rounds (interleaved), so a
// shared machine's changing load falls on each alike and their ratio holds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeWorld } from '../../agent-image/src/main/compose/compose-world.js';
import { settingsFromEnv } from '../../agent-image/src/world/config.js';
import { hostCli, type TimedCli } from './timed-calls.js';
import { universe } from './universe.js';

export const SEARCH_ALL = ['emails', 'search-emails', '--query', '@', '--folder-name', 'INBOX'] as const;
/** INBOX emails per factor in the search universe. */
export const SEARCH_INBOX = 5;
/** The search measure's universe at `factor`. */
export const searchUniverse = (factor: number): string => universe(factor, { inbox: SEARCH_INBOX });

export interface SearchAnswer {
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

export const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ROUND = 2;

/**
 * `n` timed calls of argv per target, in rounds of ROUND calls alternating between the
 * targets, after one untimed call each (a first command may finish the drive's tree); ms per call.
 */
export async function interleaved(targets: readonly TimedCli[], argv: readonly string[], n: number): Promise<number[][]> {
  for (const t of targets) await t.timed(argv, 1);
  const out = targets.map((): number[] => []);
  for (let done = 0; done < n; done += ROUND) {
    for (const [i, t] of targets.entries()) out[i]!.push(...(await t.timed(argv, Math.min(ROUND, n - done))));
  }
  for (const xs of out) if (xs.length !== n) throw new Error(`${argv.join(' ')}: ${xs.length} of ${n} calls timed`);
  return out;
}

/** The search in each factor's universe: in-process, then as processes, each interleaved across the factors. */
export async function searchAnswers(factors: readonly number[], n: number): Promise<SearchAnswer[]> {
  const dirs: string[] = [];
  const clis: TimedCli[] = [];
  try {
    const subjects = [];
    for (const f of factors) {
      const dir = mkdtempSync(join(tmpdir(), 'gaia2-search-'));
      dirs.push(dir);
      const settings = settingsFromEnv({ GAIA2_AGENT: 'scripted', GAIA2_SCRIPT: '[]' });
      const { world } = await composeWorld({ scenario: searchUniverse(f), stateDir: dir, settings });
      const first = await world.agentCli(SEARCH_ALL);
      if (first.exitCode !== 0) throw new Error(`search: exit ${first.exitCode}: ${first.stderr}`);
      const hits = JSON.parse(first.stdout) as unknown[];
      const file = join(dir, 'answer.json');
      // In-process calls, each followed by the answer written with JSON.stringify (timed apart).
      const writing: number[] = [];
      const local: TimedCli = {
        timed: async (argv, k) => {
          const times: number[] = [];
          for (let i = 0; i < k; i++) {
            const t = performance.now();
            const r = await world.agentCli(argv);
            times.push(performance.now() - t);
            if (r.stdout.length !== first.stdout.length) throw new Error('search: the answer changed between calls');
            const tw = performance.now();
            writeFileSync(file, JSON.stringify(hits, null, 2));
            writing.push(performance.now() - tw);
          }
          return times;
        },
        close: async () => {},
      };
      const cli = await hostCli(world, SEARCH_ALL[0]);
      clis.push(cli);
      subjects.push({ hits: hits.length, answerBytes: first.stdout.length, writing, local, cli });
    }
    const inProcess = await interleaved(subjects.map((s) => s.local), SEARCH_ALL, n);
    const processes = await interleaved(subjects.map((s) => s.cli), SEARCH_ALL, n);
    return subjects.map((s, i) => ({
      hits: s.hits,
      answerBytes: s.answerBytes,
      inProcess: p50(inProcess[i]!),
      writing: p50(s.writing.slice(1)), // the first was written after the warm-up call
      process: p50(processes[i]!),
    }));
  } finally {
    for (const c of clis) await c.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
