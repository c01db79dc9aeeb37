// Test-side helpers: a client-node KubeConfig for a running double and calls to its hooks.
import { ApiException, CoreV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { kubeconfig } from './kubeconfig.js';
import type { RunningDouble, TappedRequest } from './server.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { NETWORK } from './runtime/podman.js';

export function clientFor(d: { url: string; token: string; ca: string }): { kc: KubeConfig; core: CoreV1Api } {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig(d.url, d.token, d.ca));
  return { kc, core: kc.makeApiClient(CoreV1Api) };
}

/** Calls a test hook (see admin.ts) with the admin token. */
export async function hook(d: RunningDouble, method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetchWithCa(d, `/_k8sd/${path}`, {
    method, headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!r.ok) throw new Error(`hook ${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** fetch() against the double, trusting its CA (for raw requests such as the pod proxy). */
export async function fetchWithCa(d: { url: string; ca: string }, path: string, init: RequestInit = {}): Promise<Response> {
  const { Agent } = await import('undici');
  return fetch(`${d.url}${path}`, { ...init, dispatcher: new Agent({ connect: { ca: d.ca } }) } as RequestInit);
}

/** Polls `f` until it returns a value (not undefined); fails naming `what` after `tries`. */
export async function until<T>(f: () => Promise<T | undefined>, what: string, o: { tries?: number; everyMs?: number } = {}): Promise<T> {
  for (let i = 0; i < (o.tries ?? 200); i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, o.everyMs ?? 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The Pod once its container runs again after `restarts` restarts in place; undefined before (for until()). */
export function runningAfterRestarts(p: V1Pod, restarts: number): V1Pod | undefined {
  const cs = p.status?.containerStatuses?.[0];
  return cs?.restartCount === restarts && cs.state?.running ? p : undefined;
}

/** The HTTP code and Status body of a client-node call that must fail. */
export async function apiFailure(p: Promise<unknown>): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiException) return { code: err.code, body: (typeof err.body === 'string' ? JSON.parse(err.body) : err.body) as Record<string, unknown> };
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** A tapped request's body as text, with a Secret's base64 `data` values decoded (where a key would hide). */
export function storedText(r: TappedRequest): string {
  const text = Buffer.concat(r.body).toString('utf8');
  try {
    const o = JSON.parse(text) as { data?: Record<string, string> };
    return `${text}\n${Object.values(o.data ?? {}).map((v) => Buffer.from(v, 'base64').toString('utf8')).join('\n')}`;
  } catch {
    return text;
  }
}

/** The host's address on the Pods' network (created when missing): where a service on the host listens for the cluster. */
export async function clusterHostAddress(): Promise<string> {
  const podman = async (args: string[]) => (await promisify(execFile)('podman', args)).stdout;
  await podman(['network', 'exists', NETWORK]).catch(() => podman(['network', 'create', '--label', 'k8sd=1', NETWORK]));
  return (JSON.parse(await podman(['network', 'inspect', NETWORK])) as Array<{ subnets: Array<{ gateway: string }> }>)[0]!.subnets[0]!.gateway;
}
