// Where bridged containers reach the host: the gateway of the engine's default bridge network,
// read through the engine API (network inspect), so it is right for podman (10.88.0.1 by
// default) and Docker (docker0, 172.17.0.1) alike.
import Docker from 'dockerode';
import type { ContainerEngine } from '../engine/index.js';
import { parseDockerHost, type Endpoint } from '../engine/discover.js';

export interface BridgeNetwork {
  gateway: string;
  /** CIDR, e.g. 10.88.0.0/16; null when the engine does not say. */
  subnet: string | null;
}

/** Podman and Docker both answer for the default network under the name "bridge". */
const DEFAULT_BRIDGE = 'bridge';

/**
 * The engine's API endpoint. The ContainerEngine interface has no network inspect (yet), so
 * this reads the endpoint the Docker-API engine was built with (its `endpoint` field, or its
 * public `source` when that is a unix:// or tcp:// address).
 */
function endpointOf(engine: ContainerEngine): Endpoint | null {
  const e = engine as { endpoint?: Partial<Endpoint>; source?: unknown };
  if (e.endpoint && (e.endpoint.socketPath || e.endpoint.host)) return e.endpoint as Endpoint;
  const source = typeof e.source === 'string' ? e.source.replace(/^DOCKER_HOST=/, '') : '';
  return /^(unix|tcp|https?):\/\//.test(source) ? parseDockerHost(source) : null;
}

export async function bridgeNetwork(engine: ContainerEngine, network = DEFAULT_BRIDGE): Promise<BridgeNetwork> {
  const ep = endpointOf(engine);
  if (!ep) throw new Error(`engine ${engine.name} does not expose its API endpoint; cannot look up the "${network}" network gateway`);
  const docker = new Docker(ep.socketPath ? { socketPath: ep.socketPath } : { host: ep.host, port: ep.port, protocol: ep.protocol });
  const info = (await docker.getNetwork(network).inspect()) as { IPAM?: { Config?: Array<{ Gateway?: string; Subnet?: string }> } };
  const cfg = (info.IPAM?.Config ?? []).find((c) => c.Gateway && !c.Gateway.includes(':'));
  if (!cfg?.Gateway) throw new Error(`engine network "${network}" has no IPv4 gateway (IPAM.Config)`);
  return { gateway: cfg.Gateway, subnet: cfg.Subnet ?? null };
}

/** Membership test for an IPv4 CIDR (IPv4-mapped IPv6 peers included). */
export function inSubnet(address: string, cidr: string): boolean {
  const toInt = (a: string): number | null => {
    const parts = a.replace(/^::ffff:/i, '').split('.');
    if (parts.length !== 4) return null;
    let n = 0;
    for (const p of parts) {
      const v = Number(p);
      if (!/^\d{1,3}$/.test(p) || v > 255) return null;
      n = n * 256 + v;
    }
    return n;
  };
  const [base = '', bitsText = '32'] = cidr.split('/');
  const bits = Number(bitsText);
  const a = toInt(address);
  const b = toInt(base);
  if (a === null || b === null || !(bits >= 0 && bits <= 32)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(a / size) === Math.floor(b / size);
}
