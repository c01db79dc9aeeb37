// Units of a backend without host services (a cluster's Pods) cannot reach the runner's
// loopback: no relay or tunnel is attempted, the configuration is refused with the variable and
// the option that set it.
import { ENV } from '@gaia2/contract/paths';
import { ConfigError } from '../plan/errors.js';
import { isHostLoopbackHost } from '../net/loopback-relays.js';

/** Where a variable comes from, for the message. */
function optionOf(name: string): string {
  if (name === ENV.judgeBaseUrl) return '[judge].base_url';
  if (/PROXY/i.test(name)) return 'the proxy variables (GAIA2_PROXY_RELAY_URL, HTTP(S)_PROXY)';
  if (/BASE_URL$/.test(name)) return '[agent].base_url (--base-url)';
  return 'its setting';
}

export function checkNoLoopback(env: Record<string, string>, units: string): void {
  for (const [k, v] of Object.entries(env)) {
    if (!/^https?:\/\//i.test(v)) continue;
    let host: string;
    try {
      host = new URL(v).hostname;
    } catch {
      continue;
    }
    // (any 127.x address too: a Pod cannot reach one, where a relay serves 127.0.0.1 only)
    if (isHostLoopbackHost(host) || host.startsWith('127.'))
      throw new ConfigError(
        `${k} points at the runner's own machine (${new URL(v).origin}), which ${units} cannot reach: ` +
          `set ${optionOf(k)} to an address reachable from inside the cluster (a Service, an ingress, a public endpoint)`,
      );
  }
}
