// A third-party agent on the kubernetes backend (issue M: every agent on Kubernetes and remote
// engines; issue N: no key in any Pod). `gaia2-runner run-config` with `backend = "kubernetes"`
// and `[agent] name = "claude-code"` against the API-server double, whose Pods are played by
// podman from the same image store: a cluster has no image store of ours, so the runner runs
// the layer under its tag (as pushed by `build-image --agent … --push`), here built beforehand.
// The real Claude Code plays the single-turn sample through its Bash tool against a streaming
// Anthropic double on the host; the model gateway runs in the cluster.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../../agent-image/src/contract/index.js';
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
const a: AgentUnderTest = AGENTS['claude-code'];
const version = findAdapter(a.name)!.package.version;
const NS = 'gaia2-agent-e2e';

const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-agent-e2e-'));
const out = join(work, 'out');
const tapped: TappedRequest[] = [];
let d: RunningDouble;
let fake: FakeLlm;
let driver: ShellDriver;
let layer: string;
let key: string;
let r: { code: number; out: string; err: string };

beforeAll(async () => {
  layer = (await agentLayerHere(image, a.name)).tag;
  d = await startDouble({ tap: (q) => void tapped.push(q) });
  writeKubeconfig(join(work, 'kubeconfig'), d.url, d.token, d.ca);
  // The provider double listens where the cluster's network reaches the host: its gateway address.
  const hostIp = await clusterHostAddress();
  driver = shellDriver(a.shell, samplePlay(SAMPLES.single));
  fake = await startFakeLlm({ format: a.shell.format, respond: driver.respond, host: '0.0.0.0' });
  const run = runEnv(a);
  key = run.key;
  const toml = join(work, 'agent-on-k8s.toml');
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
      'timeout = 400',
      'health_timeout = 120',
      '[kubernetes]',
      `kubeconfig = "${join(work, 'kubeconfig')}"`,
      `namespace = "${NS}"`,
      'image_pull_policy = "Never"',
      'pending_timeout = 300',
      '',
    ].join('\n'),
  );
  r = await cli(['run-config', toml], run.env);
}, 1_200_000);

afterAll(async () => {
  await fake?.close();
  await d?.close();
});

const bodyOf = (q: TappedRequest) => Buffer.concat(q.body).toString('utf8');


describe('claude-code on the kubernetes backend (API-server double, Pods played by podman)', () => {
  it('the real program passes the sample in a Pod of its layer, the agent recorded with its version', () => {
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    const [res] = readResults(out) as ScenarioResult[];
    expect([res!.status, res!.error ?? null, res!.agent]).toEqual(['pass', null, { name: a.name, version }]);
    const podImages = tapped.filter((q) => q.method === 'POST' && q.url.endsWith('/pods')).map((q) => (JSON.parse(bodyOf(q)) as { spec: { containers: Array<{ image: string }> } }).spec.containers[0]!.image);
    expect(podImages).toContain(layer);
    expect(driver.unplaced).toEqual([]);
    expect(fake.requests.length).toBeGreaterThan(2);
  });

  it("its tokens are the double's billing, counted from the in-cluster gateway's record", () => {
    const [res] = readResults(out);
    const billed = fake.billing();
    expect(res!.usage?.agent).toMatchObject({ source: 'gateway', llm_calls: billed.responses, output_tokens: billed.output, input_tokens: billed.input + billed.cacheRead + billed.cacheWrite });
    for (const q of fake.requests) expect(String(q.headers['x-api-key'])).toContain(key);
  });

  it("the key reached the cluster only in the gateway's Secret, and is in no file of the run", () => {
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
