// The e2e suite every third-party agent runs (one file per agent calls it): the real program
// in its layer on the world image, run by `gaia2-runner run-dataset|run --agent NAME` in real
// containers against a scripted double of its provider's wire protocol, which drives it
// through its own shell tool. Checks the verdicts, what the program sent the double, and that
// the runner recorded the agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UnitBackend } from '../../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../../runner/src/image/index.js';
import { readRequest, shellExchanges, spokenText, type RecordedRequest } from '../../../helpers/fake-llm/index.js';
import { CLOCK_PROBE, goodPlays, SAMPLES, WAIT_FOR_EMAIL } from './agent-samples.js';
import { dateRenderings } from '../../../helpers/real-date.js';
import { adapterUnderTest, readReport, readResults, runAgentSuite, type AgentSuiteRun, type AgentUnderTest, type SuiteExtra } from './third-party-run.js';
import { connectE2eEngine, eachEngine, engineEnv, type E2eEngine } from '../../helpers/engines.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const id = (sample: string) => sample.split('/')[1]!;

/** Every file under a run directory. */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

/** What one agent's file adds to the suite: runs of its own after the samples, and tests of them (and of the samples). */
export interface SuiteMore {
  extra?: SuiteExtra;
  /** Declared inside each engine's describe block (runs of their own there may use `engine.host`). */
  tests?: (run: () => AgentSuiteRun, engine: E2eEngine) => void;
}

export interface SuiteExpectations {
  /** The tools the program offered its model: exactly these, or at least these. */
  tools: { exactly?: string[]; including?: string[] };
  /** Where the program puts the key in its requests (lower-case header name). */
  keyHeader: string;
}

/** The output directory of one scenario of a run-dataset (where result.json and agent-trace/ are). */
export const scenarioDir = (runDir: string, scenarioId: string): string => join(filesUnder(runDir).find((f) => f.endsWith(`/${scenarioId}/result.json`))!, '..');

/** Every command the driver sent through the shell tool, with the result that came back. */
function exchanges(a: AgentUnderTest, requests: RecordedRequest[]): Map<string, string | null> {
  const seen = new Map<string, string | null>();
  for (const q of requests) {
    for (const x of shellExchanges(a.shell.format, q.body, a.shell.tool)) {
      // (Cline's run_commands takes a list of commands: the double sends one a call)
      const values = Object.values(x.args).map((v) => (Array.isArray(v) && v.length === 1 ? v[0] : v));
      const command = String(values.find((v) => typeof v === 'string') ?? '');
      const result = x.result !== null && a.shell.output ? a.shell.output(x.result) : x.result;
      if (result !== null || !seen.has(command)) seen.set(command, result);
    }
  }
  return seen;
}

/** The last thing said to the model as the user, without the notes some agents add to it. */
const lastUserText = (a: AgentUnderTest, q: RecordedRequest): string =>
  readRequest(a.shell.format, q.body)
    .items.filter((i) => i.kind === 'user')
    .map((i) => spokenText((i as { text: string }).text))
    .filter(Boolean)
    .at(-1) ?? '';

interface EngineRun {
  engine: UnitBackend;
  run: AgentSuiteRun;
}

/**
 * The agent's layer built and its samples run on every e2e engine at once: most of a suite's
 * wall time is the samples' simulated clock and the program's start-up, which the engines
 * share well (measured in docs/agents.md), so CI pays for the slower engine, not for both.
 */
function startOnEveryEngine(a: AgentUnderTest, extra?: SuiteExtra): Map<string, Promise<EngineRun>> {
  const runs = new Map<string, Promise<EngineRun>>();
  const t0 = Date.now();
  for (const [kind, e] of eachEngine()) {
    const p = (async () => {
      const engine = await connectE2eEngine(e);
      try {
        return { engine, run: await runAgentSuite(engine, image, a, { env: engineEnv(e), extra, log: (l) => process.stderr.write(`[${a.name} on ${kind} +${((Date.now() - t0) / 1000).toFixed(0)} s] ${l}\n`) }) };
      } catch (err) {
        await engine.close();
        throw err;
      }
    })();
    p.catch(() => {}); // awaited by its engine's beforeAll, which reports the failure there
    runs.set(kind, p);
  }
  return runs;
}

/** The suite on every e2e engine (GAIA2_TEST_ENGINES): the layer built there, the CLI pointed at it. */
export function describeAgentSuite(a: AgentUnderTest, expects: SuiteExpectations, more: SuiteMore = {}): void {
  // The suite's start: the host's days are from then to the check (a run may cross midnight).
  const started = new Date();
  let runs: Map<string, Promise<EngineRun>> | undefined;
  describe.each(eachEngine())(`${a.name} on %s: the real program in real containers, driven by a ${a.shell.format} double`, (kind, e) => {
    let engine: UnitBackend | undefined;
    let run: AgentSuiteRun;
    const adapter = adapterUnderTest(a);

    beforeAll(async () => {
      runs ??= startOnEveryEngine(a, more.extra);
      ({ engine, run } = await runs.get(kind)!);
    }, 1_500_000);

    afterAll(async () => {
      await engine?.close();
    });

    it('run-dataset judges all three samples (single turn, multi-turn, time) PASS', () => {
      expect(run.good.err).not.toMatch(/not run/);
      const results = readResults(run.good.dir);
      // a failure shows the judge's reasons and where the run's files are kept
      const why = results.filter((r) => r.status !== 'pass').map((r) => `${r.scenario_id}: ${(r.failure_reasons ?? []).join('; ')} (${run.good.dir})`);
      expect(results.map((r) => [r.scenario_id, r.status, r.error ?? null]).sort(), why.join('\n')).toEqual(
        Object.values(SAMPLES).map((s) => [id(s), 'pass', null]).sort(),
      );
      expect(run.good.code).toBe(0);
      expect(readReport(run.good.dir).overall).toMatchObject({ scenarios: 3, runs: 3, passed: 3, failed: 0, errors: 0 });
    });

    it('a wrong play is judged FAIL, naming the wrong argument', () => {
      const [r] = readResults(run.wrong.dir);
      expect([r!.status, r!.success]).toEqual(['fail', false]);
      expect(r!.failure_reasons?.join('\n')).toMatch(/checkout|discount_code/);
      expect(run.wrong.code).not.toBe(0);
    });

    it('the layer carries the pinned package version, recorded in result.json and the report header', () => {
      expect(run.layer.version).toBe(adapter.package.version);
      for (const r of [...readResults(run.good.dir), ...readResults(run.wrong.dir)]) {
        expect(r.agent).toEqual({ name: a.name, version: adapter.package.version });
      }
      expect(readFileSync(join(run.good.dir, 'report.md'), 'utf8')).toContain(`${a.name} ${adapter.package.version}`);
    });

    it('the program offered its model its own shell tool and sent the key it was given', () => {
      // the first request that offers tools: a program may ask its model something on the side
      // first (OpenCode titles a new session in a request of its own, without tools)
      const first = run.good.fake.requests.find((q) => readRequest(a.shell.format, q.body).tools.length > 0) ?? run.good.fake.requests[0]!;
      const tools = readRequest(a.shell.format, first.body).tools;
      if (expects.tools.exactly) expect(tools).toEqual(expects.tools.exactly);
      for (const t of expects.tools.including ?? []) expect(tools).toContain(t);
      expect(tools).toContain(a.shell.tool);
      for (const q of [...run.good.fake.requests, ...run.wrong.fake.requests]) expect(String(q.headers[expects.keyHeader])).toContain(run.key);
    });

    it('every app command went through the agent shell and its output came back to the model', () => {
      const seen = exchanges(a, run.good.fake.requests);
      for (const turn of goodPlays()) for (const command of turn.commands) expect(seen.get(command), command).toEqual(expect.any(String));
      const checkout = [...seen].find(([c]) => c.startsWith('shopping checkout'))!;
      expect(checkout[1]).toMatch(/order_id/);
      const forward = [...seen].find(([c]) => c.startsWith('emails forward-email'))!;
      // (Qwen Code frames every output with an `Error: (none)` line of its own when there is none)
      expect(forward[1]).not.toMatch(/command not found|Error(?!: \(none\))/i);
      expect(seen.get(WAIT_FOR_EMAIL)).toContain('arrived');
    });

    it("the agent's date is the simulated clock of the scenario, not the host's", () => {
      const seen = exchanges(a, run.good.fake.requests);
      // OpenClaw (queue mode steer) drops a tool call it has not started when a message comes in:
      // the time sample's `date` is skipped when the email is there first; the probe's date then shows it.
      const ran = ['date', CLOCK_PROBE].map((c) => seen.get(c) ?? '').filter((x) => !/^Skipped to process an incoming message/.test(x));
      expect(ran.length).toBeGreaterThan(0);
      for (const out of ran) expect(out).toMatch(/2025/);
    });

    it("every clock of the agent's shell reads the simulated day: date -d tomorrow, python3, node, jq", () => {
      // The time sample starts 2025-10-09 09:00 UTC and runs for a minute or two of simulated time.
      expect(exchanges(a, run.good.fake.requests).get(CLOCK_PROBE)).toMatch(/tomorrow=2025-10-10\s+python3=2025-10-09\s+node=2025-10-09\s+jq=2025-10-09/);
    });

    it("no request of the program carries the host's date, in any rendering (the gateway's traffic record)", () => {
      const real = dateRenderings([started, new Date()]);
      const dirs = [run.good.dir, run.wrong.dir, ...Object.values(run.extra).map((x) => x.dir)];
      const records = dirs.flatMap((d) => filesUnder(d).filter((f) => f.endsWith('model_traffic.jsonl')));
      expect(records.length).toBeGreaterThanOrEqual(4);
      for (const f of records) {
        // What the program sent (the record's own time stamps are the host's, as they should be).
        const sent = readFileSync(f, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { role?: string; request?: unknown })
          .filter((l) => l.role === 'agent')
          .map((l) => JSON.stringify(l.request));
        expect(sent.length, f).toBeGreaterThan(0);
        for (const body of sent) for (const r of real) expect(body.match(r)?.[0] ?? null, `${f}: ${r}`).toBeNull();
      }
    });

    it('the second turn continued the same agent session (the first turn is in its conversation)', () => {
      const [first, second] = goodPlays().filter((t) => t.when.includes('invoice') || t.when === 'The Brightlane one.');
      const resumed = run.good.fake.requests.filter((q) => lastUserText(a, q).includes(second!.when));
      expect(resumed.length).toBeGreaterThan(0);
      const said = readRequest(a.shell.format, resumed[0]!.body).items.map((i) => ('text' in i ? i.text : '')).join('\n');
      expect(said).toContain(first!.when);
      expect(said).toContain(first!.reply);
    });

    it("the report's agent tokens are what the double billed, counted from the gateway's traffic record", () => {
      const billed = run.good.fake.billing();
      const agent = readReport(run.good.dir).overall.usage.agent;
      expect(billed.responses).toBeGreaterThan(0);
      // A request still being answered when the run ended (the program asks on after its last
      // reply; the gateway abandons the request when the runner ends the container's run and
      // records it with no usage, not counted as a call) or one the program itself gave up on
      // may still have been answered, and billed, by the double: then the report counts at most
      // what was billed, and at least that less those calls.
      const abandonedCalls = readResults(run.good.dir)
        .flatMap((r) => readFileSync(join(scenarioDir(run.good.dir, r.scenario_id), 'model_traffic.jsonl'), 'utf8').split('\n'))
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { role: string; abandoned?: boolean; error?: string })
        .filter((l) => l.role === 'agent' && (l.abandoned === true || /^client went away/.test(l.error ?? ''))).length;
      const abandoned = abandonedCalls > 0;
      expect(agent.runs).toBe(3);
      expect(agent.llm_calls).toBeLessThanOrEqual(billed.responses);
      expect(agent.llm_calls).toBeGreaterThanOrEqual(billed.responses - abandonedCalls);
      const inputs = agent.input + agent.cache_read + agent.cache_write;
      const billedInputs = billed.input + billed.cacheRead + billed.cacheWrite;
      if (abandoned) {
        expect(agent.output).toBeLessThanOrEqual(billed.output);
        expect(inputs).toBeLessThanOrEqual(billedInputs);
        expect(agent.output).toBeGreaterThan(0);
      } else {
        expect(agent.output).toBe(billed.output);
        expect(inputs).toBe(billedInputs);
      }
      for (const r of readResults(run.good.dir)) expect((r.usage as { agent?: { source?: string } } | undefined)?.agent?.source).toBe('gateway');
    });

    it("the viewer's trace page of every sample shows the program's model calls from the gateway's traffic record", () => {
      for (const r of readResults(run.good.dir)) {
        const dir = scenarioDir(run.good.dir, r.scenario_id);
        const calls = readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"role":"agent"')).length;
        expect(calls, r.scenario_id).toBeGreaterThan(0);
        const page = readFileSync(join(dir, 'trace.html'), 'utf8');
        expect(page.split('"k":"call"').length - 1, r.scenario_id).toBe(calls);
      }
    });

    it("every sample's trace.jsonl holds the program's calls from the gateway's record, each command with its output", () => {
      const ran: Array<{ input: unknown; output: string | null }> = [];
      for (const r of readResults(run.good.dir)) {
        const dir = scenarioDir(run.good.dir, r.scenario_id);
        const calls = readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"role":"agent"')).length;
        const lines = readFileSync(join(dir, 'trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; tool_calls: typeof ran });
        expect(lines.length, r.scenario_id).toBe(calls);
        for (const l of lines) ran.push(...l.tool_calls);
      }
      const checkout = ran.find((t) => JSON.stringify(t.input).includes('shopping checkout'));
      expect(checkout?.output).toMatch(/order_id/);
    });

    it('the key reached the double through the gateway and is in no file of the run', () => {
      for (const dir of [run.good.dir, run.wrong.dir]) for (const f of filesUnder(dir)) expect(readFileSync(f, 'utf8').includes(run.key), f).toBe(false);
    });

    it("the key never entered a container: every container of the layer, looked into while its program ran, holds its gateway token, not the key", () => {
      // the samples (three scenarios) and the wrong play: four containers, each looked into at its first model request
      expect(run.looks.map((l) => l.name).length).toBeGreaterThanOrEqual(4);
      for (const l of run.looks) {
        expect(l.processes, l.name).toMatch(/g2gw-/);
        expect(l.processes.includes(run.key), `${l.name}: processes`).toBe(false);
        expect(l.files.includes(run.key), `${l.name}: files`).toBe(false);
      }
    });

    it('the double placed every request in a turn; only world notifications came on their own', () => {
      for (const q of [...run.good.driver.unplaced, ...run.wrong.driver.unplaced]) expect(lastUserText(a, q)).toMatch(/^\[Notifications?\]/);
    });

    more.tests?.(() => run, e);
  });
}
