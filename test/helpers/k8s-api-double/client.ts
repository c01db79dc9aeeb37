// Test-side helpers: a client-node KubeConfig for a running double and calls to its hooks.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { kubeconfig } from './kubeconfig.js';
import type { RunningDouble } from './server.js';

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
