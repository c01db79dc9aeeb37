// One app CLI call inside a running container (the thin client → world daemon round trip),
// measured inside the container beside `node -e 0` in the same run. Goal (issue B):
// median ≤ 40 ms; the reference's Python CLI needs ~120 ms.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_IMAGE } from '../runner/src/image/index.js';

const image = process.env.GAIA2_BENCH_IMAGE ?? DEFAULT_IMAGE;
const scenario = join(import.meta.dirname, '..', 'examples/scenarios/adaptability/adapt_chats_kenji_sync.json');
const N = Number(process.env.BENCH_N ?? 30);
const podman = (...args: string[]) => execFileSync('podman', args, { encoding: 'utf8' }).trim();

// A scripted agent that does nothing: the world stays up and serves its CLI socket.
const cid = podman(
  'create', '--label', 'gaia2.bench=cli-call', '-e', 'GAIA2_AGENT=scripted', '-e', 'GAIA2_SCRIPT=[]', image,
);
try {
  podman('cp', scenario, `${cid}:/var/gaia2/custom_scenario.json`);
  podman('start', cid);
  for (let i = 0; i < 100; i++) {
    try {
      if (podman('exec', '-u', 'agent', cid, '/home/agent/bin/calendar', 'get-all-tags').startsWith('[')) break;
    } catch {
      /* not ready yet */
    }
    execFileSync('sleep', ['0.1']);
  }
  // Per-call wall times in ms, measured by bash inside the container.
  const timeLoop = (cmd: string) =>
    podman('exec', '-u', 'agent', cid, 'bash', '-c',
      `export PATH=/home/agent/bin:/usr/local/bin:/usr/bin:/bin; for i in $(seq ${N}); do s=$(/bin/date +%s%N); ${cmd} >/dev/null; e=$(/bin/date +%s%N); echo $(( (e-s)/1000 )); done`)
      .split('\n').map((l) => Number(l) / 1000);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // `date` is the agent's sim-clock shim; read real time with /bin/date explicitly.
  const cli = median(timeLoop('calendar get-all-tags').filter(Number.isFinite));
  const node = median(timeLoop('/usr/local/bin/node -e 0').filter(Number.isFinite));
  console.log(`app CLI call (calendar get-all-tags)  median ${cli.toFixed(1)} ms  (n=${N}, goal ≤ 40 ms)`);
  console.log(`node -e 0                             median ${node.toFixed(1)} ms`);
  console.log(`ratio CLI / node -e 0                 ${(cli / node).toFixed(2)}`);
} finally {
  podman('rm', '-f', cid);
}
