// A throwaway certificate authority and a serving certificate for 127.0.0.1, made with the
// openssl CLI (Node cannot issue X.509 certificates). client-node refuses plain http unless
// TLS verification is switched off, so the double serves https like a real API server and
// the kubeconfig carries the CA in certificate-authority-data.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServingCert { ca: string; cert: string; key: string }

export function makeServingCert(): ServingCert {
  const dir = mkdtempSync(join(tmpdir(), 'k8sd-tls-'));
  const f = (n: string): string => join(dir, n);
  const ssl = (args: string[]): void => {
    try {
      execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      throw new Error(missing
        ? 'k8s-api-double: the openssl CLI is needed for the serving certificate (bash scripts/setup-k8s-double.sh installs it)'
        : `k8s-api-double: openssl ${args[0]} failed: ${String((err as { stderr?: unknown }).stderr ?? err)}`);
    }
  };
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ssl(['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '30', '-subj', '/CN=k8sd-ca']);
    ssl(['req', ...ec, '-keyout', f('srv.key'), '-out', f('srv.csr'), '-subj', '/CN=kube-apiserver']);
    writeFileSync(f('ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    ssl(['x509', '-req', '-in', f('srv.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('srv.crt'), '-days', '30', '-extfile', f('ext')]);
    return { ca: readFileSync(f('ca.crt'), 'utf8'), cert: readFileSync(f('srv.crt'), 'utf8'), key: readFileSync(f('srv.key'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
