// The model gateway end to end: real containers, real HTTP, our own `default` agent and the
// judge against doubles of the providers' wire formats on the host's loopback, through the
// runner's own path (executePlan). It proves that the provider key never reaches the engine
// (create bodies, environment, files, labels) nor the run's files while the doubles receive it;
// that a provider admitting one request at a time costs time, not runs; that a provider that
// always refuses ends a run with a typed error in bounded time; that the traffic record's usage
// is what the double billed; and that a finished pass@2 run replays with no provider at all,
// with the same verdicts and judged events.
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEngine, contentBytes, type UnitBackend, type ContainerSpec } from '../../runner/src/engine/index.js';
import { maskVolatile } from '../../runner/src/gateway/index.js';
import type { ExecuteOutcome } from '../../runner/src/orchestrator/index.js';
import { say, startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { connectE2eEngine, eachEngine } from './helpers/engines.js';
import { CANARY, CASES, KEY_VAR, dockerAt, executeGateway as execute, gatewayPlan as plan, lookInside, spying, subset, type ContainerLook } from './helpers/gateway-canary.js';
import { allFiles, expectRecordIsBilling, resultsOf, traffic } from './helpers/run-dir.js';
import { phaseModel } from './helpers/phase-model.js';



/**
 * The judged events of a run: app calls with their arguments and results, without clock
 * stamps and with the ids apps mint at random masked (as the replay's matching masks them).
 */
function judgedEvents(dir: string): unknown[] {
  return readFileSync(join(dir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { t: _t, sim_t: _s, wall_t: _w, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return maskVolatile(rest);
    });
}


let engine: UnitBackend;
beforeAll(async () => {
  engine = await connectEngine();
});
afterAll(async () => {
  await engine?.close();
});

describe('model gateway: keys stay out, record, replay (pass@2, agent and LLM judge)', () => {
  const specs: ContainerSpec[] = [];
  let model: FakeLlm;
  let judge: FakeLlm;
  let first: ExecuteOutcome;
  let replayed: ExecuteOutcome;
  let out1: string;
  let out2: string;
  const logs: string[] = [];

  beforeAll(async () => {
    model = await startFakeLlm({ format: 'openai-chat', respond: phaseModel(CASES) });
    judge = await startFakeLlm({ format: 'anthropic', fallback: say('Verdict: [[Success]] / [[True]]', { usage: { input: 900, output: 12 } }) });
    const work = mkdtempSync(join(tmpdir(), 'gaia2-gw-e2e-'));
    out1 = join(work, 'run');
    out2 = join(work, 'replay');
    const flags = {
      subset: subset({ execution: ['exec_shopping_bottle_order'], search: ['search_email_flight_code'] }),
      baseUrl: model.url, passAt: '2', concurrency: '2',
      judgeProvider: 'anthropic', judgeModel: 'claude-judge-fake', judgeBaseUrl: judge.url, judgeApiKeyEnv: KEY_VAR,
    };
    try {
      first = await execute(spying(engine, specs), plan(out1, flags), logs);
    } finally {
      await model.close();
      await judge.close();
    }
    // The doubles are gone: a replay must not need them.
    replayed = await execute(engine, plan(out2, { ...flags, replay: out1 }), logs);
  }, 900_000);

  it('every run passes, through the gateway', () => {
    expect(first.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    const cfg = JSON.parse(readFileSync(join(out1, 'run_1', 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway.mode).toBe('gateway');
    expect(cfg.model_gateway.upstreams.map((u: { provider: string; roles: string[] }) => [u.provider, u.roles])).toEqual([['anthropic', ['judge']], ['openai-compat', ['agent']]]);
  });

  it('the canary key reached the doubles and nothing the engine received: create bodies, env, files, labels', async () => {
    expect(model.requests.length).toBeGreaterThan(0);
    for (const r of model.requests) expect(r.headers.authorization).toBe(`Bearer ${CANARY}`);
    for (const r of judge.requests) expect(r.headers['x-api-key']).toBe(CANARY);
    expect(specs).toHaveLength(4);
    for (const s of specs) {
      expect(JSON.stringify(s)).not.toContain(CANARY);
      for (const f of s.files ?? []) expect((await contentBytes(f.content)).toString('utf8')).not.toContain(CANARY);
      // Each container holds its own tokens and the gateway's URL instead.
      expect(s.env.API_KEY).toMatch(/^g2gw-/);
      expect(s.env.GAIA2_JUDGE_API_KEY).toMatch(/^g2gw-/);
      expect(s.env.BASE_URL).toMatch(/^http:\/\/host\.containers\.internal:\d+\/openai-compat\/v1$/);
    }
    expect(new Set(specs.map((s) => s.env.API_KEY)).size).toBe(4);
  });

  it('the canary is in no file of the run, nor in any log line', () => {
    for (const out of [out1, out2]) for (const f of allFiles(out)) expect(f.text.includes(CANARY), f.path).toBe(false);
    expect(logs.join('\n')).not.toContain(CANARY);
  });

  it("the record holds every request by role; its usage is what the doubles billed, and it is result.json's usage", () => {
    const { agent, judged } = expectRecordIsBilling(out1, model, judge);
    // One clock with the world's events (their wall_t): every app action and reply falls
    // between the model calls, after the call that asked for it, never inside a call.
    for (const k of resultsOf(out1).keys()) {
      const dir = join(out1, k);
      const ev = readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { wall_t: number; fn: string });
      const calls = traffic(dir).filter((l) => l.role === 'agent').sort((x, y) => x.t - y.t);
      expect(ev.length).toBeGreaterThan(0);
      for (const e of ev) {
        expect(typeof e.wall_t).toBe('number');
        expect(calls.some((c) => e.wall_t > c.t && e.wall_t < c.t_end), `${k} ${e.fn} inside a model call`).toBe(false);
        // The user's task is there before the model is asked; every action comes after an answer.
        if (e.fn === 'send_message_to_agent') expect(e.wall_t).toBeLessThan(calls[0]!.t);
        else expect(e.wall_t).toBeGreaterThan(calls[0]!.t_end);
      }
      expect(ev.at(-1)!.wall_t).toBeGreaterThan(calls.at(-1)!.t_end); // the reply follows the last call
    }
  });

  it('the replay with no provider gives the same verdicts and the same judged events', () => {
    const a = resultsOf(out1);
    const b = resultsOf(out2);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, r] of a) {
      expect([k, b.get(k)!.status, b.get(k)!.success]).toEqual([k, r.status, r.success]);
      expect(judgedEvents(join(out2, k))).toEqual(judgedEvents(join(out1, k)));
    }
    const cfg = JSON.parse(readFileSync(join(out2, 'run_1', 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway).toMatchObject({ mode: 'replay', replay_of: out1 });
    expect(replayed.report.model_gateway).toMatchObject({ replayed: replayed.report.model_gateway!.requests });
  });
});

describe('model gateway: a provider that admits one request at a time', () => {
  it('six runs at -j 6 against a provider answering one request at a time in 3 s: zero errors', async () => {
    const model = await startFakeLlm({ format: 'openai-chat', admit: { concurrent: 1, retryAfter: 1 }, respond: (r) => ({ ...phaseModel(CASES)(r), delayMs: 3000 }) });
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-busy-')), 'run');
    try {
      const o = await execute(engine, plan(out, { subset: subset({ execution: ['exec_shopping_bottle_order'] }), baseUrl: model.url, passAt: '6', concurrency: '6', timeout: '600', activityTimeout: '600' }));
      expect(o.results.map((r) => `${r.status}${r.error_kind ? `:${r.error_kind}` : ''}`)).toEqual(Array(6).fill('pass'));
      expect(model.refusals()).toBeGreaterThan(0); // it did refuse: the gateway absorbed it
      expect(o.report.model_gateway).toMatchObject({ gave_up: 0, throttled: model.refusals() });
    } finally {
      await model.close();
    }
  }, 600_000);
});

/** An IPv4 address of this machine that is not loopback (where nothing of a run may listen). */
function outsideAddress(): string {
  const a = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal && !/^10\.(88|2\d\d)\./.test(i.address));
  if (!a) throw new Error('this machine has no non-loopback IPv4 address to test from');
  return a.address;
}

/** What a TCP peer gets: 'refused', or the bytes an HTTP request got before the close ('' = dropped). */
function knock(host: string, port: number, localAddress?: string): Promise<string> {
  return new Promise((resolve) => {
    const c = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    let got = '';
    c.setTimeout(5000, () => c.destroy());
    c.on('connect', () => c.write('GET /anthropic/v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    c.on('data', (d) => (got += d));
    c.on('close', () => resolve(got));
    c.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : got));
  });
}

describe.each(eachEngine())('model gateway on %s', (_kind, e2e) => {
  let eng: UnitBackend;
  beforeAll(async () => {
    eng = await connectE2eEngine(e2e);
  });
  afterAll(async () => {
    await eng?.close();
  });

  describe('the canary key stays out of the containers; the gateway listens only where they reach it', () => {
    const specs: ContainerSpec[] = [];
    const looks: ContainerLook[] = [];
    const logs: string[] = [];
    const reach: Record<string, string> = {};
    let model: FakeLlm;
    let judge: FakeLlm;
    let outcome: ExecuteOutcome;
    let out: string;

    beforeAll(async () => {
      const docker = dockerAt(e2e.host);
      const play = phaseModel(CASES);
      const outside = outsideAddress();
      let looked: Promise<void> | null = null;
      // The first model request: the container runs, its agent waits for this answer. Look
      // inside it, and at who can reach the gateway and its relay, before answering.
      const look = async () => {
        for (const s of specs) looks.push(await lookInside(docker, s.name!));
        const gw = /Model gateway on 127\.0\.0\.1:(\d+)/.exec(logs.join('\n'));
        const relay = /^Relaying .* via (\S+):(\d+)$/m.exec(logs.join('\n'));
        if (!gw || !relay) throw new Error(`no gateway or relay line in the log:\n${logs.join('\n')}`);
        reach.gatewayLoopback = await knock('127.0.0.1', Number(gw[1]!));
        reach.gatewayOutside = await knock(outside, Number(gw[1]!));
        reach.relayFromOutside = await knock(relay[1]!, Number(relay[2]!), outside);
        reach.relayAddress = relay[1]!;
      };
      model = await startFakeLlm({
        format: 'openai-chat',
        respond: async (r) => {
          looked ??= look();
          await looked;
          return play(r);
        },
      });
      judge = await startFakeLlm({ format: 'anthropic', fallback: say('Verdict: [[Success]] / [[True]]', { usage: { input: 900, output: 12 } }) });
      out = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-canary-')), 'run');
      const flags = {
        subset: subset({ search: ['search_email_flight_code'] }), baseUrl: model.url,
        judgeProvider: 'anthropic', judgeModel: 'claude-judge-fake', judgeBaseUrl: judge.url, judgeApiKeyEnv: KEY_VAR,
      };
      try {
        outcome = await execute(spying(eng, specs), plan(out, flags), logs);
      } finally {
        await model.close();
        await judge.close();
      }
    }, 300_000);

    it('the run passes through the gateway; the doubles got the key', () => {
      expect(outcome.results.map((r) => r.status)).toEqual(['pass']);
      expect(outcome.report.model_gateway).toMatchObject({ mode: 'gateway' });
      expect(model.requests.length).toBeGreaterThan(0);
      for (const r of model.requests) expect(r.headers.authorization).toBe(`Bearer ${CANARY}`);
      // (the judge is asked only when a check needs it; its token is checked inside the container)
      for (const r of judge.requests) expect(r.headers['x-api-key']).toBe(CANARY);
    });

    it('what the engine received holds tokens, never the key', async () => {
      expect(specs).toHaveLength(1);
      const [s] = specs;
      expect(JSON.stringify(s)).not.toContain(CANARY);
      for (const f of s!.files ?? []) expect((await contentBytes(f.content)).toString('utf8')).not.toContain(CANARY);
      expect(s!.env.API_KEY).toMatch(/^g2gw-/);
      expect(s!.env.GAIA2_JUDGE_API_KEY).toMatch(/^g2gw-/);
    });

    it('inside the running container: no process environment or command line, no file it wrote holds the key', () => {
      expect(looks).toHaveLength(1);
      const [l] = looks;
      // The look sees what it should: the tokens in the processes' environment, the delivered scenario in the files.
      expect(l!.processes).toContain(specs[0]!.env.API_KEY);
      expect(l!.processes).toContain(specs[0]!.env.GAIA2_JUDGE_API_KEY);
      expect(l!.changed).toBeGreaterThan(0);
      expect(l!.files).toContain('search_email_flight_code');
      expect(l!.processes).not.toContain(CANARY);
      expect(l!.files).not.toContain(CANARY);
    });

    it('the gateway answers on loopback only; its relay drops peers outside the containers\' network', () => {
      expect(reach.gatewayLoopback).toMatch(/^HTTP\/1\.1 401/); // listening there (no token: refused)
      expect(reach.gatewayOutside).toBe('refused'); // nothing listens on the machine's other addresses
      expect(reach.relayAddress).not.toMatch(/^(0\.0\.0\.0|::|127\.)/);
      expect(reach.relayFromOutside).toBe(''); // accepted by the kernel, closed unanswered
    });

    it('the canary is in no file of the run, nor in any log line', () => {
      for (const f of allFiles(out)) expect(f.text.includes(CANARY), f.path).toBe(false);
      expect(logs.join('\n')).not.toContain(CANARY);
    });
  });

  it('a provider that always refuses ends the run with a typed provider_error naming provider and status, in bounded time', async () => {
    const model = await startFakeLlm({ format: 'openai-chat', fallback: { status: 429, retryAfter: 0, message: 'quota exceeded' } });
    const out = join(mkdtempSync(join(tmpdir(), 'gaia2-gw-refuse-')), 'run');
    const p = plan(out, { subset: subset({ execution: ['exec_shopping_bottle_order'] }), baseUrl: model.url });
    p.gateway = { ...p.gateway!, retryAttempts: 4 };
    const t0 = Date.now();
    try {
      const o = await execute(eng, p);
      const [r] = o.results;
      expect(r!.status).toBe('error');
      expect(r!.error_kind).toBe('provider_error');
      expect(r!.error).toMatch(/provider openai-compat answered HTTP 429 \(rate_limit\) on all 4 attempt/);
      expect(r!.provider_failure).toEqual({ provider: 'openai-compat', status: 429 });
      // The gateway's final answer is not retried again by the agent: one give-up, four attempts.
      expect(model.requests).toHaveLength(4);
      expect(Date.now() - t0).toBeLessThan(120_000);
    } finally {
      await model.close();
    }
  }, 300_000);
});
