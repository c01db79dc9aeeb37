// The `cabs` CLI (reference CabApp): visible ride commands plus the hidden ENV commands the
// event daemon runs (cancel-ride, end-ride, update-ride-status).
import { fail } from '../framework/errors.js';
import { opt } from '../framework/options.js';
import type { AppContext, AppDef, CommandDef, OptionDef } from '../framework/types.js';
import {
  currentRideStatus,
  getQuotation,
  getRide,
  listRides,
  orderRide,
  rideHistory,
  userCancelRide,
} from './ops.js';
import { dumpCabState, loadCabState, type CabState } from './state.js';
import { viewOf } from '../framework/state-views.js';

const text = (name: string, help: string, required = false): OptionDef => opt(name, help, { required });

const START = text('start_location', 'Starting point of the ride', true);
const END = text('end_location', 'Ending point of the ride', true);
const SERVICE = text('service_type', 'Type of service (Default, Premium, Van)', true);
const RIDE_TIME = text('ride_time', 'Ride time in YYYY-MM-DD HH:MM:SS format');

// The normalised rides are built once per stored state; every write stores a new object.
const load = (ctx: AppContext): CabState => {
  const raw = ctx.loadState() ?? {};
  return viewOf(raw, 'cabs', () => loadCabState(raw));
};
/** Loads the state, applies `op`, saves (reads too: quotes and delay updates are persisted). */
function persisted<T>(ctx: AppContext, op: (s: CabState) => T): T {
  const s = load(ctx);
  const out = op(s);
  ctx.saveState(dumpCabState(s));
  return out;
}
const quoteArgs = (o: Record<string, unknown>, withService: boolean): Record<string, unknown> => ({
  start_location: o.start_location,
  end_location: o.end_location,
  ...(withService ? { service_type: o.service_type } : {}),
  ride_time: o.ride_time,
});
const str = (v: unknown): string => v as string;
const optStr = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));

const visible: CommandDef[] = [
  {
    name: 'get-quotation',
    fn: 'get_quotation',
    write: false,
    help: 'Calculate price and estimated delay for a ride.',
    options: [START, END, SERVICE, RIDE_TIME],
    run(o, ctx) {
      const ride = persisted(ctx, (s) =>
        getQuotation(s, str(o.start_location), str(o.end_location), str(o.service_type), optStr(o.ride_time), ctx.now),
      );
      return { output: { status: 'success', data: ride }, args: quoteArgs(o, true), ret: ride };
    },
  },
  {
    name: 'list-rides',
    fn: 'list_rides',
    write: false,
    help: 'List all rides available between two locations.',
    options: [START, END, RIDE_TIME],
    run(o, ctx) {
      const rides = persisted(ctx, (s) => listRides(s, str(o.start_location), str(o.end_location), optStr(o.ride_time), ctx.now));
      return { output: { status: 'success', data: rides }, args: quoteArgs(o, false), ret: rides };
    },
  },
  {
    name: 'order-ride',
    fn: 'order_ride',
    write: true,
    help: 'Order a ride and return ride details.',
    options: [START, END, SERVICE, RIDE_TIME],
    run(o, ctx) {
      const shown = persisted(ctx, (s) =>
        orderRide(s, str(o.start_location), str(o.end_location), str(o.service_type), optStr(o.ride_time), ctx.now),
      );
      return { output: { status: 'success', data: shown }, args: quoteArgs(o, true), ret: shown };
    },
  },
  {
    name: 'user-cancel-ride',
    fn: 'user_cancel_ride',
    write: true,
    help: 'Cancel the current ride.',
    options: [],
    run(_o, ctx) {
      const message = persisted(ctx, userCancelRide);
      return { output: { status: 'success', message }, args: {}, ret: message };
    },
  },
  {
    name: 'get-current-ride-status',
    fn: 'get_current_ride_status',
    write: false,
    help: 'Check the status of the current ride.',
    options: [],
    run(_o, ctx) {
      const ride = persisted(ctx, (s) => currentRideStatus(s, ctx.now));
      return { output: { status: 'success', data: ride }, args: {}, ret: ride };
    },
  },
  {
    name: 'get-ride',
    fn: 'get_ride',
    write: false,
    help: 'Get a specific ride from ride history by index.',
    options: [{ name: 'idx', flags: ['--idx'], type: 'integer', required: true, help: 'Index of the ride in history' }],
    run(o, ctx) {
      const ride = getRide(load(ctx), o.idx as number);
      return { output: { status: 'success', data: ride }, args: { idx: o.idx }, ret: ride };
    },
  },
  {
    name: 'get-ride-history',
    fn: 'get_ride_history',
    write: false,
    help: 'Get ride history with pagination.',
    options: [
      { name: 'offset', flags: ['--offset'], type: 'integer', default: 0, help: 'Starting index (default 0)' },
      { name: 'limit', flags: ['--limit'], type: 'integer', default: 10, help: 'Max number of rides to return (default 10)' },
    ],
    run(o, ctx) {
      const data = rideHistory(load(ctx), o.offset as number, o.limit as number);
      return { output: { status: 'success', data }, args: { offset: o.offset, limit: o.limit }, ret: data };
    },
  },
  {
    name: 'get-ride-history-length',
    fn: 'get_ride_history_length',
    write: false,
    help: 'Get the total number of rides in history.',
    options: [],
    run(_o, ctx) {
      const n = load(ctx).ride_history.length;
      return { output: { status: 'success', data: n }, args: {}, ret: n };
    },
  },
];

/**
 * ENV commands edit the stored object in place (no normalisation), and only touch the last
 * ride_history entry, when it is the ongoing ride.
 */
function finishOngoing(ctx: AppContext, status: string, noneMessage: string, clear: boolean): void {
  const raw = ctx.loadState() ?? {};
  const ongoing = raw.on_going_ride as Record<string, unknown> | null | undefined;
  if (ongoing === null || ongoing === undefined || typeof ongoing !== 'object') fail(noneMessage);
  const ride = ongoing as Record<string, unknown>;
  ride.status = status;
  const history = Array.isArray(raw.ride_history) ? (raw.ride_history as Array<Record<string, unknown>>) : [];
  const last = history[history.length - 1];
  if (last && typeof last === 'object' && last.ride_id === ride.ride_id) last.status = status;
  if (clear) raw.on_going_ride = null;
  // A new top-level object, so the normalised view of the old one is not reused.
  ctx.saveState({ ...raw });
}

const UPDATE_STATUSES = ['DELAYED', 'IN_PROGRESS', 'ARRIVED_AT_PICKUP'];

const hidden: CommandDef[] = [
  {
    name: 'cancel-ride',
    fn: 'cancel_ride',
    write: true,
    hidden: true,
    help: '[ENV] Cancel the current ride (by driver or user).',
    options: [
      { name: 'who_cancel', flags: ['--who-cancel'], type: 'text', default: 'driver', help: "Who cancels: 'driver' or 'user'." },
      text('message', 'Optional cancellation message.'),
    ],
    run(o, ctx) {
      if (o.who_cancel !== 'driver' && o.who_cancel !== 'user') fail("who_cancel must be either 'driver' or 'user'.");
      finishOngoing(ctx, 'CANCELLED', 'No on-going ride to cancel.', true);
      const message = (o.message as string | null) || 'Ride has been cancelled.';
      return { output: { status: 'success', message }, args: { who_cancel: o.who_cancel, message: o.message }, ret: message };
    },
  },
  {
    name: 'end-ride',
    fn: 'end_ride',
    write: true,
    hidden: true,
    help: '[ENV] End the current ride (mark as COMPLETED).',
    options: [],
    run(_o, ctx) {
      finishOngoing(ctx, 'COMPLETED', 'No on-going ride to end.', true);
      const message = 'Ride has been completed.';
      return { output: { status: 'success', message }, args: {}, ret: message };
    },
  },
  {
    name: 'update-ride-status',
    fn: 'update_ride_status',
    write: true,
    hidden: true,
    help: '[ENV] Update the status of the current ride.',
    options: [
      { name: 'status', dest: 'new_status', flags: ['--status'], type: 'text', required: true, help: 'New status: DELAYED, IN_PROGRESS, or ARRIVED_AT_PICKUP.' },
      text('message', 'Optional driver message.'),
    ],
    run(o, ctx) {
      const status = o.status as string;
      if (!UPDATE_STATUSES.includes(status)) fail("status must be one of ['DELAYED', 'IN_PROGRESS', 'ARRIVED_AT_PICKUP']");
      finishOngoing(ctx, status, 'No on-going ride to update.', false);
      const message = o.message
        ? `Ride status has been updated to ${status}. Message from your driver: ${o.message as string}`
        : `Ride status has been updated to ${status}.`;
      return { output: { status: 'success', message }, args: { status, message: o.message }, ret: message };
    },
  },
];

export const cabsApp: AppDef = {
  cli: 'cabs',
  stateName: 'CabApp',
  help: 'CabApp - cab/ride service.',
  commands: [...visible, ...hidden],
};
