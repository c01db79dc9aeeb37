// Loaded into OpenClaw's gateway process (node --import) by bin/agent-serve: the process's fetch
// reaches loopback only (the bridge's model proxy, the gateway itself). OpenClaw 2026.4.1 fetches
// OpenRouter's price list (openrouter.ai/api/v1/models) at start-up whenever a model is
// configured, with no setting to stop it; here that fetch fails at once, as offline, which
// OpenClaw logs ("pricing bootstrap failed") and goes on without. Nothing but the model endpoint
// is reached (docs/agents.md, "Nothing but the model endpoint"). Its model calls go to the proxy
// on 127.0.0.1; OpenClaw 2026.9 sends those through undici, and its own start-up fetch (the model
// catalog) is switched off in its configuration.
//
// Name lookups too, when the gateway's only endpoint is the proxy (GAIA2_OPENCLAW_LOOPBACK_ONLY=1,
// every run with a base URL): once idle after start-up, 2026.9 loads its plugin list for the
// dashboard (the gateway's "post-ready gateway data prewarm"), which reads the official plugin
// catalog feed (clawhub.ai/v1/feeds/plugins) through its SSRF guard; the guard resolves the name
// with dns.lookup before it fetches, and no setting stops that prewarm or the feed. The fetch was
// refused here, but the lookup still reached the container network's resolver. A lookup of a
// name that is not this machine now fails at once, as offline (ENOTFOUND), and OpenClaw falls
// back to its bundled catalog. With OpenClaw's built-in provider (no base URL) lookups stay open:
// its model calls go to the provider's host by name.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether a fetch of `url` stays on this machine. */
export function isLoopback(url) {
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Whether a name (or address) to look up is this machine. */
export function isLoopbackName(name) {
  const n = String(name ?? '').toLowerCase().replace(/\.$/, '');
  return LOOPBACK.has(n) || n.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(n);
}

/** The error dns.lookup gives for a name no resolver knows. */
function offline(name) {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${name} (this OpenClaw looks up nothing but this machine)`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname: name });
}

/** dns.lookup and dns.promises.lookup answer only for this machine's names. */
export function loopbackOnlyLookups(d = dns) {
  const lookup = d.lookup;
  d.lookup = function loopbackOnlyLookup(name, options, callback) {
    const cb = typeof options === 'function' ? options : callback;
    if (!isLoopbackName(name) && typeof cb === 'function') {
      process.nextTick(cb, offline(name));
      return {};
    }
    return lookup.call(this, name, options, callback);
  };
  const promised = d.promises.lookup;
  d.promises.lookup = function loopbackOnlyLookup(name, options) {
    return isLoopbackName(name) ? promised.call(this, name, options) : Promise.reject(offline(name));
  };
  // `import { lookup } from 'node:dns/promises'` (OpenClaw's SSRF guard) reads the patched one
  syncBuiltinESMExports();
}

const original = globalThis.fetch;
globalThis.fetch = function loopbackOnlyFetch(input, init) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
  if (!isLoopback(url)) return Promise.reject(new TypeError(`fetch failed: this OpenClaw reaches nothing but its model endpoint (refused ${url})`));
  return original.call(this, input, init);
};
if (process.env.GAIA2_OPENCLAW_LOOPBACK_ONLY === '1') loopbackOnlyLookups();
