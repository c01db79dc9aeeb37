// A kubeconfig for the double: one cluster on https://127.0.0.1 with its CA inline, one user
// with a bearer token, one context (namespace "default"). JSON is valid YAML, so any kubeconfig
// reader takes it. Written with mode 0600: it holds the token.
import { writeFileSync } from 'node:fs';

export function kubeconfig(url: string, token: string, ca: string, namespace = 'default'): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Config', preferences: {},
    clusters: [{ name: 'k8sd', cluster: { server: url, 'certificate-authority-data': Buffer.from(ca).toString('base64') } }],
    users: [{ name: 'k8sd-admin', user: { token } }],
    contexts: [{ name: 'k8sd', context: { cluster: 'k8sd', user: 'k8sd-admin', namespace } }],
    'current-context': 'k8sd',
  }, null, 2);
}

export function writeKubeconfig(path: string, url: string, token: string, ca: string): void {
  writeFileSync(path, kubeconfig(url, token, ca), { mode: 0o600 });
}
