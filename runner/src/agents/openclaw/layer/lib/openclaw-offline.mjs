// Loaded into OpenClaw's gateway process (node --import) by bin/agent-serve: the process's fetch
// reaches loopback only (the bridge's model proxy, the gateway itself). OpenClaw 2026.4.1 fetches
// OpenRouter's price list (openrouter.ai/api/v1/models) at start-up whenever a model is
// configured, with no setting to stop it; here that fetch fails at once, as offline, which
// OpenClaw logs ("pricing bootstrap failed") and goes on without. Nothing but the model endpoint
// is reached (docs/agents.md, "Nothing but the model endpoint"). Its model calls go to the proxy
// on 127.0.0.1; OpenClaw 2026.9 sends those through undici, and its own start-up fetch (the model
// catalog) is switched off in its configuration.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether a fetch of `url` stays on this machine. */
export function isLoopback(url) {
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

const original = globalThis.fetch;
globalThis.fetch = function loopbackOnlyFetch(input, init) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
  if (!isLoopback(url)) return Promise.reject(new TypeError(`fetch failed: this OpenClaw reaches nothing but its model endpoint (refused ${url})`));
  return original.call(this, input, init);
};
