// The remote engine of the remote-engine suite: scripts/remote-engine.sh (a podman API service
// in a network namespace, with a TLS front and an sshd). Started when not running, and then
// stopped again at the end, so a machine is left as the suite found it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'remote-engine.sh');

export interface RemoteEngineSettings {
  DOCKER_HOST_TCP: string;
  DOCKER_HOST_TLS: string;
  DOCKER_CERT_PATH: string;
  DOCKER_HOST_SSH: string;
  /** ssh:// with the engine's unix socket path (podman's form). */
  DOCKER_HOST_SSH_SOCKET: string;
  DOCKER_HOST_BLACKHOLE: string;
  GAIA2_SSH_IDENTITY: string;
  GAIA2_SSH_KNOWN_HOSTS: string;
  /** The runner's address on the veth pair (what remote containers reach it by). */
  GAIA2_REMOTE_HOST_SIDE: string;
  /** The engine host's network namespace (for looking from its side). */
  GAIA2_REMOTE_NETNS: string;
}

function parse(out: string): RemoteEngineSettings {
  const kv = Object.fromEntries(out.split('\n').filter((l) => /^[A-Z0-9_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  for (const k of ['DOCKER_HOST_TCP', 'DOCKER_HOST_SSH', 'DOCKER_HOST_TLS']) if (!kv[k]) throw new Error(`remote-engine.sh printed no ${k}:\n${out}`);
  return kv as unknown as RemoteEngineSettings;
}

/** Starts the remote engine (idempotent) with `image` copied in; `startedHere` says whether it was down before. */
export function startRemoteEngine(image: string): { settings: RemoteEngineSettings; startedHere: boolean } {
  const before = spawnSync('bash', [script, 'env'], { encoding: 'utf8' });
  const out = execFileSync('bash', [script, 'start', '--image', image], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 });
  return { settings: parse(out), startedHere: before.status !== 0 };
}

export function stopRemoteEngine(): void {
  execFileSync('bash', [script, 'stop'], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
}

/** Environment for an ssh:// engine: the key and known_hosts the script made. */
export function sshEnv(s: RemoteEngineSettings): Record<string, string> {
  return { DOCKER_HOST: s.DOCKER_HOST_SSH, GAIA2_SSH_IDENTITY: s.GAIA2_SSH_IDENTITY, GAIA2_SSH_KNOWN_HOSTS: s.GAIA2_SSH_KNOWN_HOSTS };
}

/** Environment for an ssh:// engine reached at its unix socket. */
export function sshSocketEnv(s: RemoteEngineSettings): Record<string, string> {
  return { ...sshEnv(s), DOCKER_HOST: s.DOCKER_HOST_SSH_SOCKET };
}

/** Environment for the TLS front with client certificates. */
export function tlsEnv(s: RemoteEngineSettings): Record<string, string> {
  return { DOCKER_HOST: s.DOCKER_HOST_TLS, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: s.DOCKER_CERT_PATH };
}

/** A TCP front on the engine host that records every byte the runner sends to the engine API. */
export interface RecordingFront {
  /** DOCKER_HOST for the front (tcp://<engine host>:<port>). */
  host: string;
  /** Everything received from clients so far. */
  received(): Buffer;
  close(): void;
}

// Runs inside the engine host's network namespace: listen, forward to the engine API, append
// what clients send to a file.
const FRONT = `const net = require('net'), fs = require('fs');
const [host, target, port, file] = process.argv.slice(1);
const s = net.createServer((c) => {
  const u = net.connect(Number(port), target);
  c.on('data', (d) => fs.appendFileSync(file, d));
  const end = () => { c.destroy(); u.destroy(); };
  c.on('error', end).on('close', end); u.on('error', end).on('close', end);
  c.pipe(u); u.pipe(c);
});
s.listen(0, host, () => console.log('PORT ' + s.address().port));`;

export async function startRecordingFront(s: RemoteEngineSettings): Promise<RecordingFront> {
  const api = new URL(s.DOCKER_HOST_TCP.replace(/^tcp:/, 'http:'));
  const file = join(mkdtempSync(join(tmpdir(), 'gaia2-front-')), 'received.bin');
  writeFileSync(file, '');
  const child = spawn('nsenter', [`--net=${s.GAIA2_REMOTE_NETNS}`, process.execPath, '-e', FRONT, api.hostname, api.hostname, api.port, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`the recording front exited (${code}) before listening`)));
  });
  return {
    host: `tcp://${api.hostname}:${port}`,
    received: () => readFileSync(file),
    close: () => void child.kill(),
  };
}
