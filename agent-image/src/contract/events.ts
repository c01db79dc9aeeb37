// One line of events.jsonl, the action log every side reads (docs/contract.md, "events.jsonl line"; docs/apps.md, "The events line").
// Field order on disk is t, app, fn, args, w, ret, [event_id], [sim_t]; lines are written
// in Python json.dumps form (see ./pyjson.ts).

export interface EventLine {
  /** Wall or sim clock of the writer, epoch seconds (float). Not used when sim_t is present. */
  t: number;
  /** Scenario class_name of the app (e.g. CalendarApp), or AgentUserInterface. */
  app: string;
  /** ARE function name (e.g. add_calendar_event). */
  fn: string;
  args: Record<string, unknown>;
  /** true for writes. */
  w: boolean;
  /**
   * The return value. Lines made by app commands hold it as a PyJsonText (./pyjson.ts: its
   * compact text, parsed when first read): read it with pyJsonValue.
   */
  ret: unknown;
  /** Present only on lines written for ENV (or USER) scenario events. */
  event_id?: string;
  /** Simulated UTC time, "YYYY-MM-DD HH:MM:SS". */
  sim_t?: string;
  /**
   * Ours: the machine's wall clock when the daemon wrote the line, epoch seconds (float); the
   * clock of the model gateway's record (model_traffic.jsonl `t`), for exact interleaving.
   */
  wall_t?: number;
}

export const AUI_APP = 'AgentUserInterface';
/** Agent → user reply: ends a turn. */
export const SEND_MESSAGE_TO_USER = 'send_message_to_user';
/** User/notification → agent delivery record (a read). */
export const SEND_MESSAGE_TO_AGENT = 'send_message_to_agent';

export const ENV_EVENT_PREFIX = 'Event-ENV-';
export const USER_EVENT_PREFIX = 'Event-USER-';

/**
 * Our addition: ids of the Noise phase's background ENV events (the reference's
 * ENV_EVENT_EXPANSION_TAG). They are ENV events like the scenario's own.
 */
export const NOISE_EVENT_PREFIX = 'env_expansion_';

/** An ENV event id: the scenario's (`Event-ENV-…`) or a noise event's. */
export const isEnvEventId = (id: string | undefined): boolean =>
  typeof id === 'string' && (id.startsWith(ENV_EVENT_PREFIX) || id.startsWith(NOISE_EVENT_PREFIX));

export const isEnvLine = (e: Pick<EventLine, 'event_id'>): boolean => isEnvEventId(e.event_id);

export const isUserLine = (e: Pick<EventLine, 'event_id'>): boolean =>
  typeof e.event_id === 'string' && e.event_id.startsWith(USER_EVENT_PREFIX);

/** Agent reply to the user: the only turn boundary. */
export const isReplyLine = (e: Pick<EventLine, 'app' | 'fn'>): boolean =>
  e.app === AUI_APP && e.fn === SEND_MESSAGE_TO_USER;

/**
 * Lines of events.jsonl, skipping blanks and a torn (unterminated) last line. `parseLine`
 * defaults to JSON.parse; pass parsePyJson (./pyjson.ts) to keep Python floats as PyFloat.
 */
export function parseEventsJsonl(text: string, parseLine: (line: string) => unknown = JSON.parse): EventLine[] {
  const complete = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  const out: EventLine[] = [];
  for (const raw of complete.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    try {
      out.push(parseLine(line) as EventLine);
    } catch {
      // A malformed complete line is skipped; callers that care count lines themselves.
    }
  }
  return out;
}

/** Content of the last non-empty reply to the user (the runner's "agent response"). */
export function lastReply(events: EventLine[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (isReplyLine(e)) {
      const c = (e.args as { content?: unknown }).content;
      if (typeof c === 'string' && c.trim() !== '') return c;
    }
  }
  return null;
}
