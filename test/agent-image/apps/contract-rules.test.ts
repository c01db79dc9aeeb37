// The app CLI contract on our own data (test/fixtures/cli-rules/own-data.json, outputs recorded
// from the reference CLIs): each step names the rule it pins (docs/apps.md) — the events line
// for commands fired with GAIA2_EVENT_ID (event_id between ret and sim_t; none when empty;
// nothing logged on failure), Click's usage errors with "Did you mean" suggestions (exit 2),
// lists that come from Python sets (tags, participant_ids), output and option conventions.
// Every step must match byte for byte: stdout, stderr, exit code and the logged lines.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initWorld, runCli } from '../../../agent-image/src/apps/index.js';
import { formatEventLine, parsePyJson } from '../../../agent-image/src/contract/pyjson.js';

interface RuleStep {
  rule: string;
  argv: string[];
  env?: { GAIA2_EVENT_ID?: string };
  exit_code: number;
  stdout: string;
  stderr: string;
  events: string[];
}
interface RuleFixture {
  apps: Array<{ name: string; class_name: string; app_state: unknown }>;
  clock: string;
  steps: RuleStep[];
}

const fixture = parsePyJson(readFileSync(join(import.meta.dirname, '../../fixtures/cli-rules/own-data.json'), 'utf8')) as RuleFixture;

describe('app CLI contract rules on our own data', async () => {
  const stateDir = join(mkdtempSync(join(tmpdir(), 'gaia2-cli-rules-')), 'state');
  await initWorld({ apps: fixture.apps }, stateDir, {});
  // Steps share one state dir, in order, like a session.
  const results = new Map<number, Awaited<ReturnType<typeof runCli>>>();
  const run = async (i: number) => {
    if (!results.has(i)) {
      for (let k = results.size; k <= i; k++) {
        const step = fixture.steps[k]!;
        let n = 0;
        const base = (k + 1) * 1000; // the ids the recording used
        const ids = () => `feed${(base + ++n).toString(16).padStart(28, '0')}`;
        results.set(k, await runCli(step.argv, { stateDir, simTime: fixture.clock, eventId: step.env?.GAIA2_EVENT_ID, ids }));
      }
    }
    return results.get(i)!;
  };

  for (const [i, step] of fixture.steps.entries()) {
    it(`${i}: ${step.rule} — ${step.argv.join(' ')}`, async () => {
      const r = await run(i);
      expect(r.exitCode).toBe(step.exit_code);
      expect(r.stdout.split(stateDir).join('<STATE_DIR>')).toBe(step.stdout);
      expect(r.stderr.split(stateDir).join('<STATE_DIR>').trimEnd()).toBe(step.stderr);
      expect(r.events.map((e) => formatEventLine(e))).toEqual(step.events);
    });
  }

  it('the fixture exercises every rule the header names', () => {
    const withId = fixture.steps.filter((s) => s.env?.GAIA2_EVENT_ID);
    expect(withId.some((s) => s.events.some((l) => l.includes(`"event_id": "${s.env!.GAIA2_EVENT_ID}", "sim_t"`)))).toBe(true);
    expect(fixture.steps.some((s) => s.env?.GAIA2_EVENT_ID === '' && s.events.length === 1 && !s.events[0]!.includes('event_id'))).toBe(true);
    expect(withId.some((s) => s.exit_code === 1 && s.events.length === 0)).toBe(true);
    expect(fixture.steps.some((s) => s.exit_code === 2 && / Did you mean '--[a-z-]+'\?$/.test(s.stderr))).toBe(true);
    expect(fixture.steps.some((s) => s.exit_code === 2 && /\(Did you mean one of: .*\?\)$/.test(s.stderr))).toBe(true);
    expect(fixture.steps.filter((s) => s.argv[1] === 'get-all-tags')).toHaveLength(3);
    // All ten app CLIs, each with at least one success and one usage error (exit 2).
    const apps = ['calendar', 'contacts', 'emails', 'messages', 'chats', 'rent-a-flat', 'city', 'cabs', 'shopping', 'cloud-drive'];
    for (const app of apps) {
      const own = fixture.steps.filter((s) => s.argv[0] === app);
      expect(own.some((s) => s.exit_code === 0), app).toBe(true);
      expect(own.some((s) => s.exit_code === 2), app).toBe(true);
    }
  });
});
