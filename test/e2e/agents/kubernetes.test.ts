// Every third-party agent on the kubernetes backend (issue M: every agent on Kubernetes and
// remote engines; issue N: no key in any Pod). `gaia2-runner run-config` with `backend =
// "kubernetes"` and `[agent] name = NAME`, the four at once (a namespace each), against the
// API-server double, whose Pods are played by
// podman from the same image store: a cluster has no image store of ours, so the runner runs
// the layer under its tag (as pushed by `build-image --agent … --push`), here built beforehand.
// Each real program plays the single-turn sample through its own shell tool against a streaming
// double of its provider on the host; the model gateway runs in the cluster (one per run).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '@gaia2/contract';
import { findAdapter } from '../../../runner/src/agents/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { shellDriver, startFakeLlm, type FakeLlm, type ShellDriver } from '../../helpers/fake-llm/index.js';
import { clusterHostAddress, storedText } from '../../helpers/k8s-api-double/client.js';
import { writeKubeconfig } from '../../helpers/k8s-api-double/kubeconfig.js';
import { startDouble, type RunningDouble, type TappedRequest } from '../../helpers/k8s-api-double/server.js';
import { samplePlay, SAMPLES, scenarioFile } from './helpers/agent-samples.js';
import { AGENTS } from './helpers/agents-under-test.js';
import { agentLayerHere, cli, readResults, runEnv, type AgentUnderTest } from './helpers/third-party-run.js';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-agent-e2e-'));
const tapped: TappedRequest[] = [];
let d: RunningDouble;

/** One agent's run on the cluster: its own namespace, provider double and output. */
interface ClusterRun {
  a: AgentUnderTest;
  ns: string;
  out: string;
  layer: string;
  fake: FakeLlm;
  driver: ShellDriver;
  key: string;
  r: { code: number; out: string; err: string };
}
const runs = new Map<string, ClusterRun>();

async function runOnCluster(a: AgentUnderTest, hostIp: string): Promise<ClusterRun> {
  const ns = `gaia2-agent-e2e-${a.name}`;
  const dir = join(work, a.name);
  const out = join(dir, 'out');
  const layer = (await agentLayerHere(image, a.name)).tag;
  const driver = shellDriver(a.shell, samplePlay(SAMPLES.single));
  // The provider double listens where the cluster's network reaches the host: its gateway address.
  const fake = await startFakeLlm({ format: a.shell.format, respond: driver.respond, host: '0.0.0.0' });
  const run = runEnv(a);
  mkdirSync(dir, { recursive: true });
  const toml = join(dir, 'agent-on-k8s.toml');
  writeFileSync(
    toml,
    [
      '[target]',
      `scenario = "${scenarioFile(SAMPLES.single)}"`,
      '[agent]',
      `image = "${image}"`,
      `name = "${a.name}"`,
      `provider = "${a.provider}"`,
      `model = "${a.model}"`,
      `base_url = "${fake.urlFor(hostIp)}"`,
      'api_key_env = "THIRD_PARTY_E2E_KEY"',
      '[run]',
      'backend = "kubernetes"',
      `output_dir = "${out}"`,
      'timeout = 900',
      'health_timeout = 120',
      '[kubernetes]',
      `kubeconfig = "${join(work, 'kubeconfig')}"`,
      `namespace = "${ns}"`,
      'image_pull_policy = "Never"',
      'pending_timeout = 300',
      '',
    ].join('\n'),
  );
  return { a, ns, out, layer, fake, driver, key: run.key, r: await cli(['run-config', toml], run.env) };
}

beforeAll(async () => {
  d = await startDouble({ tap: (q) => void tapped.push(q) });
  writeKubeconfig(join(work, 'kubeconfig'), d.url, d.token, d.ca);
  const hostIp = await clusterHostAddress();
  const agents = Object.values(AGENTS) as AgentUnderTest[];
  for (const a of agents) await agentLayerHere(image, a.name); // one at a time: builds are heavy
  for (const c of await Promise.all(agents.map((a) => runOnCluster(a, hostIp)))) runs.set(c.a.name, c);
}, 1_500_000);

afterAll(async () => {
  for (const c of runs.values()) await c.fake.close();
  await d?.close();
});

const bodyOf = (q: TappedRequest) => Buffer.concat(q.body).toString('utf8');
/** The requests the API server got for one namespace. */
const inNamespace = (ns: string) => tapped.filter((q) => q.url.includes(`/namespaces/${ns}/`));

describe.each(Object.keys(AGENTS))('%s on the kubernetes backend (API-server double, Pods played by podman)', (name) => {
  it('the real program passes the sample in a Pod of its layer, the agent recorded with its version', () => {
    const { a, r, out, layer, driver, fake } = runs.get(name)!;
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    const [res] = readResults(out) as ScenarioResult[];
    expect([res!.status, res!.error ?? null, res!.agent]).toEqual(['pass', null, { name: a.name, version: findAdapter(a.name)!.package.version }]);
    const podImages = inNamespace(runs.get(name)!.ns)
      .filter((q) => q.method === 'POST' && q.url.endsWith('/pods'))
      .map((q) => (JSON.parse(bodyOf(q)) as { spec: { containers: Array<{ image: string }> } }).spec.containers[0]!.image);
    expect(podImages).toContain(layer);
    expect(driver.unplaced).toEqual([]);
    expect(fake.requests.length).toBeGreaterThan(1);
  });

  it("its tokens are the double's billing, counted from the in-cluster gateway's record", () => {
    const { out, fake, key } = runs.get(name)!;
    const [res] = readResults(out);
    const billed = fake.billing();
    expect(res!.usage?.agent).toMatchObject({ source: 'gateway', llm_calls: billed.responses, output_tokens: billed.output, input_tokens: billed.input + billed.cacheRead + billed.cacheWrite });
    for (const q of fake.requests) expect(Object.values(q.headers).some((v) => String(v).includes(key))).toBe(true);
  });

  it("the key reached the cluster only in the gateway's Secret, and is in no file of the run", () => {
    const { out, key } = runs.get(name)!;
    const holding = tapped.filter((q) => storedText(q).includes(key));
    expect(holding.length).toBeGreaterThan(0);
    for (const q of holding) {
      expect(q.url, q.url).toMatch(/\/secrets(\/|$)/);
      expect((JSON.parse(bodyOf(q)) as { metadata: { name: string } }).metadata.name).toMatch(/^gaia2-gw-/);
    }
    for (const f of readdirSync(out, { recursive: true, withFileTypes: true }).filter((x) => x.isFile()))
      expect(readFileSync(join(f.parentPath, f.name), 'utf8').includes(key), f.name).toBe(false);
  });
});
