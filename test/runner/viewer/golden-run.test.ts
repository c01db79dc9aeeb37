// A scenario run assembled from the golden corpus (real scenario JSON, a recorded agent log
// and the reference judge's per-turn records): task, turn verdicts and oracle comparison.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildViewer } from '../../../runner/src/viewer/index.js';

const GOLDEN = resolve('test/fixtures/golden');
const CASE = 'turn1_reply_before_add';
let dir: string;
let data: any;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-golden-'));
  const line = readFileSync(join(GOLDEN, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((c) => c.case === CASE && c.scenario.includes('exec_messages_hike_group'));
  const sdir = join(dir, 'execution', 'exec_messages_hike_group');
  mkdirSync(sdir, { recursive: true });
  copyFileSync(join(GOLDEN, line.events), join(sdir, 'events.jsonl'));
  writeFileSync(join(sdir, 'daemon_judgments.jsonl'), line.expected.turns.map((t: unknown) => JSON.stringify(t)).join('\n') + '\n');
  writeFileSync(join(sdir, 'daemon_status.json'), JSON.stringify({ status: line.expected.status, turn: 2, nb_turns: line.expected.nb_turns, num_events: 5, judgment: { success: false, failure_reason: line.expected.failure_reason } }));
  writeFileSync(
    join(sdir, 'result.json'),
    JSON.stringify({ scenario_id: 'exec_messages_hike_group', success: false, status: 'fail', failure_reasons: [line.expected.failure_reason], scenario_file: join(GOLDEN, line.scenario), split: 'execution' }),
  );
  await buildViewer(dir);
  const html = readFileSync(join(sdir, 'trace.html'), 'utf8');
  data = JSON.parse(/id="page-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('golden scenario run', () => {
  it('shows the task from the scenario file first and lists the oracle events', () => {
    expect(data.items[0].k).toBe('task');
    expect(data.items[0].text.length).toBeGreaterThan(10);
    expect(data.oracle.map((o: any) => o.tool)).toContain('MessagingAppV2__add_participant_to_conversation');
    expect(data.row).toMatchObject({ status: 'fail', split: 'execution', turn: '2/2' });
  });

  it('places each turn verdict after that turn\'s reply, with oracle arguments from the scenario', () => {
    const kinds = data.items.map((i: any) => (i.k === 'event' ? `${i.k}:${i.kind}` : i.k));
    const replies = kinds.flatMap((k: string, i: number) => (k === 'event:reply' ? [i] : []));
    expect(replies).toHaveLength(2);
    expect(data.items[replies[0] + 1]).toMatchObject({ k: 'verdict', turn: 0, success: true });
    expect(data.items[replies[1] + 1]).toMatchObject({ k: 'verdict', turn: 1, success: false });
    const turn0 = data.items[replies[0] + 1];
    const create = turn0.comparisons.find((c: any) => c.oracleTool === 'MessagingAppV2__create_group_conversation');
    expect(create.matched).toBe(true);
    expect(create.oracleArgs.title).toBe('Saturday hike');
    expect(Array.isArray(create.oracleArgs.user_ids)).toBe(true); // list values decoded from the scenario's JSON strings
    expect(data.items[replies[1] + 1].reason).toContain('Tool count mismatch');
    // the reference's records carry no agent events: the agent side comes from events.jsonl
    expect(create.agentTool).toBe('MessagingAppV2__create_group_conversation');
    expect(create.agentArgs.title).toBe('Saturday hike');
  });
});
