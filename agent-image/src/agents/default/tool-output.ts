// What a tool call shows the model: stdout, then stderr and the exit code when they say
// something, cut to a size that cannot flood the context window.

export interface CommandOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut?: boolean;
  timeoutMs?: number;
}

/** Keeps the head and the tail, which is where CLIs put what matters (data, then errors). */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - 80);
  const head = Math.ceil(keep * 0.7);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

export function formatOutcome(o: CommandOutcome, maxChars: number): string {
  const parts: string[] = [];
  if (o.stdout) parts.push(o.stdout.replace(/\n$/, ''));
  if (o.stderr) parts.push(`[stderr]\n${o.stderr.replace(/\n$/, '')}`);
  if (o.timedOut) parts.push(`[timed out after ${Math.round((o.timeoutMs ?? 0) / 1000)} s; the command was killed]`);
  else if (o.exitCode !== 0) parts.push(`[exit code ${o.exitCode}]`);
  if (parts.length === 0) parts.push('[no output]');
  return truncateMiddle(parts.join('\n'), maxChars);
}
