// OpenClaw (from npm, with its dependencies) evaluated end to end as the reference runs it: one
// gateway per container kept up for the whole scenario run, every message a chat.send over its
// WebSocket (docs/agents.md "OpenClaw"). The double speaks OpenAI chat completions (the
// openai-compat provider) and drives OpenClaw's exec tool. Start-up is paid before the first
// message with the simulated clock held, so the samples run at full clock speed.
//
// Beyond the common suite: one gateway took every turn; the email that arrives during the time
// sample's wait is steered into the running turn; a failure of the program itself is a judged
// reply; a gateway killed mid-scenario is started again and resumes its session; the reference's
// pin 2026.4.1 (on the world's Node 22) plays the time sample with its steer; and with the queue
// mode "followup" no message goes to OpenClaw during a run: it comes as the next turn.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { LABELS } from '../../../runner/src/engine/index.js';
import { findAdapter } from '../../../runner/src/agents/index.js';
import { OPENCLAW_REFERENCE_VERSION } from '../../../runner/src/agents/openclaw.js';
import { ensureAgentLayer } from '../../../runner/src/image/agent-layer.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { readRequest, spokenText, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile, timePlay } from './helpers/agent-samples.js';
import { readResults, runAgentOnce, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';
import { dockerAt, execText } from '../helpers/gateway-canary.js';
import { connectE2eEngine, eachEngine } from '../helpers/engines.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const root = join(import.meta.dirname, '..', '..', '..');
// --timeout: the runner waits for a program that is still starting up to the scenario's time limit, and OpenClaw's
// start takes minutes on a busy 2-core machine (it is off the simulated clock).
const OC: AgentUnderTest = { ...AGENTS.openclaw, flags: ['--thinking', 'low', '--timeout', '1800'] };

/** A sample's directory in a run's output, e.g. samples/time/time_calendar_boat_trip. */
const sampleDir = (out: string, sample: string) => join(out, sample);
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
/** Every frame the bridge exchanged with the gateway (agent-trace/openclaw-gateway.jsonl). */
const frames = (dir: string): Array<{ dir: string; frame: Record<string, any> }> =>
  read(dir, 'agent-trace/openclaw-gateway.jsonl').trim().split('\n').map((l) => JSON.parse(l));
/**
 * The world's notification messages of a run (a bundle each): how many it sent, and whether the
 * last may never reach the agent (the world judged the last turn right after sending it: a time
 * sample whose last email comes after the agent's last turn ends then, and that bundle reaches
 * the program only if it was quicker than the judge).
 */
function bundles(dir: string): { sent: number; lastMayMiss: boolean } {
  const lines = read(dir, 'eventd.log').split('\n');
  const sent = lines.flatMap((l, i) => (/Sending \d+ bundled notification/.test(l) ? [i] : []));
  const after = lines.slice((sent.at(-1) ?? lines.length) + 1);
  const judged = after.findIndex((l) => /JUDGE turn/.test(l));
  const agentAgain = after.findIndex((l) => /TURN BOUNDARY|agent openclaw:/.test(l));
  return { sent: sent.length, lastMayMiss: judged >= 0 && (agentAgain < 0 || judged < agentAgain) };
}
/** Each notification bundle went to OpenClaw as one chat.send, none twice (one or two come during the time sample, by its timing). */
function sentOnce(dir: string): void {
  const notes = chatSends(dir).filter((m) => /Notification/.test(m));
  const b = bundles(dir);
  expect(notes.length).toBeGreaterThanOrEqual(1);
  expect(notes.length).toBeLessThanOrEqual(b.sent);
  expect(notes.length).toBeGreaterThanOrEqual(b.sent - (b.lastMayMiss ? 1 : 0));
}
const chatSends = (dir: string) => frames(dir).filter((f) => f.dir === 'out' && f.frame.method === 'chat.send').map((f) => String(f.frame.params.message));
const lastUser = (q: RecordedRequest) => readRequest('openai-chat', q.body).items.filter((i) => i.kind === 'user').map((i) => spokenText((i as { text: string }).text)).at(-1) ?? '';

describeAgentSuite(OC, { tools: { exactly: ['exec'] }, keyHeader: 'authorization' }, {
  tests: (run) => {
  it('one OpenClaw gateway, started once before the first message, took every turn of the multi-turn sample', () => {
    const log = read(sampleDir(run().good.dir, SAMPLES.multi), 'eventd.log');
    const turns = [...log.matchAll(/turn (\d+): OpenClaw gateway pid (\d+)/g)];
    expect(turns.map((m) => m[1])).toEqual(['1', '2']);
    expect(new Set(turns.map((m) => m[2])).size).toBe(1);
    expect(log.match(/agent-serve: OpenClaw 2026\.9\.6 \(/g)).toHaveLength(1);
    expect(log).toMatch(/warm-up run of OpenClaw/);
  });

  it("the warm-up run before ready reached no model: every request the double got belongs to a scenario's turn", () => {
    for (const q of [...run().good.fake.requests, ...run().wrong.fake.requests]) expect(JSON.stringify(q.body)).not.toContain('gaia2 warm-up');
  });

  it("the email that came during the time sample's wait was steered into the running turn: the model saw it after the wait's result, and it was sent once", () => {
    const r = run();
    expect(r.good.driver.midTurn.map((m) => m.text).join('\n')).toMatch(/Notification/);
    sentOnce(sampleDir(r.good.dir, SAMPLES.time));
    // a steered message's own run ends at once, empty: the runtime recorded it as taken
    expect(read(sampleDir(r.good.dir, SAMPLES.time), 'eventd.log')).not.toMatch(/requeue/i);
  });

  it('openai-compat requests are shaped as the reference launcher shapes them: stream off, reasoning effort of --thinking', () => {
    for (const q of run().good.fake.requests) expect(q.body).toMatchObject({ stream: false, reasoning: { effort: 'low' } });
  });
  },
});

describe.each(eachEngine())('openclaw kept up on %s: failures, restarts, the reference pin, follow-ups', (_kind, e) => {
  let engine: UnitBackend;
  let failure: DrivenRun;
  let restart: DrivenRun;
  let reference: DrivenRun;
  let followup: DrivenRun;
  let killed = '';

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    const env = { DOCKER_HOST: e.host };
    // the reference pin's layer (the suite built the default one)
    await ensureAgentLayer(engine.images!, { projectRoot: root, worldTag: image, adapter: findAdapter('openclaw')!, version: OPENCLAW_REFERENCE_VERSION });
    const docker = dockerAt(e.host);
    /** The gateway of the multi-turn sample's container, killed while it answers the first message. */
    const killGateway = async () => {
      const [c] = await docker.listContainers({ filters: { label: [`${LABELS.managed}=1`, `${LABELS.scenarioId}=${SAMPLES.multi.split('/')[1]}`], status: ['running'] } });
      killed = await execText(docker.getContainer(c!.Id), ['sh', '-c', 'p=$(cat /home/agent/.gaia2/session/openclaw-gateway.pid); kill -9 "$p" && echo "killed $p"']);
    };
    [failure, restart, reference, followup] = await Promise.all([
      // every model answer is a 200 that is not what the API says: OpenClaw gives up on its own
      runAgentOnce(image, OC, { plays: samplePlay(SAMPLES.single), env, filter: () => ({ raw: 'this is not a chat completion' }) }),
      runAgentOnce(image, OC, {
        scenario: scenarioFile(SAMPLES.multi),
        plays: samplePlay(SAMPLES.multi),
        env,
        filter: async (req, driven) => {
          if (!killed && lastUser(req).includes(samplePlay(SAMPLES.multi)[0]!.when)) await killGateway();
          return driven;
        },
      }),
      runAgentOnce(image, { ...OC, flags: [...OC.flags!, '--agent-version', OPENCLAW_REFERENCE_VERSION] }, { scenario: scenarioFile(SAMPLES.time), plays: timePlay(), env }),
      runAgentOnce(image, { ...OC, flags: [...OC.flags!, '--agent-option', 'queue_mode=followup'] }, { scenario: scenarioFile(SAMPLES.time), plays: timePlay(), env }),
    ]);
  }, 1_500_000);

  afterAll(async () => {
    await engine?.close();
  });

  it("a failure of the program itself ends the turn with its failure text as the reply, judged (not an error), and the daemon records it", () => {
    const [r] = readResults(failure.dir);
    expect(r!.status, failure.err).toBe('fail');
    expect(r!.error_kind ?? null).toBeNull();
    const dir = join(failure.dir, SAMPLES.single.split('/')[1]!);
    expect(read(dir, 'agent_response.txt')).toMatch(/failed/i);
    const status = JSON.parse(read(dir, 'daemon_status.json')) as { agent_failures?: unknown[] };
    expect(status.agent_failures?.length).toBeGreaterThan(0);
  });

  it('a gateway killed during a turn: that turn ends with the failure text, the program starts again and the next turn resumes the session', () => {
    expect(killed).toMatch(/^killed \d+/);
    const dir = join(restart.dir, SAMPLES.multi.split('/')[1]!);
    const log = read(dir, 'eventd.log');
    expect(log).toMatch(/start 2, resuming session agent:main:main/);
    const pids = [...log.matchAll(/turn (\d+): OpenClaw gateway pid (\d+)/g)];
    expect(pids.map((m) => m[1])).toEqual(['1', '2']);
    expect(pids[0]![2]).not.toBe(pids[1]![2]);
    const events = read(dir, 'events.jsonl');
    expect(events).toMatch(/the agent program ended during the turn/);
    // turn 2's request carries turn 1's message: the restarted gateway resumed the session
    const [first, second] = samplePlay(SAMPLES.multi);
    const resumed = restart.fake.requests.find((q) => lastUser(q).includes(second!.when))!;
    expect(JSON.stringify(resumed.body)).toContain(first!.when);
  });

  it('the reference pin 2026.4.1 runs on the world Node 22, passes the time sample at full clock speed, and takes the email into the running turn', () => {
    const [r] = readResults(reference.dir);
    expect(r!.status, reference.err).toBe('pass');
    expect(r!.agent).toEqual({ name: 'openclaw', version: '2026.4.1' });
    const dir = join(reference.dir, SAMPLES.time.split('/')[1]!);
    expect(read(dir, 'eventd.log')).toMatch(/agent-serve: OpenClaw 2026\.4\.1 \(openai-compat\/gaia2-double-model, queue mode steer\) with \/usr\/local\/bin\/node/);
    expect(reference.driver.midTurn.map((m) => m.text).join('\n')).toMatch(/Notification/);
    sentOnce(dir);
  });

  it('queue mode "followup": the email waits for the turn to end and comes as a turn of its own (no steer), sent to OpenClaw once', () => {
    const [r] = readResults(followup.dir);
    expect(r!.status, followup.err).toBe('pass');
    const dir = join(followup.dir, SAMPLES.time.split('/')[1]!);
    expect(followup.driver.midTurn).toEqual([]);
    expect(followup.driver.unplaced.map(lastUser).join('\n')).toMatch(/Notification/);
    sentOnce(dir);
    expect(read(dir, 'eventd.log')).not.toMatch(/follow-up run\(s\) of OpenClaw already carry/);
    // The first notification went in only after the task's run had ended (its final chat event).
    const f = frames(dir).filter((x) => !JSON.stringify(x.frame).includes('gaia2 warm-up'));
    const task = f.findIndex((x) => x.dir === 'out' && x.frame.method === 'chat.send');
    const note = f.findIndex((x) => x.dir === 'out' && x.frame.method === 'chat.send' && /Notification/.test(String(x.frame.params.message)));
    const ended = f.findIndex((x, k) => k > task && x.dir === 'in' && x.frame.event === 'chat' && x.frame.payload?.state === 'final');
    expect(task).toBeGreaterThanOrEqual(0);
    expect(ended).toBeGreaterThan(task);
    expect(note).toBeGreaterThan(ended);
  });
});
