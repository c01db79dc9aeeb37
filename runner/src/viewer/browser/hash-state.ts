// A page's filters and sort order live in the URL hash, so a link reproduces the view.

export function readHash(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of location.hash.replace(/^#/, '').split('&')) {
    if (!kv) continue;
    const i = kv.indexOf('=');
    out[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? '' : decodeURIComponent(kv.slice(i + 1));
  }
  return out;
}

export function writeHash(state: Record<string, string | undefined | null>): void {
  const parts: string[] = [];
  for (const k of Object.keys(state)) {
    const v = state[k];
    if (v !== '' && v !== undefined && v !== null) parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(v));
  }
  const h = parts.length ? '#' + parts.join('&') : '';
  try {
    history.replaceState(null, '', h || location.pathname + location.search);
  } catch {
    if (h) location.hash = h;
  }
}
