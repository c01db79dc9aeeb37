// scripts/k8s-sandbox.sh: start prints a kubeconfig that client-node can use, a second start
// reuses the running double, stop ends it and a second stop is a no-op.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'k8s-sandbox.sh');
const dir = mkdtempSync(join(tmpdir(), 'k8s-sandbox-test-'));
const env = { ...process.env, K8SD_STATE_DIR: dir, K8SD_FAKE: '1' };
const run = (cmd: string): { code: number; out: string } => {
  const r = spawnSync('bash', [script, cmd], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout.trim() };
};

afterAll(() => {
  run('stop');
  rmSync(dir, { recursive: true, force: true });
});

describe('scripts/k8s-sandbox.sh', () => {
  it('starts once, serves the API with the kubeconfig it prints, and stops idempotently', async () => {
    const first = run('start');
    expect(first).toEqual({ code: 0, out: join(dir, 'kubeconfig') });
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { pid: number; url: string; runtime: string };
    expect(state.runtime).toBe('fake');
    expect(run('start')).toEqual(first);
    expect((JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { pid: number }).pid).toBe(state.pid);

    const kc = new KubeConfig();
    kc.loadFromFile(first.out);
    expect(kc.getCurrentCluster()?.server).toBe(state.url);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'probe' }, stringData: { a: 'b' } } });
    expect((await core.listNamespacedSecret({ namespace: 'default' })).items.map((s) => s.metadata?.name)).toEqual(['probe']);

    expect(run('stop').code).toBe(0);
    expect(() => execFileSync('kill', ['-0', String(state.pid)], { stdio: 'ignore' })).toThrow();
    expect(existsSync(join(dir, 'kubeconfig'))).toBe(false);
    expect(run('stop').code).toBe(0);
    expect(run('status').code).toBe(1);
  });
});
