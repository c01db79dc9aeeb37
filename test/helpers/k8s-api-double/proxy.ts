// The pods/proxy subresource: the request (method, headers, body, query) goes to the pod's
// IP and port, streamed both ways so multi-megabyte bodies pass. Like the API server, the
// credentials the client used to authenticate are not forwarded.
import http from 'node:http';
import { ApiError, badRequest } from './status.js';
import type { Pod } from './types.js';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade', 'host', 'authorization'];

/** Splits `[scheme:]name[:port]` as the proxy path segment allows. */
export function parseProxyTarget(segment: string): { name: string; port?: string; scheme?: string } {
  const parts = segment.split(':');
  if (parts.length === 1) return { name: parts[0]! };
  if (parts.length === 2) return { name: parts[0]!, port: parts[1]! };
  return { scheme: parts[0]!, name: parts[1]!, port: parts[2]! };
}

function resolvePort(pod: Pod, port: string | undefined): number {
  const ports = pod.spec.containers.flatMap((c) => c.ports ?? []);
  if (port === undefined || port === '') {
    const first = ports[0]?.containerPort;
    return first ?? 80;
  }
  if (/^\d+$/.test(port)) return Number(port);
  const named = ports.find((p) => p.name === port);
  if (!named) throw badRequest(`no such port "${port}" on pod "${pod.metadata.name}"`);
  return named.containerPort;
}

export function proxyToPod(pod: Pod, port: string | undefined, path: string, query: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const ip = pod.status?.podIP;
  if (!ip) throw new ApiError(503, 'ServiceUnavailable', `error trying to reach service: pod "${pod.metadata.name}" has no IP address yet`);
  const target = resolvePort(pod, port);
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.includes(k.toLowerCase()) && v !== undefined) headers[k] = v;
  headers.host = `${ip}:${target}`;
  const upstream = http.request({ host: ip, port: target, method: req.method, path: `/${path}${query}`, headers }, (up) => {
    const out: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(up.headers)) if (!['connection', 'keep-alive', 'transfer-encoding'].includes(k) && v !== undefined) out[k] = v;
    res.writeHead(up.statusCode ?? 502, out);
    up.pipe(res);
    up.on('error', () => res.destroy());
  });
  upstream.on('error', (err) => {
    if (res.headersSent) { res.destroy(); return; }
    const e = new ApiError(503, 'ServiceUnavailable', `error trying to reach service: dial tcp ${ip}:${target}: ${(err as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? 'connect: connection refused' : err.message}`);
    res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify(e.toStatus()));
  });
  req.pipe(upstream);
  res.on('close', () => { if (!res.writableFinished) upstream.destroy(); });
}
