// Reachability of an engine host without the engine protocol: a TCP connect with a deadline
// (so an unreachable DOCKER_HOST fails in well under two seconds, whatever the protocol
// above it would wait), and the runner's own address on the route to that host.
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import net, { type Socket } from 'node:net';
import { EngineError } from '../errors.js';

/** Deadline for the first TCP connect to an engine host. */
export const CONNECT_TIMEOUT_MS = 1500;

/** A connected socket to host:port, or EngineError('engine_unavailable') naming `what`. */
export function connectWithin(host: string, port: number, timeoutMs: number, what: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port });
    const fail = (why: string) => {
      clearTimeout(t);
      s.destroy();
      reject(new EngineError('engine_unavailable', `${what}: the engine host is not reachable (${why})`));
    };
    const t = setTimeout(() => fail(`no TCP answer within ${timeoutMs / 1000} s`), timeoutMs);
    s.once('connect', () => {
      clearTimeout(t);
      s.removeAllListeners('error');
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
  });
}

/** The IP address of a host name (or the literal itself). */
export async function resolveHost(host: string): Promise<string> {
  if (net.isIP(host)) return host;
  return (await lookup(host)).address;
}

/**
 * The address this machine uses to reach `ip`: a UDP socket connected there reports its local
 * end. connect() on UDP only consults the routing table; no packet is sent.
 */
export function localAddressToward(ip: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket(net.isIPv6(ip) ? 'udp6' : 'udp4');
    s.once('error', (e) => {
      s.close();
      reject(e);
    });
    s.connect(9, ip, () => {
      const a = s.address().address;
      s.close();
      resolve(a);
    });
  });
}

