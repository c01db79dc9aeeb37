// The adapter HTTP contract (spec/container.md §2.2). Routes the reference runner and
// daemon use are kept as they are; mutating routes require the bearer token when the
// container was given GAIA2_ADAPTER_TOKEN.

export const ROUTES = {
  health: '/health',
  status: '/status',
  notify: '/notify',
  sendUserMessage: '/send_user_message',
  sendNotifications: '/send_notifications',
  messages: '/messages',
  events: '/events',
} as const;

/** Routes that change state and therefore need the token. */
export const MUTATING_ROUTES: ReadonlySet<string> = new Set([
  ROUTES.notify,
  ROUTES.sendUserMessage,
  ROUTES.sendNotifications,
]);

export interface HealthResponse {
  ok: boolean;
  connected: boolean;
  [k: string]: unknown;
}

export interface NotifyRequest {
  message: string;
}

export interface NotifyResponse {
  ok: boolean;
  runId?: string;
  error?: string;
}

/** Entry of the reply buffer served by GET /messages and GET /events. */
export interface BufferedMessage {
  seq: number;
  timestamp: string;
  run_id?: string;
  state?: 'final' | 'error';
  message: string;
  [k: string]: unknown;
}
