// Stuck loops through a real container, as a user runs them (the CLI in a child process): a
// scripted agent that asks for its cart thousands of times in a row, always getting the same
// cart, is stopped by the runner's live watch of events.jsonl (--stuck-loop-min-tool-calls 5)
// long before its script ends, and the run is a judged failure with the reason — in result.json,
// the report and the viewer's pages.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventLine, ScenarioResult } from '@gaia2/contract';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { runCli } from './helpers/cli.js';
import { eachEngine } from './helpers/engines.js';
import { onlyFile } from './helpers/run-dir.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
/** Far more calls than the watch needs to notice 5: the agent must still be looping when stopped. */
const REPEATS = 3000;
const THRESHOLD = 5;

describe.each(eachEngine())('a looping agent on %s', (_kind, e2e) => {
  let work: string;
  let cli: { code: number; out: string; err: string };
  let result: ScenarioResult;
  let events: EventLine[];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'gaia2-e2e-stuck-'));
    mkdirSync(join(work, 'data', 'execution'), { recursive: true });
    cpSync(join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json'), join(work, 'data', 'execution', 'exec_shopping_bottle_order.json'));
    const loop = Array.from({ length: REPEATS }, () => ['shopping', 'list-cart']);
    writeFileSync(join(work, 'loop.json'), JSON.stringify([{ commands: loop, reply: 'I checked the cart.' }]));
    cli = await runCli(e2e, [
      'run-dataset', '-d', join(work, 'data'), '-i', image, '--agent', 'scripted', '--script', join(work, 'loop.json'),
      '--stuck-loop-min-tool-calls', String(THRESHOLD), '--timeout', '300', '--health-timeout', '90', '--output-dir', join(work, 'out'),
    ]);
    const out = join(work, 'out');
    result = JSON.parse(onlyFile(out, 'result.json')) as ScenarioResult;
    events = onlyFile(out, 'events.jsonl').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as EventLine);
  }, 600_000);

  it('ends early, as a judged failure (not an error) whose reason names the repeated call', () => {
    expect(cli.code, cli.err).toBe(0); // every run judged
    expect(result).toMatchObject({ status: 'fail', success: false, reward: 0 });
    expect(result.error_kind).toBeUndefined();
    const loop = result.stuck_loop as { tool: string; args: unknown; count: number; min_tool_calls: number; line: number };
    expect(loop).toMatchObject({ tool: 'ShoppingApp__list_cart', args: {}, min_tool_calls: THRESHOLD });
    expect(result.failure_reasons?.[0]).toMatch(new RegExp(`^Stuck loop: the agent called ShoppingApp__list_cart ${loop.count} times in a row .*stuck_loop_min_tool_calls = ${THRESHOLD}`));
    // Stopped mid-script: the agent never got to its reply, and far fewer calls were made.
    const calls = events.filter((e) => e.app === 'ShoppingApp' && e.fn === 'list_cart');
    expect(calls.length).toBeGreaterThanOrEqual(THRESHOLD);
    expect(calls.length).toBeLessThan(REPEATS);
    expect(loop.count).toBe(calls.length);
    expect(events.some((e) => e.fn === 'send_message_to_user')).toBe(false);
    expect(result.agent_response ?? null).toBeNull();
    // The threshold was reached at the log's fifth list_cart line.
    let seen = 0;
    expect(loop.line).toBe(events.findIndex((e) => e.fn === 'list_cart' && ++seen === THRESHOLD) + 1);
    expect((result.daemon_status as { status?: string } | undefined)?.status).not.toBe('complete');
  });

  it('is counted by the report as a failure in the rate, beside failed, and printed with the run', () => {
    const report = JSON.parse(readFileSync(join(work, 'out', 'report.json'), 'utf8'));
    expect(report.overall).toMatchObject({ runs: 1, judged: 1, passed: 0, failed: 1, errors: 0, stuck_loops: 1, success_rate: 0 });
    expect(readFileSync(join(work, 'out', 'report.md'), 'utf8')).toContain('1 (1 stuck loop)');
    expect(cli.out).toContain('1 (1 stuck loop) failed');
  });

  it("shows the reason in the viewer's pages", () => {
    const index = readFileSync(join(work, 'out', 'index.html'), 'utf8');
    expect(index).toContain('"stuckLoop":true');
    expect(index).toContain('Stuck loop: the agent called ShoppingApp__list_cart');
    expect(onlyFile(join(work, 'out'), 'trace.html')).toMatch(/"stuckLoop":\{"tool":"ShoppingApp__list_cart"/);
  });
});
