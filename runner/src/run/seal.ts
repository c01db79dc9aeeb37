// The addresses a sealed container's agent may reach besides loopback: every http(s) endpoint
// its environment names (the model gateway's relays; in direct mode the configured model
// endpoint). The image's entrypoint turns them into its egress filter (docs/contract.md).

/** host:port of each http(s) URL among the environment's values, each once, in order. */
export function sealAllowList(env: Record<string, string>): string[] {
  const out = new Set<string>();
  for (const v of Object.values(env)) {
    if (!/^https?:\/\//i.test(v)) continue;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      continue;
    }
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    out.add(`${u.hostname.replace(/^\[|\]$/g, '')}:${port}`);
  }
  return [...out];
}
