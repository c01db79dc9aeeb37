// Runs each Pod for real: `podman kube play` of the Pod's own spec (see podman-translate.ts
// for the few adaptations), on a bridge network the double owns, so every Pod gets its own IP
// like on a cluster. Container state is observed by polling `podman ps` for this instance's
// containers and inspecting the ones that changed.
import { execFile } from 'node:child_process';
import { chmod, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { podman, podmanOk } from './podman-cli.js';
import { playedPod, playedSecret } from './podman-translate.js';
import type { Observation, PodRuntime } from './types.js';
import type { ContainerState, Pod, Secret } from '../types.js';

export const NETWORK = 'k8sd-net';
const PULL_BACKOFF_MS = [2_000, 5_000, 10_000, 20_000, 40_000];

interface Tracked {
  podmanName: string;
  container: string;
  secrets: string[];
  report: (o: Observation) => void;
  last: string;
  /** The container's line in the last `podman ps` (a change triggers an inspect). */
  ps?: string;
  stopped: boolean;
  /** The container has a memory limit (so an exit by SIGKILL may be the OOM killer's). */
  memoryLimited: boolean;
  /** Set while secrets are made and the pod is played: a removal waits for it (bounded). */
  creating?: Promise<void>;
  /** Host PID and id of the running container's main process (from the inspect that saw it run). */
  pid?: { pid: number; id: string };
}

interface InspectedContainer {
  Id: string;
  ImageName?: string;
  Image: string;
  State: { Status: string; ExitCode: number; OOMKilled: boolean; StartedAt: string; FinishedAt: string; Error?: string; Pid?: number };
  NetworkSettings?: { IPAddress?: string; Networks?: Record<string, { IPAddress?: string }> };
}

const iso = (t: string | undefined): string => {
  const d = t ? new Date(t.replace(/ \+0000 UTC$/, 'Z').replace(/ UTC$/, '')) : new Date();
  return (Number.isNaN(d.getTime()) ? new Date() : d).toISOString().replace(/\.\d+Z$/, 'Z');
};

function observe(c: InspectedContainer): Observation {
  const s = c.State;
  let state: ContainerState;
  if (s.Status === 'running' || s.Status === 'paused') state = { running: { startedAt: iso(s.StartedAt) } };
  else if (s.Status === 'exited' || s.Status === 'stopped') {
    const reason = s.OOMKilled ? 'OOMKilled' : s.ExitCode === 0 ? 'Completed' : 'Error';
    state = { terminated: { exitCode: s.ExitCode, reason, startedAt: iso(s.StartedAt), finishedAt: iso(s.FinishedAt), containerID: `podman://${c.Id}` } };
  } else state = { waiting: { reason: 'ContainerCreating' } };
  const ip = c.NetworkSettings?.Networks?.[NETWORK]?.IPAddress || c.NetworkSettings?.IPAddress || undefined;
  return { state, ...(ip ? { podIP: ip } : {}), imageID: c.Image, containerID: `podman://${c.Id}` };
}

/**
 * Podman 4.3 on cgroup v1 does not record OOMKilled (its State.OOMKilled stays false), but
 * the kernel logs every memory-cgroup OOM kill with the container's cgroup (libpod-<id>), so
 * the double reads the kernel log when a container ends with SIGKILL's exit code.
 */
async function oomKilledByKernel(containerId: string, memoryLimited: boolean): Promise<boolean> {
  // The record can trail the exit by a moment on a busy machine: a container with a memory
  // limit gets a few more looks.
  for (let look = 0; look < (memoryLimited ? 5 : 1); look++) {
    if (look) await new Promise((r) => setTimeout(r, 400));
    const log = await new Promise<string>((resolve) => {
      execFile('dmesg', { maxBuffer: 32 * 1024 * 1024 }, (err, out) => resolve(err ? '' : String(out)));
    });
    if (log.split('\n').some((l) => l.includes('oom-kill:') && l.includes(`libpod-${containerId}`))) return true;
  }
  return false;
}

/**
 * Podman 4.3 writes secret volume files 0644 whatever defaultMode or items[].mode say; the
 * double sets the modes in the volume (created, not yet started). Returns an error text or ''.
 */
async function applySecretModes(pod: Pod, secretNames: Map<string, string>): Promise<string> {
  for (const v of pod.spec.volumes ?? []) {
    const name = secretNames.get(v.name);
    if (!v.secret || !name) continue;
    const r = await podman(['volume', 'inspect', '--format', '{{.Mountpoint}}', name]);
    if (r.code !== 0) return r.stderr;
    const dir = r.stdout.trim();
    const modes = new Map((v.secret.items ?? []).filter((i) => i.mode !== undefined).map((i) => [i.path, i.mode!]));
    for (const f of await readdir(dir)) await chmod(join(dir, f), modes.get(f) ?? v.secret.defaultMode ?? 0o644);
  }
  return '';
}

export class PodmanRuntime implements PodRuntime {
  readonly name = 'podman';
  private readonly pods = new Map<string, Tracked>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private network: Promise<void> | undefined;

  /** `prefix` names everything this instance creates (pods, containers, secrets, volumes). */
  constructor(readonly prefix: string, private readonly pollMs = 1000) {}

  private podmanName(pod: Pod): string {
    return `${this.prefix}-${pod.metadata.namespace}-${pod.metadata.name}`.slice(0, 200);
  }

  private ensureNetwork(): Promise<void> {
    this.network ??= (async () => {
      if ((await podman(['network', 'exists', NETWORK])).code === 0) return;
      const r = await podman(['network', 'create', '--label', 'k8sd=1', NETWORK]);
      if (r.code !== 0 && !/already exists/.test(r.stderr)) throw new Error(`podman network create ${NETWORK}: ${r.stderr.trim()}`);
    })();
    return this.network;
  }

  /** Finds the image locally or pulls it; reports ErrImagePull/ImagePullBackOff until it succeeds or the pod goes. */
  private async resolveImage(pod: Pod, t: Tracked): Promise<boolean> {
    const c = pod.spec.containers[0]!;
    const present = (await podman(['image', 'exists', c.image])).code === 0;
    const policy = c.imagePullPolicy ?? (/:latest$|^[^:]*$/.test(c.image.split('/').pop()!) ? 'Always' : 'IfNotPresent');
    if (present && policy !== 'Always') return true;
    if (policy === 'Never') {
      t.report({ state: { waiting: { reason: 'ErrImageNeverPull', message: `Container image "${c.image}" is not present with pull policy of Never` } } });
      return false;
    }
    for (let attempt = 0; !t.stopped; attempt++) {
      const r = await podman(['pull', '--quiet', c.image], { timeoutMs: 60_000 });
      if (r.code === 0) return true;
      if (t.stopped) return false;
      const why = r.stderr.trim().split('\n').pop() ?? 'pull failed';
      t.report({ state: { waiting: { reason: 'ErrImagePull', message: `failed to pull and unpack image "${c.image}": ${why}` } } });
      await new Promise((res) => setTimeout(res, 1_000));
      if (t.stopped) return false;
      t.report({ state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image}"` } } });
      await new Promise((res) => setTimeout(res, PULL_BACKOFF_MS[Math.min(attempt, PULL_BACKOFF_MS.length - 1)]));
    }
    return false;
  }

  async start(pod: Pod, secrets: Map<string, Secret>, report: (o: Observation) => void): Promise<void> {
    const podmanName = this.podmanName(pod);
    const t: Tracked = { podmanName, container: `${podmanName}-${pod.spec.containers[0]!.name}`, secrets: [], report, last: '', stopped: false,
      memoryLimited: !!pod.spec.containers[0]!.resources?.limits?.memory };
    this.pods.set(pod.metadata.uid!, t);
    await this.ensureNetwork();
    if (!(await this.resolveImage(pod, t)) || t.stopped) return;
    let created: () => void = () => {};
    t.creating = new Promise((r) => { created = r; });
    try {
      await this.create(pod, t, secrets, report);
    } finally {
      created();
    }
  }

  /** Secrets, play (stopped), secret file modes, start. */
  private async create(pod: Pod, t: Tracked, secrets: Map<string, Secret>, report: (o: Observation) => void): Promise<void> {
    const podmanName = t.podmanName;
    const secretNames = new Map<string, string>();
    for (const [i, v] of (pod.spec.volumes ?? []).entries()) {
      if (!v.secret) continue;
      const name = `${this.prefix}-s-${pod.metadata.uid!.slice(0, 8)}-${i}`;
      const s = playedSecret(name, v, secrets.get(v.secret.secretName)!);
      await podman(['secret', 'rm', name]);
      await podman(['volume', 'rm', '-f', name]);
      await podmanOk(['secret', 'create', '--label', `k8sd=${this.prefix}`, name, '-'], { stdin: s.document });
      t.secrets.push(name);
      secretNames.set(v.name, name);
    }
    if (t.stopped) return;
    // Created stopped, so the secret files can get their modes before the container reads them.
    const play = await podman(['kube', 'play', '--quiet', '--start=false', '--network', NETWORK, '-'], { stdin: playedPod(pod, podmanName, secretNames), timeoutMs: 300_000 });
    let failure = play.code !== 0 ? play.stderr : '';
    if (!failure) failure = await applySecretModes(pod, secretNames);
    if (!failure) {
      // A kubelet retries a failed start; so does the double, a few times.
      for (let i = 0; i < 3 && !t.stopped; i++) {
        const r = await podman(['pod', 'start', podmanName]);
        failure = r.code === 0 ? '' : r.stderr;
        if (!failure) break;
        await new Promise((res) => setTimeout(res, 500));
      }
    }
    if (failure && !t.stopped) {
      // The container never started (bad command, bad spec, ...): a kubelet reports that as a
      // terminated container with reason StartError and exit code 128.
      t.last = 'terminated';
      report({ state: { terminated: { exitCode: 128, reason: 'StartError', message: failure.trim().slice(-500), finishedAt: iso(undefined) } } });
      return;
    }
    await this.refresh(t);
    this.schedulePoll();
  }

  private async refresh(t: Tracked): Promise<void> {
    const r = await podman(['container', 'inspect', t.container]);
    if (r.code !== 0 || t.stopped) return;
    const [c] = JSON.parse(r.stdout) as InspectedContainer[];
    if (!c) return;
    // Podman 4.3 reports a container that just ended as `stopped` before `exited`; both are its
    // end (observe() says terminated), so both get the OOM look, or a kill by the OOM killer
    // seen while `stopped` would be reported as a plain Error for good.
    const ended = c.State.Status === 'exited' || c.State.Status === 'stopped';
    if (ended && c.State.ExitCode === 137 && !c.State.OOMKilled) c.State.OOMKilled = await oomKilledByKernel(c.Id, t.memoryLimited);
    t.pid = c.State.Status === 'running' && c.State.Pid ? { pid: c.State.Pid, id: c.Id } : undefined;
    const o = observe(c);
    if (c.State.Status === 'created' && c.State.Error) {
      o.state = { terminated: { exitCode: 128, reason: 'StartError', message: c.State.Error, finishedAt: iso(undefined) } };
    }
    const key = JSON.stringify(o);
    if (key !== t.last) { t.last = key; t.report(o); }
  }

  private schedulePoll(): void {
    if (this.timer) return;
    this.timer = setInterval(() => { void this.poll(); }, this.pollMs);
    this.timer.unref();
  }

  /** One `podman ps` for all of this instance's containers; inspects only those whose state changed. */
  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const live = [...this.pods.values()].filter((t) => !t.stopped && !t.last.includes('"terminated"'));
      if (!live.length) { clearInterval(this.timer); this.timer = undefined; return; }
      const r = await podman(['ps', '-a', '--filter', `name=^${this.prefix}-`, '--format', '{{.Names}} {{.State}} {{.ExitCode}}']);
      const seen = new Map(r.stdout.trim().split('\n').filter(Boolean).map((l) => { const [n, ...rest] = l.split(' '); return [n!, rest.join(' ')]; }));
      await Promise.all(live.map(async (t) => {
        const s = seen.get(t.container);
        if (s === undefined || s !== t.ps) {
          t.ps = s;
          await this.refresh(t);
        }
      }));
    } finally {
      this.polling = false;
    }
  }

  /**
   * `podman start` of the ended container: the pod's infra container keeps its network, so its
   * IP stays. The poll leaves the container alone meanwhile (its last report is its end).
   */
  async restart(pod: Pod): Promise<void> {
    const t = this.pods.get(pod.metadata.uid!);
    if (!t || t.stopped) return;
    // Podman 4.3 refuses a start while it still cleans up after the exit ("container state
    // improper"); a kubelet retries a failed start, so the double tries for a few seconds.
    let failure = '';
    for (let i = 0; i < 10 && !t.stopped; i++) {
      const r = await podman(['start', t.container]);
      failure = r.code === 0 ? '' : r.stderr;
      if (!failure) break;
      await new Promise((res) => setTimeout(res, 500));
    }
    if (t.stopped) return;
    if (failure) {
      const o: Observation = { state: { terminated: { exitCode: 128, reason: 'StartError', message: failure.trim().slice(-500), finishedAt: iso(undefined) } } };
      t.last = JSON.stringify(o);
      t.report(o);
      return;
    }
    t.ps = undefined; // watched again: the poll skips ended containers
    await this.refresh(t);
    this.schedulePoll();
  }

  async kill(pod: Pod): Promise<void> {
    const t = this.pods.get(pod.metadata.uid!);
    if (!t) return;
    // A signal to the main process lands at once; `podman kill` takes a CLI start (0.1–0.3 s on
    // a busy machine), long enough for a fast scenario run to finish before the kill.
    // The PID is signalled only while its cgroup still names the container (never a reused PID).
    let signalled = false;
    const cgroup = t.pid ? await readFile(`/proc/${t.pid.pid}/cgroup`, 'utf8').catch(() => '') : '';
    if (t.pid && cgroup.includes(`libpod-${t.pid.id}`)) {
      try {
        process.kill(t.pid.pid, 'SIGKILL');
        signalled = true;
      } catch {
        // gone already: the engine's kill says what there is to say
      }
    }
    if (!signalled) await podman(['kill', '--signal', 'KILL', t.container]);
    await this.refresh(t);
  }

  async remove(pod: Pod, graceSeconds: number): Promise<void> {
    const t = this.pods.get(pod.metadata.uid!);
    const podmanName = t?.podmanName ?? this.podmanName(pod);
    if (t) t.stopped = true;
    await t?.creating;
    await podman(['pod', 'stop', '--time', String(Math.max(0, Math.floor(graceSeconds))), podmanName]);
    await podman(['pod', 'rm', '--force', podmanName]);
    for (const s of t?.secrets ?? []) {
      await podman(['secret', 'rm', s]);
      await podman(['volume', 'rm', '--force', s]);
    }
    this.pods.delete(pod.metadata.uid!);
  }

  async logs(pod: Pod, tailLines?: number): Promise<string> {
    const t = this.pods.get(pod.metadata.uid!);
    if (!t) return '';
    const r = await podman(['logs', ...(tailLines !== undefined ? ['--tail', String(tailLines)] : []), t.container]);
    return r.stdout + r.stderr;
  }

  async removeAll(): Promise<void> {
    for (const t of this.pods.values()) t.stopped = true;
    await Promise.all([...this.pods.values()].map((t) => t.creating));
    await removePrefixed(this.prefix);
    this.pods.clear();
  }
}

/** Removes every podman pod, secret and volume whose name starts with `prefix-` (also used by the sandbox's stop). */
export async function removePrefixed(prefix: string): Promise<void> {
  const names = async (args: string[]): Promise<string[]> =>
    (await podman(args)).stdout.split('\n').map((s) => s.trim()).filter((s) => s.startsWith(`${prefix}-`));
  for (const p of await names(['pod', 'ps', '--format', '{{.Name}}'])) await podman(['pod', 'rm', '--force', '--time', '0', p]);
  for (const s of await names(['secret', 'ls', '--format', '{{.Name}}'])) await podman(['secret', 'rm', s]);
  for (const v of await names(['volume', 'ls', '--format', '{{.Name}}'])) await podman(['volume', 'rm', '--force', v]);
}
