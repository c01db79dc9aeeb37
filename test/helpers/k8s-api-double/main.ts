// Entry point of the standalone double (scripts/k8s-sandbox.sh runs it in the background):
//   tsx main.ts --kubeconfig PATH [--port N] [--fake] [--prefix k8sd-xxxx] [--state PATH]
// Writes the kubeconfig once it listens, plus a state file {pid, url, prefix}; on SIGTERM or
// SIGINT removes every pod it started and exits.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeKubeconfig } from './kubeconfig.js';
import { FakeRuntime } from './runtime/fake.js';
import { fakeAdapter } from './runtime/fake-adapter.js';
import { startDouble } from './server.js';

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' }, port: { type: 'string' }, fake: { type: 'boolean' },
    prefix: { type: 'string' }, state: { type: 'string' },
  },
});
if (!values.kubeconfig) {
  process.stderr.write('k8s-api-double: --kubeconfig PATH is required\n');
  process.exit(2);
}
const fake = values.fake || process.env.K8SD_FAKE === '1';
const d = await startDouble({
  ...(fake ? { runtime: new FakeRuntime(fakeAdapter()) } : {}),
  ...(values.port ? { port: Number(values.port) } : {}),
  ...(values.prefix ? { prefix: values.prefix } : {}),
});
writeKubeconfig(values.kubeconfig, d.url, d.token, d.ca);
if (values.state) writeFileSync(values.state, JSON.stringify({ pid: process.pid, url: d.url, prefix: d.prefix, runtime: fake ? 'fake' : 'podman' }));
process.stdout.write(`k8s-api-double listening on ${d.url} (${fake ? 'fake' : 'podman'} pods, prefix ${d.prefix})\n`);
let closing = false;
const shutdown = (): void => {
  if (closing) return;
  closing = true;
  void d.close().finally(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
