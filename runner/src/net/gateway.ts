// Where bridged containers reach the host: the gateway of the engine's default bridge network,
// read through the engine API (network inspect), so it is right for podman (10.88.0.1 by
// default) and Docker (docker0, 172.17.0.1) alike.
import type Docker from 'dockerode';

export interface BridgeNetwork {
  gateway: string;
  /** CIDR, e.g. 10.88.0.0/16; null when the engine does not say. */
  subnet: string | null;
}

/** Podman and Docker both answer for the default network under the name "bridge". */
const DEFAULT_BRIDGE = 'bridge';

export async function bridgeNetwork(docker: Docker, network = DEFAULT_BRIDGE): Promise<BridgeNetwork> {
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
