// Makes host-loopback services (a local vLLM at http://127.0.0.1:8000/v1, a fake provider in
// tests, a loopback proxy) reachable from bridged containers. The env builder has already
// turned such URLs into http://host.containers.internal:PORT/… (env/rewriteLoopback); that
// alias is the bridge gateway, where nothing listens when the service is bound to 127.0.0.1.
// Here one relay per distinct target port listens on the gateway and forwards to
// 127.0.0.1:PORT, and the URL is rewritten to the relay's port.
import { HOST_GATEWAY_ALIAS as HOST_ALIAS } from './gateway.js';
import { inSubnet, urlHost, type BridgeNetwork } from './gateway.js';
import { startTcpRelay, type TcpRelay } from './tcp-relay.js';

const LOOPBACK_HOSTS = new Set([HOST_ALIAS, '127.0.0.1', 'localhost', '[::1]']);

/** Whether a URL's host (`URL.hostname`) names this machine's loopback, or the host alias. */
export function isHostLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

export interface LoopbackRelays {
  /** The environment with every relayed URL pointing at its relay. */
  env: Record<string, string>;
  /** Relays started, by the variable names that use them. */
  relays: Array<{ relay: TcpRelay; vars: string[] }>;
  close(): Promise<void>;
}

export interface LoopbackRelayOptions {
  /** The bridge network the relays serve, or how to look it up (asked only when a relay is needed). */
  bridge: BridgeNetwork | (() => Promise<BridgeNetwork>);
  log?: (line: string) => void;
  /**
   * Host name the rewritten URLs use: the alias (default; the engine maps it to the gateway on
   * the units' host) or the relay's own listen address (a remote engine, whose units reach the
   * runner by its routed address, not by an alias of their own host).
   */
  urlHost?: 'alias' | 'listen-address';
}

/** A URL a bridged container could not reach without a relay: http(s) on the host alias or loopback. */
function relayTarget(value: string): { url: URL; port: number } | null {
  if (!/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (!isHostLoopbackHost(url.hostname)) return null;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, port };
}

/** Same URL text with host and port replaced (keeps path, query and credentials as written). */
function pointAt(value: string, host: string, port: number): string {
  const authority = /^(\w+:\/\/(?:[^@/]*@)?)([^/?#]*)/.exec(value);
  if (!authority) return value;
  return `${authority[1]}${urlHost(host)}:${port}${value.slice(authority[0].length)}`;
}

/**
 * Starts the relays the environment needs and returns it rewritten. Values that are not
 * loopback URLs pass through untouched; with none, no engine lookup happens at all.
 */
export async function startLoopbackRelays(env: Record<string, string>, o: LoopbackRelayOptions): Promise<LoopbackRelays> {
  const wanted = new Map<number, string[]>();
  for (const [k, v] of Object.entries(env)) {
    const t = relayTarget(v);
    if (t) wanted.set(t.port, [...(wanted.get(t.port) ?? []), k]);
  }
  const out: LoopbackRelays = { env: { ...env }, relays: [], close: async () => {} };
  if (wanted.size === 0) return out;

  let bridge: BridgeNetwork;
  try {
    bridge = typeof o.bridge === 'function' ? await o.bridge() : o.bridge;
  } catch (e) {
    // Without the gateway the env keeps the plain alias rewrite: fine for services that listen
    // on every interface, and the notice says why a loopback-only one is unreachable.
    o.log?.(`No relay for host-loopback URLs in ${[...wanted.values()].flat().join(', ')}: ${(e as Error).message}`);
    return out;
  }
  const allowPeer = (a: string) => (bridge.subnet ? inSubnet(a, bridge.subnet) : true) || a === '127.0.0.1' || a === '::ffff:127.0.0.1';
  const byPort = new Map<number, TcpRelay>();
  try {
    for (const [port, vars] of wanted) {
      const relay = await startTcpRelay({ listenHost: bridge.gateway, targetHost: '127.0.0.1', targetPort: port, allowPeer, ...(o.log ? { log: o.log } : {}) });
      byPort.set(port, relay);
      out.relays.push({ relay, vars });
      o.log?.(`Relaying ${vars.join(', ')} (host 127.0.0.1:${port}) for bridged containers via ${bridge.gateway}:${relay.port}`);
    }
  } catch (e) {
    await Promise.all([...byPort.values()].map((r) => r.close()));
    throw e;
  }
  for (const [k, v] of Object.entries(env)) {
    const t = relayTarget(v);
    if (t) out.env[k] = pointAt(v, o.urlHost === 'listen-address' ? bridge.gateway : HOST_ALIAS, byPort.get(t.port)!.port);
  }
  out.close = async () => void (await Promise.all(out.relays.map((r) => r.relay.close())));
  return out;
}
