import { beforeEach, describe, expect, it } from 'vitest';
import { errText, testWorld, type TestWorld } from './rest-world.js';

const A = 'Rua das Flores 27, Lisboa';
const B = 'Lisbon Airport Terminal 1';
const RIDE = (id: string, service: string, status: string) =>
  `{"ride_id": "${id}", "status": "${status}", "service_type": "${service}", "start_location": "${A}", "end_location": "${B}",
    "price": 17.65, "duration": 28.12, "time_stamp": 1728547920.0, "distance_km": 17.65, "delay": 8,
    "delay_history": [{"delay": 8, "time_stamp": 1728547920.0}], "extra": 1}`;
const STATE = `{"ride_history": [${RIDE('r1', 'Default', 'COMPLETED')}, ${RIDE('r2', 'Premium', 'CANCELLED')}, ${RIDE('r3', 'Van', 'COMPLETED')}],
  "quotation_history": [${RIDE('r1', 'Default', 'COMPLETED')}]}`;

let w: TestWorld;
beforeEach(async () => {
  w = await testWorld([{ name: 'Cabs', class_name: 'CabApp', app_state: STATE }]);
});
const data = (r: { json: unknown }): Record<string, unknown> => (r.json as { data: Record<string, unknown> }).data;

describe('cabs quotations', () => {
  it('quotes deterministically and records each quote (a read that persists state)', async () => {
    const argv = ['cabs', 'get-quotation', '--start-location', 'Alfama', '--end-location', 'Belém', '--service-type', 'Default', '--ride-time', '2024-10-15 09:00:00'];
    const first = await w.run(argv);
    expect(first.exitCode).toBe(0);
    const q = data(first);
    expect(q).toMatchObject({ status: null, service_type: 'Default', time_stamp: 1728982800, delay_history: [] });
    expect(q.ride_id).toMatch(/^[0-9a-f]{32}$/);
    expect(q.distance_km as number).toBeGreaterThanOrEqual(5);
    expect(q.distance_km as number).toBeLessThan(20);
    expect(q.price).toBe(q.distance_km); // 1.0 per km, no earlier quote for this service
    expect(first.lines[0]).toContain('"w": false');
    const quotes = w.state('cab_app.json').quotation_history as unknown[];
    expect(quotes).toHaveLength(2);
    const fresh = await testWorld([{ name: 'Cabs', class_name: 'CabApp', app_state: STATE }]);
    expect(data(await fresh.run(argv))).toEqual(q);
  });

  it('reuses the stored distance and drifts the price of a repeat quote', async () => {
    const r = await w.run(['cabs', 'get-quotation', '--start-location', A, '--end-location', B, '--service-type', 'Default', '--ride-time', '2024-10-15 09:00:00']);
    expect(data(r)).toMatchObject({ distance_km: 17.65, price: 22.2980216, duration: 30.91, delay: 9 });
  });

  it('rejects an unknown service, a bad ride time, and a missing option', async () => {
    const svc = await w.run(['cabs', 'get-quotation', '--start-location', A, '--end-location', B, '--service-type', 'Helicopter']);
    expect([svc.exitCode, errText(svc), svc.events.length]).toEqual([1, 'Invalid service type.', 0]);
    const time = await w.run(['cabs', 'list-rides', '--start-location', A, '--end-location', B, '--ride-time', 'soon']);
    expect([time.exitCode, errText(time)]).toEqual([1, 'Invalid datetime format for the ride time. Please use YYYY-MM-DD HH:MM:SS']);
    const missing = await w.run(['cabs', 'get-quotation', '--start-location', A, '--end-location', B]);
    expect(missing.exitCode).toBe(2);
    expect(errText(missing)).toMatch(/Missing option '--service-type'/);
  });

  it('refuses distances over the service maximum', async () => {
    const tight = await testWorld([{ name: 'Cabs', app_state: { d_service_config: { Bike: { nb_seats: 1, price_per_km: 1.0, base_delay_min: 1, max_distance_km: 2 } } } }]);
    const r = await tight.run(['cabs', 'get-quotation', '--start-location', 'x', '--end-location', 'y', '--service-type', 'Bike']);
    expect([r.exitCode, errText(r)]).toEqual([1, 'Distance exceeds maximum allowed.']);
  });

  it('lists one ride per configured service, in config order, at the same time and distance', async () => {
    const r = await w.run(['cabs', 'list-rides', '--start-location', 'Alfama', '--end-location', 'Belém']);
    const rides = (r.json as { data: Array<Record<string, unknown>> }).data;
    expect(rides.map((x) => x.service_type)).toEqual(['Default', 'Premium', 'Van']);
    expect(new Set(rides.map((x) => x.distance_km)).size).toBe(1);
    expect(rides.every((x) => x.time_stamp === 1728975600)).toBe(true); // default ride time = sim now
    expect(JSON.parse(r.lines[0]!).args).toEqual({ start_location: 'Alfama', end_location: 'Belém', ride_time: null });
  });
});

describe('cabs rides', () => {
  const order = ['cabs', 'order-ride', '--start-location', A, '--end-location', 'LX Factory', '--service-type', 'Van'];

  it('books a ride, hides its delay, and keeps it as the ongoing ride', async () => {
    const r = await w.run(order);
    expect(r.exitCode).toBe(0);
    const shown = data(r);
    expect(shown.status).toBe('BOOKED');
    expect(shown).not.toHaveProperty('delay');
    expect(shown).not.toHaveProperty('delay_history');
    expect(r.lines[0]).toContain('"fn": "order_ride"');
    expect(JSON.parse(r.lines[0]!)).toMatchObject({ w: true, args: { ride_time: null }, ret: shown });
    const st = w.state('cab_app.json') as { ride_history: Array<Record<string, unknown>>; on_going_ride: Record<string, unknown> };
    expect(st.ride_history).toHaveLength(4);
    expect(st.ride_history[3]!.status).toBe('BOOKED');
    expect(st.on_going_ride.ride_id).toBe(shown.ride_id);
    expect((st.on_going_ride.delay_history as unknown[]).length).toBe(1);
    const again = await w.run(order);
    expect([again.exitCode, errText(again)]).toEqual([1, 'You have an on-going ride.']);
  });

  it('reports the ongoing ride with an updated delay, then cancels it', async () => {
    expect(errText(await w.run(['cabs', 'get-current-ride-status']))).toBe('No ride ordered.');
    await w.run(order);
    const status = await w.run(['cabs', 'get-current-ride-status'], { simTime: '2024-10-15 07:10:00' });
    const ride = data(status);
    expect(ride.delay as number).toBeLessThanOrEqual(0);
    expect((ride.delay_history as unknown[]).length).toBe(2);
    expect(status.lines[0]).toContain('"w": false');
    const cancel = await w.run(['cabs', 'user-cancel-ride']);
    expect(cancel.json).toEqual({ status: 'success', message: 'Ride has been cancelled, sorry to see you go.' });
    expect(JSON.parse(cancel.lines[0]!)).toMatchObject({ fn: 'user_cancel_ride', w: true, args: {} });
    const st = w.state('cab_app.json') as { ride_history: Array<Record<string, unknown>>; on_going_ride: unknown };
    expect(st.on_going_ride).toBeNull();
    expect(st.ride_history[3]!.status).toBe('CANCELLED');
    const twice = await w.run(['cabs', 'user-cancel-ride']);
    expect([twice.exitCode, errText(twice)]).toEqual([1, 'You have no on-going ride.']);
  });

  it('gets rides by index and pages the history with string keys', async () => {
    const one = await w.run(['cabs', 'get-ride', '--idx', '1']);
    expect(data(one).ride_id).toBe('r2');
    expect(data(one)).not.toHaveProperty('extra');
    expect(errText(await w.run(['cabs', 'get-ride', '--idx', '3']))).toBe('Ride does not exist.');
    expect((await w.run(['cabs', 'get-ride', '--idx', 'x'])).exitCode).toBe(2);
    const page = await w.run(['cabs', 'get-ride-history', '--offset', '1', '--limit', '1']);
    expect(data(page)).toMatchObject({ range: [1, 2], total: 3 });
    expect(Object.keys(data(page).rides as object)).toEqual(['1']);
    const len = await w.run(['cabs', 'get-ride-history-length']);
    expect(len.json).toEqual({ status: 'success', data: 3 });
    expect(len.lines[0]).toContain('"ret": 3');
  });
});

describe('cabs ENV commands', () => {
  it('update, end and cancel act on the ongoing ride and the last history entry', async () => {
    expect(errText(await w.action('Cabs', 'end_ride', {}))).toBe('No on-going ride to end.');
    await w.run(['cabs', 'order-ride', '--start-location', A, '--end-location', B, '--service-type', 'Default']);
    const upd = await w.action('Cabs', 'update_ride_status', { status: 'IN_PROGRESS', message: 'On my way' });
    expect(upd.json).toEqual({ status: 'success', message: 'Ride status has been updated to IN_PROGRESS. Message from your driver: On my way' });
    expect(JSON.parse(upd.lines[0]!).args).toEqual({ status: 'IN_PROGRESS', message: 'On my way' });
    const badStatus = await w.action('Cabs', 'update_ride_status', { status: 'LOST' });
    expect(errText(badStatus)).toBe("status must be one of ['DELAYED', 'IN_PROGRESS', 'ARRIVED_AT_PICKUP']");
    const end = await w.action('Cabs', 'end_ride', {});
    expect(JSON.parse(end.lines[0]!).ret).toBe('Ride has been completed.');
    const st = w.state('cab_app.json') as { ride_history: Array<Record<string, unknown>>; on_going_ride: unknown };
    expect([st.on_going_ride, st.ride_history[3]!.status]).toEqual([null, 'COMPLETED']);
    const cancel = await w.action('Cabs', 'cancel_ride', {});
    expect(errText(cancel)).toBe('No on-going ride to cancel.');
  });

  it('cancel-ride defaults to the driver and its own message', async () => {
    await w.run(['cabs', 'order-ride', '--start-location', A, '--end-location', B, '--service-type', 'Default']);
    const who = await w.run(['cabs', 'cancel-ride', '--who-cancel', 'nobody']);
    expect(errText(who)).toBe("who_cancel must be either 'driver' or 'user'.");
    const r = await w.run(['cabs', 'cancel-ride'], { eventId: 'Event-ENV-9' });
    expect(JSON.parse(r.lines[0]!)).toMatchObject({ args: { who_cancel: 'driver', message: null }, ret: 'Ride has been cancelled.', event_id: 'Event-ENV-9' });
  });
});

describe('cabs bad state', () => {
  it('names malformed rides and service configs instead of crashing', async () => {
    const rides = await testWorld([{ name: 'Cabs', app_state: { ride_history: [1] } }]);
    expect(errText(await rides.run(['cabs', 'get-ride-history']))).toBe('cab_app.json: ride_history[0] is not an object');
    const config = await testWorld([{ name: 'Cabs', app_state: { d_service_config: { Default: null } } }]);
    const r = await config.run(['cabs', 'list-rides', '--start-location', 'a', '--end-location', 'b']);
    expect([r.exitCode, errText(r)]).toEqual([1, 'cab_app.json: d_service_config["Default"] is not an object']);
  });
});
