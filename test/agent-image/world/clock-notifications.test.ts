// The sim clock (speed, fast-forward jumps, text form) and the reference notification texts.
import { describe, expect, it } from 'vitest';
import { SimClock, formatSimTime, parseSimTime } from '../../../agent-image/src/world/clock.js';
import { bundleNotifications, formatNotification } from '../../../agent-image/src/world/notifications.js';
import { pyFloat } from '../../../agent-image/src/contract/pyjson.js';

describe('SimClock', () => {
  it('runs at wall time × speed from the start, and jumps forward only', () => {
    let mono = 1_000_000_000n;
    const c = new SimClock({ start: 1_760_000_400, speed: 10, mode: 'fast-forward', monoNs: () => mono, running: true });
    expect(c.text()).toBe('2025-10-09 09:00:00');
    mono += 1_500_000_000n; // 1.5 wall seconds × 10
    expect(c.now()).toBeCloseTo(1_760_000_415);
    expect(c.wallMsUntil(1_760_000_425)).toBeCloseTo(1000);
    expect(c.jumpTo(1_760_000_400)).toBe(0); // never backwards
    expect(c.jumpTo(1_760_001_000)).toBeCloseTo(585);
    expect(c.text()).toBe('2025-10-09 09:10:00');
  });

  it('formats and parses the sim_t form (UTC, whole seconds)', () => {
    expect(formatSimTime(1_760_000_400.9)).toBe('2025-10-09 09:00:00');
    expect(parseSimTime('2025-10-09 09:00:05')).toBe(1_760_000_405);
    expect(parseSimTime('nope')).toBeNaN();
  });
});

describe('notifications', () => {
  it('uses the agent-visible CLI name and the reference texts', () => {
    expect(formatNotification('Emails', 'send_email_to_user_only', { sender: 'a@b.c' })).toBe('emails: New email received from a@b.c');
    expect(formatNotification('Chats', 'create_and_add_message', { conversation_id: 'c1' })).toBe(
      'chats: New message received in conversation c1',
    );
    expect(formatNotification('Chats', 'add_participant_to_conversation', { conversation_id: 'c1' })).toBe(
      'chats: New participant added to chat conversation c1',
    );
    expect(formatNotification('ShoppingApp', 'update_item', { item_id: 'i9', new_price: pyFloat(89) })).toBe(
      'shopping: Item i9 updated — new price: 89.0',
    );
    expect(formatNotification('RentAFlat', 'update_apartment', { apartment_id: 'abcdefghijkl', new_price: null })).toBe(
      'rent-a-flat: Apartment abcdefgh updated',
    );
    expect(formatNotification('CabApp', 'end_ride', {})).toBe('cabs: Ride completed');
    expect(formatNotification('ShoppingApp', 'checkout', {})).toBeNull();
    expect(formatNotification('SomethingElse', 'x', {})).toBeNull();
  });

  it('bundles one or several per batch', () => {
    expect(bundleNotifications([])).toBeNull();
    expect(bundleNotifications(['a: x'])).toBe('[Notification] a: x');
    expect(bundleNotifications(['a: x', 'b: y'])).toBe('[Notifications]\n- a: x\n- b: y');
  });
});
