// How the runner reaches a unit's published port, as a strategy of the Docker engine: the
// address the engine published it on (a local engine's loopback, a TCP engine's own address),
// or a local forward through an SSH connection (remote/ssh-reach.ts). Whatever a reach opens
// is closed with the container.
import { acceptsConnections } from '../net/accepts-connections.js';
import { urlHost } from '../net/gateway.js';
import type { AdapterEndpoint } from './types.js';

export interface Reached {
  endpoint: AdapterEndpoint;
  /** Releases what reaching it opened (a local forward). */
  close?: () => Promise<void>;
}

/** How the runner reaches `host:port` as the engine published it (an address on the engine host). */
export type Reach = (host: string, port: number) => Promise<Reached>;

/**
 * Connects to the published address itself; `acceptTimeoutMs` bounds the bare connect of the
 * boot-time look (a WAN link needs longer than the local default).
 */
export function tcpReach(acceptTimeoutMs?: number): Reach {
  return async (host, port) => ({
    endpoint: { url: `http://${urlHost(host)}:${port}`, accepting: () => acceptsConnections(host, port, acceptTimeoutMs) },
  });
}
