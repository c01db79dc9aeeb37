// Differential test against the reference CLIs: replays every command of the recorded corpus
// (test/fixtures/cli-diff/corpus.jsonl.gz; scripts/cli-diff/record.py regenerates it where
// the reference's Python source is available) against our CLIs in-process and requires the
// same exit code, stdout, last stderr line and events.jsonl lines — or a deliberate difference
// from deliberate.ts (docs/apps.md). CLI_DIFF_REPORT=<file> writes every unexplained one.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPS } from '../../../agent-image/src/apps/catalog.js';
import { MemoryStates } from '../../../agent-image/src/apps/index.js';
import { type CommandRecord, type Outcome, SeedWorld, idCounter, readCorpus } from './cli-diff/corpus.js';
import { DELIBERATE, deliberateRule } from './cli-diff/deliberate.js';

const same = (ref: CommandRecord, ours: Outcome): boolean =>
  ref.code === ours.code && ref.out === ours.out && ref.err === ours.err && JSON.stringify(ref.ev) === JSON.stringify(ours.ev);

describe('CLI differential corpus (reference gaia2-cli vs ours)', () => {
  const { seeds, commands } = readCorpus();

  it('covers at least 10,000 commands of all ten apps', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10_000);
    expect(new Set(commands.map((c) => c.argv[0])).size).toBe(10);
  });

  it('exercises every command with every flag and alias, to success and to failure', () => {
    // No seed has a messages (MessagingAppV2 by name) message with an attachment; chats has.
    const neverSucceeds = new Set(['messages download-attachment']);
    for (const app of APPS) {
      for (const cmd of app.commands.filter((c) => !c.extension)) {
        const key = `${app.cli} ${cmd.name}`;
        const runs = commands.filter((c) => c.argv[0] === app.cli && c.argv[1] === cmd.name);
        const codes = new Set(runs.map((r) => r.code));
        expect(codes.has(1) || codes.has(2), key).toBe(true);
        expect(codes.has(0), key).toBe(!neverSucceeds.has(key));
        const used = new Set(runs.flatMap((r) => r.argv.slice(2).map((a) => a.split('=')[0])));
        for (const flag of cmd.options.flatMap((o) => o.flags)) expect(used.has(flag), `${key} ${flag}`).toBe(true);
      }
    }
  });

  it("through the daemon's app states in memory (MemoryStates, rules checked), every command gives what it gives with the state files", async () => {
    const ids = idCounter();
    const differ: string[] = [];
    for (const seed of seeds) {
      const files = await SeedWorld.create(seed);
      const memory = await SeedWorld.create(seed);
      try {
        for (const rec of commands.filter((c) => c.s === seed.seed)) {
          const a = await files.run(rec, ids);
          const b = await memory.run(rec, ids, new MemoryStates({ verify: true }));
          if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(rec.argv.join(' '));
        }
      } finally {
        files.dispose();
        memory.dispose();
      }
    }
    expect(differ.slice(0, 5)).toEqual([]);
  }, 600_000);

  it('every command behaves like the reference or differs deliberately', async () => {
    const unexplained: Array<{ argv: string[]; seed: string; ref: Omit<CommandRecord, 's' | 'argv'>; ours: Outcome }> = [];
    const used = new Map<string, number>();
    const ids = idCounter();
    for (const seed of seeds) {
      const world = await SeedWorld.create(seed);
      try {
        for (const rec of commands.filter((c) => c.s === seed.seed)) {
          const ours = await world.run(rec, ids);
          if (same(rec, ours)) continue;
          const rule = deliberateRule(rec, ours);
          if (rule) used.set(rule.id, (used.get(rule.id) ?? 0) + 1);
          else {
            const { s: _s, argv, ...ref } = rec;
            unexplained.push({ argv, seed: seed.source, ref, ours });
          }
        }
      } finally {
        world.dispose();
      }
    }
    if (process.env.CLI_DIFF_REPORT) writeFileSync(process.env.CLI_DIFF_REPORT, JSON.stringify({ used: Object.fromEntries(used), unexplained }, null, 1));
    expect(unexplained.slice(0, 5)).toEqual([]);
    expect(unexplained.length).toBe(0);
    // A rule nothing needs any more is stale: drop it (and its docs line).
    for (const rule of DELIBERATE) expect(used.get(rule.id) ?? 0, rule.id).toBeGreaterThan(0);
  }, 600_000);
});
