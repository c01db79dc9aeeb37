// Where bridged containers reach the host: the gateway of the engine's default bridge network,
// read through the engine API (network inspect), so it is right for podman (10.88.0.1 by
// default) and Docker (docker0, 172.17.0.1) alike.
import type Docker from 'dockerode';
import { BlockList, isIP } from 'node:net';

export interface BridgeNetwork {
  gateway: string;
  /** CIDR, e.g. 10.88.0.0/16; null when the engine does not say. */
  subnet: string | null;
}

/** Podman and Docker both answer for the default network under the name "bridge". */
const DEFAULT_BRIDGE = 'bridge';

/** The engine adds this alias to every container; it resolves to the host. */
export const HOST_GATEWAY_ALIAS = 'host.containers.internal';

export async function bridgeNetwork(docker: Docker, network = DEFAULT_BRIDGE): Promise<BridgeNetwork> {
  const info = (await docker.getNetwork(network).inspect()) as { IPAM?: { Config?: Array<{ Gateway?: string; Subnet?: string }> } };
  const cfg = (info.IPAM?.Config ?? []).find((c) => c.Gateway && !c.Gateway.includes(':'));
  if (!cfg?.Gateway) throw new Error(`engine network "${network}" has no IPv4 gateway (IPAM.Config)`);
  return { gateway: cfg.Gateway, subnet: cfg.Subnet ?? null };
}

/** Membership test for an IPv4 or IPv6 CIDR (IPv4-mapped IPv6 peers match IPv4 ranges). */
export function inSubnet(address: string, cidr: string): boolean {
  const [base = '', bitsText] = cidr.split('/');
  const family = isIP(base);
  const peer = isIP(address);
  if (!family || !peer) return false;
  const bits = bitsText === undefined ? (family === 4 ? 32 : 128) : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) return false;
  const list = new BlockList();
  list.addSubnet(base, bits, family === 4 ? 'ipv4' : 'ipv6');
  return list.check(address, peer === 4 ? 'ipv4' : 'ipv6');
}

/** A host as it goes into a URL: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
