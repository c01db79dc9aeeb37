// The sealed network on the kubernetes backend (issue T, item 1): the API-server double runs
// the run's Pods in podman (the Pod's container securityContext, NET_ADMIN included, reaches
// podman as is). Our LLM agent, driven by a scripted provider on the host through the model
// gateway in the cluster, runs probe commands in its shell tool as the user agent. Sealed, it
// cannot reach a web server on the host (which root in the same Pod reaches: the path exists,
// the filter refuses it) while the gateway and its world's CLI work; the double received the
// run's NetworkPolicy and holds nothing of it afterwards. In a namespace whose Pod Security
// admission refuses NET_ADMIN, `unsealed_fallback` runs the same probe unsealed, and the host
// server answers.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planFromRunFlags } from '../../runner/src/config/cli-flags.js';
import { resolveDataset } from '../../runner/src/dataset/index.js';
import { connectKubernetes } from '../../runner/src/engine/kubernetes/index.js';
import { resolveKubernetes } from '../../runner/src/engine/kubernetes/settings.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { executePlan } from '../../runner/src/orchestrator/index.js';
import { runScenario, type ScenarioRunOptions } from '../../runner/src/run/index.js';
import { SHELL_TOOL_NAME } from '../../agent-image/src/agents/default/shell-tool.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm/index.js';
import { shellDriver, shellExchanges } from '../helpers/fake-llm/shell-driver.js';
import { clusterHostAddress } from '../helpers/k8s-api-double/client.js';
import { writeKubeconfig } from '../helpers/k8s-api-double/kubeconfig.js';
import { startDouble, type RunningDouble } from '../helpers/k8s-api-double/server.js';
import type { KObject, NetworkPolicy, Pod } from '../helpers/k8s-api-double/types.js';
import { oraclePlay, scriptFor } from './helpers/oracle-llm-script.js';
import { TEST_LABEL } from './helpers/llm-run.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const KEY_VAR = 'K8S_SEALED_E2E_API_KEY';
const hostEnv = { [KEY_VAR]: 'sk-k8s-sealed-e2e-0123456789abcdef' };
const SCENARIO = 'execution/exec_shopping_bottle_order.json';
const SEALED_NS = 'gaia2-sealed';
const BASELINE_NS = 'gaia2-baseline';
const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-sealed-e2e-'));
const podman = async (args: string[]) => (await promisify(execFile)('podman', args)).stdout;

/** One probe line per target: `NAME code=HTTP rc=EXIT` (curl: 7 = refused, 28 = timed out). */
const probe = (name: string, url: string) => `curl -s -m 4 -o /dev/null -w '${name} code=%{http_code}' ${url}; echo " rc=$?"`;

type Seen = { results: string[]; statuses: string[]; sealed: unknown[]; requests: number; logs: string[] };

let d: RunningDouble;
let hostServer: Server;
let hostUrl = '';
const fakes: FakeLlm[] = [];
const seen: Partial<Record<'sealed' | 'fallback', Seen>> = {};
/** Every object the double stored, each version of it. */
const objects: Array<{ resource: string; object: KObject }> = [];
/** What root saw in the sealed namespace's scenario Pod: the host server's answer and the filter's rules. */
let rootLook: Promise<string> | null = null;

/** As root in the Pod's container, once the entrypoint's rules are in: the filter and the host server. */
async function lookAsRoot(container: string): Promise<string> {
  const tries = new Set<string>();
  for (let i = 0; i < 60; i++) {
    const last = await podman(['exec', container, 'sh', '-c', `iptables -S OUTPUT; curl -s -m 4 -o /dev/null -w 'root code=%{http_code}' ${hostUrl}; echo " rc=$?"`]).catch((e: Error) => `exec failed: ${e.message}`);
    if (/--reject-with tcp-reset/.test(last) && /root code=/.test(last)) return last;
    tries.add(last);
    await new Promise((r) => setTimeout(r, 250));
  }
  return [...tries].join('\n---\n');
}

async function runIn(which: 'sealed' | 'fallback', hostIp: string): Promise<void> {
  const play = oraclePlay(join(root, 'test/fixtures/golden/cases/exec_shopping_bottle_order/oracle.events.jsonl'));
  const cli = (scriptFor(play, 'shell')[0]!.toolCalls![0]!.args as { command: string }).command;
  const ns = which === 'sealed' ? SEALED_NS : BASELINE_NS;
  const commands = [
    'id -un',
    probe('host', hostUrl),
    // this run's gateway by its Service's name, from the Pod's hosts file (the double's cluster
    // DNS, which also names the other namespace's gateway)
    probe('gateway', `"http://$(grep -o 'gaia2-gw-[a-z0-9-]*\\.${ns}\\.svc' /etc/hosts | head -1):8080/"`),
    `${cli} >/dev/null; echo "cli rc=$?"`,
  ];
  const driver = shellDriver({ format: 'anthropic', tool: SHELL_TOOL_NAME, args: (command) => ({ command }) }, [{ when: '', commands, reply: 'Done.' }]);
  const fake = await startFakeLlm({ format: 'anthropic', respond: (req) => driver.respond(req), host: '0.0.0.0' });
  fakes.push(fake);
  const out = join(work, which);
  const plan = planFromRunFlags(
    { image, runtime: 'podman', adapterPort: '8090', timeout: '120', healthTimeout: '90', activityTimeout: '90', thinking: 'off', logLevel: 'INFO', notificationMode: 'message', network: 'bridge', agent: 'default', provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKeyEnv: KEY_VAR, baseUrl: fake.urlFor(hostIp), scenario: join(root, 'examples/scenarios', SCENARIO), outputDir: out },
    hostEnv,
  );
  plan.run.backend = { kind: 'kubernetes', ...resolveKubernetes({ kubeconfig: join(work, 'kubeconfig'), namespace: ns, image_pull_policy: 'Never', pending_timeout: 120, ...(which === 'fallback' ? { unsealed_fallback: true } : {}) }, (x) => x) };
  const engine = await connectKubernetes(plan.run.backend as Parameters<typeof connectKubernetes>[0]);
  const logs: string[] = [];
  try {
    const ds = await resolveDataset(plan.target, { env: hostEnv });
    await executePlan(plan, ds, {
      engine,
      hostEnv,
      progress: { start() {}, done() {}, stop() {}, log: (l) => void logs.push(l) },
      runScenario: (o: ScenarioRunOptions) => runScenario({ ...o, env: { ...o.env, GAIA2_AGENT_TOOLS: 'shell' }, labels: { ...o.labels, ...TEST_LABEL } }),
      gatewayBackoff: { baseDelayMs: 200, maxDelayMs: 2000 },
    });
  } finally {
    await engine.close();
  }
  const last = fake.requests.at(-1)!;
  const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string; network_sealed?: boolean });
  seen[which] = { results: shellExchanges('anthropic', last.body, SHELL_TOOL_NAME).map((x) => x.result ?? ''), statuses: lines.map((l) => l.status), sealed: lines.map((l) => l.network_sealed), requests: fake.requests.length, logs };
}

const stored = (resource: string, ns: string) => objects.filter((o) => o.resource === resource && o.object.metadata.namespace === ns).map((o) => o.object);

beforeAll(async () => {
  d = await startDouble({ podSecurity: { [BASELINE_NS]: 'baseline' } });
  writeKubeconfig(join(work, 'kubeconfig'), d.url, d.token, d.ca);
  const hostIp = await clusterHostAddress();
  hostServer = createServer((_q, r) => r.end('host-server'));
  await new Promise<void>((r) => hostServer.listen(0, '0.0.0.0', r));
  hostUrl = `http://${hostIp}:${(hostServer.address() as AddressInfo).port}/`;
  d.ctx.store.listeners.push((resource, e) => {
    objects.push({ resource, object: structuredClone(e.object) });
    const pod = e.object as Pod;
    if (resource !== 'pods' || rootLook || pod.metadata.namespace !== SEALED_NS || pod.metadata.labels?.['gaia2.role'] !== 'unit' || pod.status?.phase !== 'Running') return;
    rootLook = lookAsRoot(`${d.prefix}-${SEALED_NS}-${pod.metadata.name}-${pod.spec.containers[0]!.name}`);
  });
  await Promise.all([runIn('sealed', hostIp), runIn('fallback', hostIp)]);
}, 240_000);

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await new Promise<void>((r) => (hostServer ? hostServer.close(() => r()) : r()));
  await d?.close();
});

describe('sealed network on the kubernetes backend', () => {
  it('the Pod adds NET_ADMIN; its agent reaches the gateway and its world, not the host web server that root in the Pod reaches', async () => {
    const s = seen.sealed!;
    expect(s.statuses).toHaveLength(1);
    expect(s.statuses[0]).not.toBe('error');
    expect(s.sealed).toEqual([true]);
    expect(s.requests).toBeGreaterThanOrEqual(5); // every model call of the agent went through the gateway
    const text = s.results.join('\n');
    expect(text).toMatch(/^agent$/m);
    expect(text).toMatch(/host code=000 rc=7\b/);
    expect(text).toMatch(/gateway code=[1-5]\d\d rc=0\b/);
    expect(text).toMatch(/cli rc=0\b/);
    const look = await rootLook!;
    // the agent's rules in the Pod's network namespace: loopback, the gateway's port, the rest refused
    expect(look).toMatch(/-A OUTPUT -o lo -m owner --uid-owner (\d+) -j ACCEPT/);
    expect(look).toMatch(/-A OUTPUT -d [\d.]+\/32 -p tcp -m owner --uid-owner \d+ -m tcp --dport 8080 -j ACCEPT/);
    expect(look).toMatch(/-A OUTPUT -p tcp -m owner --uid-owner \d+ -j REJECT --reject-with tcp-reset/);
    expect(look).toMatch(/root code=200 rc=0/);
    const pod = stored('pods', SEALED_NS).find((o) => o.metadata.labels?.['gaia2.role'] === 'unit') as Pod;
    expect(pod.spec.containers[0]!.securityContext).toEqual({ capabilities: { add: ['NET_ADMIN'] } });
    expect(pod.spec.containers[0]!.env).toContainEqual({ name: 'GAIA2_SEAL_ALLOW', value: expect.stringMatching(new RegExp(`^gaia2-gw-[a-z0-9-]+\\.${SEALED_NS}\\.svc:8080$`)) });
  });

  it("the double received the run's NetworkPolicy (its Pods; the gateway's Pods and DNS out), and it went with the run", () => {
    const [policy] = stored('networkpolicies', SEALED_NS) as NetworkPolicy[];
    const pod = stored('pods', SEALED_NS).find((o) => o.metadata.labels?.['gaia2.role'] === 'unit')!;
    expect(policy!.spec.podSelector.matchLabels).toEqual({ 'gaia2.run': pod.metadata.labels!['gaia2.run'], 'gaia2.role': 'unit' });
    const gwPod = stored('pods', SEALED_NS).find((o) => o.metadata.labels?.['gaia2.gateway'])!;
    expect(policy!.spec.egress).toEqual([
      { to: [{ podSelector: { matchLabels: { 'gaia2.gateway': gwPod.metadata.labels!['gaia2.gateway'] } } }], ports: [{ port: 8080, protocol: 'TCP' }] },
      { ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }] },
    ]);
    expect(policy!.spec.ingress).toEqual([{ ports: [{ port: 8090, protocol: 'TCP' }] }]);
    for (const ns of [SEALED_NS, BASELINE_NS]) expect(d.ctx.store.list('networkpolicies', ns)).toEqual([]);
  });

  it('a namespace that refuses NET_ADMIN, with unsealed_fallback: the run goes on unsealed, says so, and the same probe reaches the host', () => {
    const s = seen.fallback!;
    expect(s.statuses[0]).not.toBe('error');
    expect(s.sealed).toEqual([false]);
    expect(s.logs.join('\n')).toMatch(/Sealed network: not on this cluster: the cluster refused NET_ADMIN \(.*violates PodSecurity "baseline:latest"/);
    const text = s.results.join('\n');
    expect(text).toMatch(/^agent$/m);
    expect(text).toMatch(/host code=200 rc=0\b/);
    expect(text).toMatch(/gateway code=[1-5]\d\d rc=0\b/);
    expect(text).toMatch(/cli rc=0\b/);
    const pod = stored('pods', BASELINE_NS).find((o) => o.metadata.labels?.['gaia2.role'] === 'unit') as Pod;
    expect(pod.spec.containers[0]!.securityContext).toBeUndefined();
    expect(pod.spec.containers[0]!.env!.map((e) => e.name)).not.toContain('GAIA2_SEAL_ALLOW');
  });
});
