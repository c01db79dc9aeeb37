// [run] backend and the [kubernetes] table: defaults, every key, and errors that name the key.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { formatSummary } from '../../../runner/src/config/summary.js';
import { writeScenario } from '../dataset/make-scenario.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'k8s-cfg-'));
  writeScenario(join(dir, 's1.json'), 's1');
});
const HEAD = '[target]\nscenario = "s1.json"\n[agent]\nname = "oracle"\n';
const load = (text: string) => {
  writeFileSync(join(dir, 'c.toml'), HEAD + text);
  return loadRunConfig(join(dir, 'c.toml'), {});
};

describe('[run] backend / [kubernetes]', () => {
  it('defaults to the local engine', () => {
    expect(load('').run.backend).toEqual({ kind: 'local' });
  });

  it('kubernetes with defaults, then with every key', () => {
    expect(load('[run]\nbackend = "kubernetes"\n').run.backend).toEqual({
      kind: 'kubernetes',
      kubeconfig: null,
      context: null,
      namespace: null,
      imagePullPolicy: 'IfNotPresent',
      resources: { requests: {}, limits: {} },
      nodeSelector: {},
      tolerations: [],
      serviceAccount: null,
      labels: {},
      pendingTimeout: 300,
      unsealedFallback: false,
    });
    const full = load(`[run]
backend = "kubernetes"
[kubernetes]
kubeconfig = "kube/config"
context = "lab"
namespace = "gaia2-eval"
image_pull_policy = "Always"
service_account = "gaia2-runner"
pending_timeout = 60
unsealed_fallback = true
node_selector = { "kubernetes.io/arch" = "amd64" }
labels = { team = "agents" }
[kubernetes.resources]
requests = { cpu = "500m", memory = "1Gi" }
limits = { memory = "2Gi" }
[[kubernetes.tolerations]]
key = "dedicated"
operator = "Equal"
value = "eval"
effect = "NoSchedule"
toleration_seconds = 30
`).run.backend;
    expect(full).toEqual({
      kind: 'kubernetes',
      kubeconfig: join(dir, 'kube/config'),
      context: 'lab',
      namespace: 'gaia2-eval',
      imagePullPolicy: 'Always',
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } },
      nodeSelector: { 'kubernetes.io/arch': 'amd64' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'eval', effect: 'NoSchedule', tolerationSeconds: 30 }],
      serviceAccount: 'gaia2-runner',
      labels: { team: 'agents' },
      pendingTimeout: 60,
      unsealedFallback: true,
    });
  });

  it('prints the backend in the summary', () => {
    const p = load('[run]\nbackend = "kubernetes"\n[kubernetes]\nnamespace = "ns1"\n');
    expect(formatSummary(p, null).join('\n')).toMatch(/Backend: kubernetes \(namespace ns1, pull IfNotPresent, pending timeout 300s\)/);
  });

  it('rejects unknown keys with a suggestion, in the table and in nested tables', () => {
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\nnamespce = "x"\n')).toThrow(/\[kubernetes\] has unknown field\(s\): namespce \(did you mean "namespace"\?\)/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes.resources]\nrequest = { cpu = "1" }\n')).toThrow(
      /\[kubernetes\.resources\] has unknown field\(s\): request \(did you mean "requests"\?\)/,
    );
    expect(() => load('[run]\nbackend = "kubernetes"\n[[kubernetes.tolerations]]\nefect = "NoSchedule"\n')).toThrow(/\[kubernetes\.tolerations\] has unknown field\(s\): efect \(did you mean "effect"\?\)/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\n[kuberntes]\n')).toThrow(/unknown table\(s\)\/key\(s\): kuberntes \(did you mean "kubernetes"\?\)/);
  });

  it('rejects bad values naming the key', () => {
    expect(() => load('[run]\nbackend = "k8s"\n')).toThrow(/\[run\]\.backend must be one of: local, kubernetes/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\nimage_pull_policy = "always"\n')).toThrow(/\[kubernetes\]\.image_pull_policy must be one of: Always, IfNotPresent, Never/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\nnamespace = "Gaia2_NS"\n')).toThrow(/\[kubernetes\]\.namespace "Gaia2_NS" is not a valid namespace name/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes.resources]\nlimits = { memory = "two gigs" }\n')).toThrow(/\[kubernetes\]\.resources\.limits\.memory: "two gigs" is not a Kubernetes quantity/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\nlabels = { "gaia2.run" = "x" }\n')).toThrow(/keys starting with "gaia2\." are the runner's own/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\nlabels = { team = "a b" }\n')).toThrow(/\[kubernetes\]\.labels\.team: "a b" is not a valid Kubernetes label value/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\npending_timeout = 0\n')).toThrow(/\[kubernetes\]\.pending_timeout must be >= 1/);
    expect(() => load('[run]\nbackend = "kubernetes"\n[kubernetes]\npending_timeout = 1.5\n')).toThrow(/\[kubernetes\]\.pending_timeout must be an integer/);
    // network = "host" is the backend's capability, refused by the run's preflight (test/runner/orchestrator/backend-preflight.test.ts), not here.
    expect(load('[run]\nbackend = "kubernetes"\nnetwork = "host"\n').run.network).toBe('host');
    expect(() => load('[kubernetes]\nnamespace = "x"\n')).toThrow(/\[kubernetes\] is set but \[run\]\.backend is not "kubernetes"/);
  });
});
