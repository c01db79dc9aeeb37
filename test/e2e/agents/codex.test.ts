// Codex (the linux-x64 build from npm) evaluated end to end: docs/agents.md. The double
// speaks OpenAI Responses streaming with function calls and drives Codex's exec_command.
// Codex runs kept up, one `codex app-server` per scenario run (its layer's bin/agent-serve),
// so the checks below add what that changes: one process for a multi-turn sample, a world
// notification taken into the running turn (turn/steer), a turn Codex fails on its own judged
// as its reply, Codex killed mid-scenario and resumed, and the date Codex tells its model.
// The clock runs at full speed: Codex's exec_command hands a command back after 30 s of wall
// time ("Process running …") for the model to poll, and the scripted double does not poll, so
// the time sample's wait for the email must end within 30 s.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { readRequest, type FakeScriptItem, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { dockerAt, execText } from '../helpers/gateway-canary.js';
import type { E2eEngine } from '../helpers/engines.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { describeAgentSuite, scenarioDir } from './helpers/agent-suite.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { layerContainers } from './helpers/container-looks.js';
import { readResults, runAgentOnce, type AgentSuiteRun, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';

const CODEX: AgentUnderTest = { ...AGENTS.codex, flags: ['--thinking', 'medium'] };
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const id = (sample: string) => sample.split('/')[1]!;
/** The scenarios' simulated start (start_time 1760000400), and the machine's own date. */
const SIM_DATE = '2025-10-09';
const TODAY = new Date().toISOString().slice(0, 10);

interface TraceLine {
  dir: 'in' | 'out';
  msg: { id?: number; method?: string; params?: any; result?: any; error?: any };
}

/** The app server's protocol stream of one scenario, per start of the program (codex-app-server.<start>.jsonl). */
function appServerTraces(runDir: string, scenarioId: string): Map<string, TraceLine[]> {
  const dir = join(scenarioDir(runDir, scenarioId), 'agent-trace');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^codex-app-server\.\d+\.jsonl$/.test(f)).sort() : [];
  return new Map(files.map((f) => [f, readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceLine)]));
}

const sent = (lines: TraceLine[], method: string) => lines.filter((l) => l.dir === 'out' && l.msg.method === method);
const answerTo = (lines: TraceLine[], out: TraceLine) => lines.find((l) => l.dir === 'in' && l.msg.id === out.msg.id && !l.msg.method);

/** What the agent said to the user in a scenario (its replies, as the world recorded them). */
const repliesOf = (runDir: string, scenarioId: string): string[] =>
  readFileSync(join(scenarioDir(runDir, scenarioId), 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { fn: string; args: { content?: string } })
    .filter((e) => e.fn === 'send_message_to_user')
    .map((e) => e.args.content ?? '');

const items = (q: RecordedRequest) => readRequest('openai-responses', q.body).items;
const said = (q: RecordedRequest) => items(q).map((i) => ('text' in i ? i.text : '')).join('\n');

// Kills the app server in the container whose exec_command is running `sleep 30` (as root: the
// program runs as the agent); prints what it killed.
const CODEX_BIN = '/opt/gaia2-agent/pkg/vendor/x86_64-unknown-linux-musl/bin/codex';
const KILL_CODEX = `s=; k=; for d in /proc/[0-9]*; do a=$(tr '\\0' ' ' < $d/cmdline 2>/dev/null); case "$a" in "sleep 30"*) s=1;; "${CODEX_BIN} app-server"*) k=\${d#/proc/};; esac; done; [ -n "$s" ] && [ -n "$k" ] && kill -9 $k && echo "killed $k"`;

function codexChecks(run: () => AgentSuiteRun, engine: E2eEngine): void {
  it('one app server for the whole multi-turn sample: one start, one thread, both user turns in it', () => {
    const traces = appServerTraces(run().good.dir, id(SAMPLES.multi));
    expect([...traces.keys()]).toEqual(['codex-app-server.1.jsonl']);
    const lines = traces.get('codex-app-server.1.jsonl')!;
    expect(sent(lines, 'thread/start')).toHaveLength(1);
    const turns = sent(lines, 'turn/start').map((l) => l.msg.params.input[0].text as string);
    for (const t of samplePlay(SAMPLES.multi)) expect(turns.some((x) => x.includes(t.when)), t.when).toBe(true);
  });

  it("the time sample's email notification was taken into the running turn (turn/steer) and the model saw it before the turn's reply", () => {
    const lines = appServerTraces(run().good.dir, id(SAMPLES.time)).get('codex-app-server.1.jsonl')!;
    const steers = sent(lines, 'turn/steer');
    expect(steers.map((s) => s.msg.params.input[0].text)).toContainEqual(expect.stringMatching(/^\[Notifications?\] .*email/is));
    expect(answerTo(lines, steers[0]!)?.msg.result?.turnId).toEqual(steers[0]!.msg.params.expectedTurnId);
    const task = samplePlay(SAMPLES.time)[0]!.when;
    // A request of the time sample's first turn that holds the notification after the task with no reply of the agent between
    // (where it lands depends on when it came: after the tool results so far, or before the first call when a model request was open).
    const inTurn = run().good.fake.requests.some((q) => {
      const all = items(q);
      const start = all.findIndex((i) => i.kind === 'user' && i.text.includes(task));
      const note = all.findIndex((i, k) => k > start && i.kind === 'user' && /^\[Notifications?\]/.test(i.text));
      return start >= 0 && note > start && !all.slice(start, note).some((i) => i.kind === 'assistant');
    });
    expect(inTurn).toBe(true);
    // …and the turn went on to the play's end: its reply came after the notification.
    expect(repliesOf(run().good.dir, id(SAMPLES.time))).toEqual([samplePlay(SAMPLES.time)[0]!.reply]);
  });

  // Needs the clock helper (simclock-exec, branch r-clock): Codex is a static binary.
  it("every request tells the model the scenario's simulated date (<current_date>), never the machine's", () => {
    for (const q of run().good.fake.requests) {
      const body = JSON.stringify(q.body);
      expect(body).toContain(`<current_date>${SIM_DATE}</current_date>`);
      expect(body.includes(TODAY), 'the real date in a request').toBe(false);
    }
  });

  describe('a program failure and a restart, each in a run of its own', () => {
    let failed: DrivenRun;
    let restarted: DrivenRun;
    let killed = '';

    beforeAll(async () => {
      const env = { DOCKER_HOST: engine.host };
      // Every answer cut at max tokens (HTTP 200, status incomplete): Codex fails the turn itself.
      const cut = (_q: RecordedRequest, driven: FakeScriptItem): FakeScriptItem => ({ ...driven, truncated: true });
      // The first turn ends with a long command; while it runs, the app server is killed.
      const plays = samplePlay(SAMPLES.multi, (c, turn) => (turn === 0 ? [...c, 'sleep 30'] : c));
      const docker = dockerAt(engine.host);
      const since = Math.floor(Date.now() / 1000) - 1;
      const kill = async () => {
        await new Promise((r) => setTimeout(r, 1500));
        for (const c of await layerContainers(docker, run().layer.tag, since)) killed += await execText(docker.getContainer(c.Id), ['sh', '-c', KILL_CODEX]);
      };
      const killer = (_q: RecordedRequest, driven: FakeScriptItem): FakeScriptItem => {
        if (JSON.stringify(driven).includes('sleep 30')) void kill();
        return driven;
      };
      [failed, restarted] = await Promise.all([
        runAgentOnce(image, CODEX, { plays: samplePlay(SAMPLES.single), filter: cut, env }),
        // with [agent].context_window by its flag: Codex's own setting (model_context_window)
        runAgentOnce(image, CODEX, { scenario: scenarioFile(SAMPLES.multi), plays, filter: killer, env, flags: ['--context-window', '100000'] }),
      ]);
    }, 900_000);

    it("a turn Codex fails on its own (the model's answer cut at max tokens, HTTP 200) is judged: its error is the reply, the run FAILs (not an error) and counts as the program's failure", () => {
      const [r] = readResults(failed.dir);
      expect([r!.status, r!.error ?? null], failed.err).toEqual(['fail', null]);
      expect(repliesOf(failed.dir, id(SAMPLES.single))).toEqual([expect.stringContaining('Incomplete response returned, reason: max_output_tokens')]);
      const failures = (r!.daemon_status as { agent_failures?: Array<{ turn: number; text: string }> }).agent_failures;
      expect(failures).toEqual([expect.objectContaining({ turn: 1, text: expect.stringContaining('max_output_tokens') })]);
      // The gateway's record shows no refused, timed-out or reset call: a program failure, counted as such.
      expect(r!.agent_failed).toMatchObject({ turns: [1], text: expect.stringContaining('max_output_tokens'), evidence: 'gateway_record' });
    });

    it('codex killed mid-turn: that turn ends with the failure as its reply, the program starts again, resumes its thread, and the sample passes', () => {
      expect(killed).toMatch(/killed \d+/);
      const [r] = readResults(restarted.dir);
      expect([r!.status, r!.error ?? null], restarted.err).toEqual(['pass', null]);
      expect(r!.agent_failed).toMatchObject({ turns: [1], evidence: 'gateway_record' });
      // The runtime's failure reply for a program that ended mid-turn, with the bridge's last stderr line.
      expect(repliesOf(restarted.dir, id(SAMPLES.multi))[0]).toMatch(/^Error: the agent program ended during the turn \(exit code 1: agent-serve: codex app-server exited \(signal SIGKILL\)/);
      const traces = appServerTraces(restarted.dir, id(SAMPLES.multi));
      expect([...traces.keys()]).toEqual(['codex-app-server.1.jsonl', 'codex-app-server.2.jsonl']);
      const first = traces.get('codex-app-server.1.jsonl')!;
      const thread = answerTo(first, sent(first, 'thread/start')[0]!)!.msg.result.thread.id as string;
      const resumed = sent(traces.get('codex-app-server.2.jsonl')!, 'thread/resume');
      expect(resumed.map((l) => l.msg.params.threadId)).toEqual([thread]);
      // The second user turn reached the model with the first turn in its conversation.
      const [one, two] = samplePlay(SAMPLES.multi);
      const q = restarted.fake.requests.find((x) => said(x).includes(two!.when))!;
      expect(said(q)).toContain(one!.when);
    });

    it("--context-window reaches Codex's own setting: its token reports give the window it was told (95% of it, Codex's margin), where the samples' runs give its default", () => {
      const windows = (dir: string, sample: string) =>
        [...appServerTraces(dir, id(sample)).values()].flat().filter((l) => l.msg.method === 'thread/tokenUsage/updated').map((l) => l.msg.params.tokenUsage.modelContextWindow as number);
      const told = windows(restarted.dir, SAMPLES.multi);
      expect(told.length).toBeGreaterThan(0);
      expect(new Set(told)).toEqual(new Set([95_000]));
      const byDefault = windows(run().good.dir, SAMPLES.multi);
      expect(byDefault.length).toBeGreaterThan(0);
      expect(byDefault.every((w) => w > 95_000)).toBe(true);
    });
  });
}

describeAgentSuite(CODEX, { tools: { including: ['exec_command'] }, keyHeader: 'authorization' }, { tests: codexChecks });
