// The first user task of a scenario, for scenarios without events, where the container cannot
// send it itself and the host sends it with POST /notify (docs/runner.md, "A scenario's facts").
import type { Scenario } from '@gaia2/contract/scenario';

/**
 * The first send_message_to_agent action in `events`, then in `completed_events` (args as a
 * {content} dict or a [{name, value}] list).
 */
export function firstUserTask(s: Scenario): string | null {
  const raw = s as Record<string, unknown>;
  for (const key of ['events', 'completed_events']) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    for (const ev of list) {
      const action = (ev as { action?: Record<string, unknown> } | null)?.action;
      if (!action) continue;
      const fn = action.function_name ?? action.function;
      if (fn !== 'send_message_to_agent') continue;
      const content = contentOf(action.args);
      if (content) return content;
    }
  }
  return null;
}

function contentOf(args: unknown): string | null {
  if (Array.isArray(args)) {
    const hit = args.find((a) => (a as { name?: unknown })?.name === 'content') as { value?: unknown } | undefined;
    return typeof hit?.value === 'string' && hit.value ? hit.value : null;
  }
  if (args && typeof args === 'object') {
    const c = (args as { content?: unknown }).content;
    return typeof c === 'string' && c ? c : null;
  }
  return null;
}
