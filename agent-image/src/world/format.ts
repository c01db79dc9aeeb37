// Short renderings for eventd.log lines.

/** "k=v, k=v" with long values cut, as the reference's ENV log line shows them. */
export function summarizeArgs(args: Record<string, unknown>, max = 80): string {
  return Object.entries(args)
    .map(([k, v]) => {
      const s = typeof v === 'string' ? v : JSON.stringify(v);
      return `${k}=${s && s.length > max ? s.slice(0, max) + '…' : s}`;
    })
    .join(', ');
}
