// Runs after the world daemon process has died (started by the entrypoint, as gaia2): makes
// sure daemon_status.json is terminal, with a reason, and keeps answering GET /status and
// /health on the adapter port so the runner learns the outcome at once instead of timing out;
// it also serves the runner's GET /artifacts and POST /shutdown.
import { join } from 'node:path';
import { CONTAINER_PATHS, DEFAULT_ADAPTER_PORT, ENV } from '../contract/paths.js';
import { isTerminal, type DaemonStatus } from '../contract/status.js';
import { oomKills } from '../platform/oom-kills.js';
import { artifactPaths, createAdapterServer, fileBackend, listen, openArtifacts, readArtifacts } from '../adapter/index.js';
import { readStatusFile, writeStatusFile } from '../world/status-file.js';

const env = process.env;
const stateDir = env[ENV.stateDir] || CONTAINER_PATHS.stateDir;
const statusFile = join(stateDir, 'daemon_status.json');
const how = env.GAIA2_DAEMON_EXIT || 'unknown exit';

const last = readStatusFile(statusFile);
if (!isTerminal(last)) {
  // SIGKILL with the container's memory cgroup counting a kill: the kernel took it for the
  // unit's memory limit (the kind Kubernetes gives a Pod it kills so).
  const oom = how === 'killed by signal 9' && (oomKills() ?? 0) > 0;
  const s: DaemonStatus = {
    ...(last ?? { turn: 0, nb_turns: 1, num_events: 0 }),
    status: 'error',
    reason: `world daemon exited unexpectedly (${how}${oom ? ', out of memory: the kernel killed it for the unit\'s memory limit' : ''}) while ${last ? `status was ${last.status}` : 'setting up'}`,
    ...(oom ? { error_kind: 'oom_killed' } : {}),
  };
  writeStatusFile(statusFile, s);
  process.stderr.write(`gaia2-status: wrote terminal status: ${s.reason}\n`);
}

const { server } = createAdapterServer({
  backend: fileBackend(statusFile),
  token: env[ENV.adapterToken] || null,
  artifacts: () => readArtifacts(artifactPaths(env)),
  artifactsTar: () => openArtifacts(artifactPaths(env)),
  // This process is the container's PID 1 by now: exiting ends the container.
  onShutdown: () => process.exit(0),
});
listen(server, Number(env[ENV.adapterPort] || DEFAULT_ADAPTER_PORT)).catch((e: unknown) => {
  process.stderr.write(`gaia2-status: cannot listen: ${(e as Error).message}\n`);
  process.exit(1);
});
