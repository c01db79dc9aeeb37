// The model gateway on the kubernetes backend, end to end: the API-server double (in process,
// Pods played by podman) runs the gateway as a Deployment + Service from the run's own image,
// our `default` agent and the LLM judge call it by the Service's name, and the provider doubles
// sit on the host (reached from the cluster's network). It proves that the canary provider key
// reaches the provider doubles and, of everything the cluster received, only the gateway's
// Secret; that no scenario Pod holds it (environment of every process, secrets, files); that a
// token of another container or run is refused; that the record reaches the run directory with
// the doubles' billing as usage; that nothing of the run stays in the cluster; and that the run
// replays on the cluster with the doubles stopped, with the same verdicts.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetFlags } from '../../runner/src/config/cli-flags.js';
import type { ContainerSpec } from '../../runner/src/engine/index.js';
import { connectKubernetes } from '../../runner/src/engine/kubernetes/index.js';
import { resolveKubernetes } from '../../runner/src/engine/kubernetes/settings.js';
import type { ExecuteOutcome } from '../../runner/src/orchestrator/index.js';
import type { RunPlan } from '../../runner/src/plan/plan.js';
import { say, startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { clusterHostAddress, storedText } from '../helpers/k8s-api-double/client.js';
import { writeKubeconfig } from '../helpers/k8s-api-double/kubeconfig.js';
import { startDouble, type RunningDouble, type TappedRequest } from '../helpers/k8s-api-double/server.js';
import type { KObject, Pod } from '../helpers/k8s-api-double/types.js';
import { allFiles, expectRecordIsBilling, resultsOf, traffic } from './helpers/run-dir.js';
import { phaseModel } from './helpers/phase-model.js';
import { CANARY, CASES, executeGateway, GATEWAY_IMAGE, gatewayPlan, KEY_VAR, spying, subset } from './helpers/gateway-canary.js';

const run = promisify(execFile);
const image = GATEWAY_IMAGE;
const NS = 'gaia2-gw-e2e';

const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-gw-e2e-'));
const kubeconfigFile = join(work, 'kubeconfig');
let d: RunningDouble;
const tapped: TappedRequest[] = [];
/** Every object the API server stored during the suite (each version of it). */
const objects: Array<{ resource: string; object: KObject }> = [];
/** What each scenario Pod and gateway Pod held while running (podman exec), by Pod name. */
const inside = new Map<string, Promise<string>>();
/** Answers of the gateway to foreign tokens, asked from inside a scenario Pod. */
const foreign: Array<Promise<{ who: string; status: string; body: string }>> = [];
let probe: ((pod: Pod, container: string) => void) | null = null;

const podman = async (args: string[]) => (await run('podman', args, { maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' })).stdout.toString('latin1');
const containerOf = (pod: Pod) => `${d.prefix}-${NS}-${pod.metadata.name}-${pod.spec.containers[0]!.name}`;

/** The environment and command line of every process in the container, and its run-time files. */
/**
 * Everything a Pod's container holds. The double reports a Pod Running as its container starts,
 * and on a busy machine the first exec can come before podman takes one (seen in CI: a short
 * error instead of the look), so a failed exec is tried again for a few seconds.
 */
async function contentsOf(container: string): Promise<string> {
  let last = '';
  for (let i = 0; i < 40; i++) {
    try {
      return await podman([
        'exec', container, 'sh', '-c',
        'for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do cat "$f" 2>/dev/null; echo; done; tar -cf - /run /var/gaia2 /tmp /home /root /etc 2>/dev/null; true',
      ]);
    } catch (e) {
      last = `exec failed: ${(e as Error).message}`;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return last;
}

function plan(out: string, f: Partial<DatasetFlags>): RunPlan {
  const p = gatewayPlan(out, { healthTimeout: '120', ...f });
  p.run.backend = { kind: 'kubernetes', ...resolveKubernetes({ kubeconfig: kubeconfigFile, namespace: NS, image_pull_policy: 'Never', pending_timeout: 300 }, (x) => x) };
  return p;
}

async function execute(p: RunPlan, specs: ContainerSpec[], logs: string[]): Promise<ExecuteOutcome> {
  const engine = await connectKubernetes(p.run.backend as Parameters<typeof connectKubernetes>[0]);
  try {
    return await executeGateway(spying(engine, specs), p, logs);
  } finally {
    await engine.close();
  }
}





async function gone(): Promise<Record<string, number>> {
  const count = () => Object.fromEntries((['pods', 'secrets', 'services', 'deployments'] as const).map((r) => [r, d.ctx.store.list(r, NS).length]));
  for (let i = 0; i < 150; i++) {
    const c = count();
    if (Object.values(c).every((n) => n === 0)) return c;
    await new Promise((r) => setTimeout(r, 200));
  }
  return count();
}

beforeAll(async () => {
  d = await startDouble({ tap: (r) => void tapped.push(r) });
  writeKubeconfig(kubeconfigFile, d.url, d.token, d.ca);
  d.ctx.store.listeners.push((resource, e) => {
    objects.push({ resource, object: structuredClone(e.object) });
    const pod = e.object as Pod;
    if (resource !== 'pods' || pod.status?.phase !== 'Running' || inside.has(pod.metadata.name!)) return;
    const container = containerOf(pod);
    inside.set(pod.metadata.name!, contentsOf(container));
    probe?.(pod, container);
  });
}, 60_000);

afterAll(async () => {
  await d?.close();
});

describe('model gateway on kubernetes: in the cluster, keys only in its Secret, record, replay', () => {
  const specs: ContainerSpec[] = [];
  const replaySpecs: ContainerSpec[] = [];
  const logs: string[] = [];
  let model: FakeLlm;
  let judge: FakeLlm;
  let first: ExecuteOutcome;
  let replayed: ExecuteOutcome;
  let leftAfterFirst: Record<string, number>;
  let leftAfterReplay: Record<string, number>;
  const out1 = join(work, 'run');
  const out2 = join(work, 'replay');

  beforeAll(async () => {
    // The provider doubles listen where the cluster's network reaches the host: its gateway address.
    const hostIp = await clusterHostAddress();
    model = await startFakeLlm({ format: 'openai-chat', respond: phaseModel(CASES), host: '0.0.0.0' });
    judge = await startFakeLlm({ format: 'anthropic', fallback: say('Verdict: [[Success]] / [[True]]', { usage: { input: 900, output: 12 } }), host: '0.0.0.0' });
    const flags = {
      subset: subset({ execution: ['exec_shopping_bottle_order'], search: ['search_email_flight_code'] }),
      baseUrl: model.urlFor(hostIp), judgeProvider: 'anthropic', judgeModel: 'claude-judge-fake', judgeBaseUrl: judge.urlFor(hostIp), judgeApiKeyEnv: KEY_VAR,
    };
    // From the second scenario Pod of the first run (concurrency 1: the first has ended), the
    // first container's token, revoked with its run, is refused.
    probe = (pod, container) => {
      if (pod.metadata.labels?.['gaia2.role'] !== 'unit' || specs.length < 2) return;
      const url = specs[1]!.env.BASE_URL!;
      const token = specs[0]!.env.API_KEY!;
      foreign.push(curl(container, url, token).then((r) => ({ who: 'an ended container of this run', ...r })));
      probe = null;
    };
    try {
      first = await execute(plan(out1, flags), specs, logs);
    } finally {
      await model.close();
      await judge.close();
    }
    leftAfterFirst = await gone();
    // The replay, on the cluster, with the doubles stopped; a token of the first run is refused there.
    probe = (pod, container) => {
      if (pod.metadata.labels?.['gaia2.role'] !== 'unit' || !replaySpecs.length) return;
      foreign.push(curl(container, replaySpecs[0]!.env.BASE_URL!, specs[1]!.env.API_KEY!).then((r) => ({ who: 'a container of another run', ...r })));
      probe = null;
    };
    replayed = await execute(plan(out2, { ...flags, replay: out1 }), replaySpecs, logs);
    leftAfterReplay = await gone();
  }, 900_000);

  it('every run passes, through the gateway in the cluster, named by its Service', () => {
    expect(first.results.map((r) => `${r.status}${r.error ? `: ${r.error}` : ''}`)).toEqual(['pass', 'pass']);
    // sealed Pods (the default network): their agents reached the gateway through the in-Pod filter
    expect(first.results.map((r) => r.network_sealed)).toEqual([true, true]);
    for (const s of specs) expect(s.env.GAIA2_SEAL_ALLOW).toMatch(/^gaia2-gw-[a-z0-9-]+\.gaia2-gw-e2e\.svc:8080$/);
    const cfg = JSON.parse(readFileSync(join(out1, 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway.mode).toBe('gateway');
    expect(logs.some((l) => /Model gateway in the cluster: gaia2-gw-[a-z0-9-]+\.gaia2-gw-e2e\.svc/.test(l))).toBe(true);
    // Named after the run (run_config.json's run_id), so a crashed run's gateway is cleaned up with its units.
    expect(logs.some((l) => l.includes(`Model gateway in the cluster: gaia2-gw-${String(cfg.run_id).toLowerCase()}.`))).toBe(true);
    for (const s of specs) {
      expect(s.env.BASE_URL).toMatch(/^http:\/\/gaia2-gw-[a-z0-9-]+\.gaia2-gw-e2e\.svc:8080\/openai-compat\/v1$/);
      expect(s.env.GAIA2_JUDGE_BASE_URL).toMatch(/^http:\/\/gaia2-gw-[a-z0-9-]+\.gaia2-gw-e2e\.svc:8080\/anthropic$/);
      expect(s.env.API_KEY).toMatch(/^g2gw-/);
    }
    // The gateway ran as a Deployment of the run's image, its Pod made by the Deployment.
    const deployments = objects.filter((o) => o.resource === 'deployments').map((o) => o.object as KObject & { spec: { template: { spec: Pod['spec'] } } });
    expect(deployments.length).toBeGreaterThan(0);
    expect(deployments[0]!.spec.template.spec.containers[0]).toMatchObject({ image, command: ['node', '/opt/gaia2/model-gateway.mjs'] });
    const gwPods = objects.filter((o) => o.resource === 'pods' && o.object.metadata.labels?.['gaia2.gateway']);
    expect(gwPods.every((o) => o.object.metadata.ownerReferences?.[0]?.kind === 'Deployment')).toBe(true);
  });

  it('the canary key reached the provider doubles; of everything the cluster received, only the gateway Secret holds it', () => {
    expect(model.requests.length).toBeGreaterThan(0);
    for (const r of model.requests) expect(r.headers.authorization).toBe(`Bearer ${CANARY}`);
    for (const r of judge.requests) expect(r.headers['x-api-key']).toBe(CANARY);
    const holding = tapped.filter((r) => storedText(r).includes(CANARY) || r.url.includes(CANARY) || JSON.stringify(r.headers).includes(CANARY));
    // One gateway Secret: the first run's (a replay calls no provider, its Secret holds no key).
    expect(holding.map((r) => `${r.method} ${r.url} ${(JSON.parse(Buffer.concat(r.body).toString()) as KObject).metadata.name}`)).toEqual([
      expect.stringMatching(new RegExp(`^POST /api/v1/namespaces/${NS}/secrets gaia2-gw-`)),
    ]);
    // Every stored object (Pods and their specs, unit and run Secrets, Deployments, Services) but that Secret.
    const stored = objects.filter((o) => !(o.resource === 'secrets' && o.object.metadata.labels?.['gaia2.role'] === 'gateway'));
    expect(stored.length).toBeGreaterThan(10);
    for (const o of stored) expect(storedText({ method: '', url: '', headers: {}, body: [Buffer.from(JSON.stringify(o.object))] }).includes(CANARY), `${o.resource}/${o.object.metadata.name}`).toBe(false);
    for (const s of specs) expect(JSON.stringify(s)).not.toContain(CANARY);
  });

  it('no scenario Pod holds it (every process environment, secrets, files); the gateway Pod does', async () => {
    const units = objects.filter((o) => o.resource === 'pods' && o.object.metadata.labels?.['gaia2.role'] === 'unit').map((o) => o.object.metadata.name!);
    const unitNames = [...new Set(units)];
    expect(unitNames).toHaveLength(4); // two scenarios, two runs
    for (const name of unitNames) {
      const text = await inside.get(name)!;
      expect(text.length, name).toBeGreaterThan(10_000);
      expect(text, name).toMatch(/g2gw-/); // its own tokens are there: the look is real
      expect(text.includes(CANARY), name).toBe(false);
    }
    const gatewayPods = [...new Set(objects.filter((o) => o.resource === 'pods' && o.object.metadata.labels?.['gaia2.gateway']).map((o) => o.object.metadata.name!))];
    expect(gatewayPods).toHaveLength(2);
    expect((await inside.get(gatewayPods[0]!)!).includes(CANARY)).toBe(true);
  });

  it('a token of an ended container, or of another run, is refused by the gateway', async () => {
    const answers = await Promise.all(foreign);
    expect(answers.map((a) => [a.who, a.status])).toEqual([
      ['an ended container of this run', '401'],
      ['a container of another run', '401'],
    ]);
    for (const a of answers) expect(a.body).toMatch(/not a token of this run/);
  });

  it("the record reaches the run directory: every request by role, the doubles' billing as usage, result.json's usage", () => {
    const { lines, agent, judged } = expectRecordIsBilling(out1, model, judge);
    expect(first.report.model_gateway).toMatchObject({ mode: 'gateway', requests: lines.length, by_role: { agent: agent.length, judge: judged.length }, gave_up: 0 });
  });

  it('the canary is in no file of either run nor in any log line', () => {
    for (const out of [out1, out2]) for (const f of allFiles(out)) expect(f.text.includes(CANARY), f.path).toBe(false);
    expect(logs.join('\n')).not.toContain(CANARY);
  });

  it('nothing of either run stays in the cluster: no Pod, Secret, Service or Deployment', () => {
    expect(leftAfterFirst).toEqual({ pods: 0, secrets: 0, services: 0, deployments: 0 });
    expect(leftAfterReplay).toEqual({ pods: 0, secrets: 0, services: 0, deployments: 0 });
  });

  it('the replay on the cluster, with the doubles stopped, gives the same verdicts', () => {
    const a = resultsOf(out1);
    const b = resultsOf(out2);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, r] of a) expect([k, b.get(k)!.status, b.get(k)!.success]).toEqual([k, r.status, r.success]);
    const cfg = JSON.parse(readFileSync(join(out2, 'run_config.json'), 'utf8'));
    expect(cfg.model_gateway).toMatchObject({ mode: 'replay', replay_of: out1 });
    expect(replayed.report.model_gateway).toMatchObject({ replayed: replayed.report.model_gateway!.requests });
    expect((replayed.report.model_gateway as { requests: number }).requests).toBe((first.report.model_gateway as { requests: number }).requests);
  });
});

describe('a budget on kubernetes: counted and enforced by the gateway in the cluster', () => {
  it('a scenario run over [run].max_tokens: the call past the cap never reaches the provider, the run is a judged failure (budget)', async () => {
    const hostIp = await clusterHostAddress();
    const model = await startFakeLlm({ format: 'openai-chat', respond: phaseModel(CASES), host: '0.0.0.0' });
    const out = join(work, 'budget');
    const logs: string[] = [];
    let outcome: ExecuteOutcome;
    try {
      // every answer bills at least 110 tokens: the first call meets the cap of 100
      outcome = await execute(plan(out, { subset: subset({ execution: ['exec_shopping_bottle_order'] }), baseUrl: model.urlFor(hostIp), maxRunTokens: '100' }), [], logs);
    } finally {
      await model.close();
    }
    const [r] = outcome.results;
    expect(model.requests, logs.join('\n')).toHaveLength(1);
    expect(r).toMatchObject({ status: 'fail', success: false, budget_exceeded: { limit: 'max_tokens', cap: 100 } });
    expect(r!.failure_reasons).toEqual([expect.stringMatching(/^Budget: this scenario run spent \d+ tokens .*\[run\]\.max_tokens = 100/)]);
    // the gateway in the cluster counted the refusal; the record taken back holds the one call it forwarded
    expect(outcome.report.model_gateway).toMatchObject({ over_budget: expect.any(Number) });
    expect((outcome.report.model_gateway as { over_budget: number }).over_budget).toBeGreaterThanOrEqual(1);
    expect(traffic(join(out, 'execution', 'exec_shopping_bottle_order')).filter((l) => l.role === 'agent')).toHaveLength(1);
    expect(await gone()).toEqual({ pods: 0, secrets: 0, services: 0, deployments: 0 });
  }, 600_000);
});

/** POST to the gateway from inside a scenario Pod with a given token: [status, body]. */
async function curl(container: string, baseUrl: string, token: string): Promise<{ status: string; body: string }> {
  const out = await podman([
    'exec', container, 'curl', '-s', '-m', '20', '-w', '\n%{http_code}', '-H', `authorization: Bearer ${token}`, '-H', 'content-type: application/json',
    '-d', '{"model":"fake-gateway","messages":[{"role":"user","content":"hi"}]}', `${baseUrl}/chat/completions`,
  ]).catch((e: Error) => `${e.message}\n000`);
  const i = out.lastIndexOf('\n');
  return { body: out.slice(0, i), status: out.slice(i + 1).trim() };
}
