// The bring-your-own contract proven in real containers: examples/agents/shell-agent (a bash
// launcher FROM the world image) is built and run through the CLI as a user would
// (`--image … --agent external`), on every e2e engine. It passes samples (one of them
// multi-turn, resumed from its session directory); a launcher that only talks fails; a message
// it has no rule for is a failed turn, judged with its failure text; its name and version are
// recorded.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { connectE2eEngine, eachEngine } from '../helpers/engines.js';
import { runCli as cli } from '../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const suffix = world.split(':').pop() ?? 'latest';
const SAMPLES = ['execution/exec_messages_hike_group.json', 'search/search_email_flight_code.json'];

function dataset(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-data-'));
  for (const f of files) {
    mkdirSync(join(dir, f.split('/')[0]!), { recursive: true });
    cpSync(join(root, 'examples/scenarios', f), join(dir, f));
  }
  return dir;
}

const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
const results = (out: string) => readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe.each(eachEngine())('bring your own agent on %s (real containers)', (_kind, e) => {
  let engine: UnitBackend;
  const good = `localhost/shell-agent:${suffix}`;
  const talker = `localhost/shell-talker:${suffix}`;

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    // As docs/agents.md tells a user: build the example on the world image.
    await engine.images!.build({ contextDir: join(root, 'examples/agents/shell-agent'), tag: good, buildArgs: { WORLD_IMAGE: world } });
    // A wrong agent: same contract, but it only says it did the work.
    const ctx = mkdtempSync(join(tmpdir(), 'gaia2-e2e-talker-'));
    writeFileSync(join(ctx, 'agent'), '#!/bin/bash\ncat >/dev/null\necho "Done, all taken care of."\n', { mode: 0o755 });
    writeFileSync(
      join(ctx, 'Dockerfile'),
      'ARG WORLD_IMAGE\nFROM ${WORLD_IMAGE}\nCOPY agent /opt/gaia2-agent/bin/agent\nLABEL gaia2.agent.name=shell-talker gaia2.agent.version=0.1.0\nENV GAIA2_AGENT=external\n',
    );
    await engine.images!.build({ contextDir: ctx, tag: talker, buildArgs: { WORLD_IMAGE: world } });
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('the example agent passes the samples, multi-turn included, and its name and version are recorded', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-')), 'run');
    const r = await cli(e, ['run-dataset', '--image', good, '--agent', 'external', '-d', dataset(SAMPLES), '--output-dir', out]);
    const rows = results(out);
    expect(rows.map((x) => [x.scenario_id, x.status])).toEqual(
      expect.arrayContaining([
        ['exec_messages_hike_group', 'pass'],
        ['search_email_flight_code', 'pass'],
      ]),
    );
    expect(r.code, r.err).toBe(0);
    const agent = { name: 'shell-agent', version: '1.0.0' };
    expect(readJson(join(out, 'run_config.json')).agent).toEqual(agent);
    expect(readJson(join(out, 'run_config.json')).image).toBe(good);
    for (const row of rows) expect(row.agent).toEqual(agent);
    expect(r.out).toMatch(/Agent: shell-agent 1\.0\.0/);

    // The second turn resumed the session of the first: its trace shows both turns, and the
    // participant was added to the group the first turn created (the judge passed it).
    const hike = join(out, 'execution', 'exec_messages_hike_group');
    const transcript = readFileSync(join(hike, 'agent-trace', 'transcript.log'), 'utf8');
    expect(transcript).toMatch(/turn 1 \(user, sim time 2025-10-09 09:00:\d\d\): Create a group conversation/);
    expect(transcript).toMatch(/turn 2 \(user, [^)]*\): Great, please also add Hana Novak/);
    expect(transcript).toMatch(/\$ messages add-participant-to-conversation --conversation-id \w+/);
    expect(existsSync(join(hike, 'agent-trace', 'turn-2.stderr.log'))).toBe(true);
    expect(readJson(join(out, 'search', 'search_email_flight_code', 'result.json')).agent_response).toBe('Your booking confirmation code is K7QX2M.');
  });

  it('an agent that only talks fails, and a message the agent cannot handle is a failed turn, judged FAIL', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-wrong-')), 'run');
    await cli(e, ['run-dataset', '--image', talker, '--agent', 'external', '-d', dataset(SAMPLES.slice(0, 1)), '--output-dir', out]);
    const [talked] = results(out);
    expect(talked).toMatchObject({ status: 'fail', success: false, agent: { name: 'shell-talker', version: '0.1.0' } });

    const out2 = join(mkdtempSync(join(tmpdir(), 'gaia2-e2e-byo-norule-')), 'run');
    await cli(e, ['run-dataset', '--image', good, '--agent', 'external', '-d', dataset(['execution/exec_shopping_bottle_order.json']), '--output-dir', out2]);
    const [failed] = results(out2);
    const dir = join(out2, 'execution', 'exec_shopping_bottle_order');
    expect(readFileSync(join(dir, 'agent-trace', 'turn-1.stderr.log'), 'utf8')).toContain('shell-agent has no rule for this message');
    // The program failed on its own: its failure text is the judged reply (docs/agents.md, "When
    // the program fails"). No provider here (direct mode, no model gateway record): nothing to
    // weigh it against, so it stands, and the report counts it as a program failure.
    expect(failed).toMatchObject({ status: 'fail', success: false, agent_failed: { turns: [1], evidence: 'none' } });
    expect(String(failed!.agent_response)).toContain('shell-agent has no rule for this message');
    expect(readFileSync(join(out2, 'report.md'), 'utf8')).toContain('| **overall (micro)** | 1 | 1 | 1/1 | 0 | 1 | 0 | 1 (1 without a gateway record) |');
  });

  it('refuses, before any container, an unknown agent and an image that is no agent layer', async () => {
    const bad = await cli(e, ['run-dataset', '--agent', 'shell-orcale', '--image', good, '-d', dataset(SAMPLES.slice(0, 1))]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--agent = "shell-orcale" is not a known agent; known agents: oracle, default, scripted, .*external/);
    const plain = await cli(e, ['run-dataset', '--agent', 'external', '--image', world, '-d', dataset(SAMPLES.slice(0, 1))]);
    expect(plain.code).not.toBe(0);
    expect(plain.err).toMatch(/has no gaia2\.agent\.name label, so it is not an agent layer/);
  });
});
