// Notification texts for ENV actions, in the reference's form (docs/daemon.md, "ENV events and notifications"):
// "<agent cli>: <text>", bundled per ENV batch as "[Notification] n" or
// "[Notifications]\n- n1\n- n2". Apps and functions not listed produce no notification.
import { PyFloat, pyFloatRepr } from '../contract/pyjson.js';

type Args = Record<string, unknown>;
type Formatter = (a: Args) => string;

/** Scenario app names and class names → the agent-visible CLI. */
const APP_TO_CLI: Record<string, string> = {
  CalendarApp: 'calendar', Calendar: 'calendar',
  ContactsApp: 'contacts', Contacts: 'contacts',
  EmailClientV2: 'emails', EmailClientApp: 'emails', Mail: 'emails', Emails: 'emails',
  MessagingAppV2: 'messages', Messages: 'messages',
  Chats: 'chats',
  ApartmentListingApp: 'rent-a-flat', RentAFlat: 'rent-a-flat',
  ShoppingApp: 'shopping', Shopping: 'shopping',
  CabApp: 'cabs', Cabs: 'cabs',
  CityApp: 'city', City: 'city',
  CloudDriveApp: 'cloud-drive', CloudDrive: 'cloud-drive', Files: 'cloud-drive',
  SandboxLocalFileSystem: 'cloud-drive', VirtualFileSystem: 'cloud-drive',
};

export const cliForApp = (app: string): string | null => APP_TO_CLI[app] ?? null;

/** Python str() of an argument value, as an f-string would print it. */
function py(v: unknown): string {
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return String(v);
}

const withPrice = (head: string, a: Args): string =>
  a.new_price !== null && a.new_price !== undefined ? `${head} — new price: ${py(a.new_price)}` : head;

const messaging = (participantText: string): Record<string, Formatter> => ({
  create_and_add_message: (a) => `New message received in conversation ${py(a.conversation_id)}`,
  add_participant_to_conversation: (a) => `${participantText} ${py(a.conversation_id)}`,
});

/** cli → fn → text. */
const FORMATTERS: Record<string, Record<string, Formatter>> = {
  calendar: {
    add_calendar_event_by_attendee: (a) => `New calendar event added by ${py(a.who_add)}`,
    delete_calendar_event_by_attendee: (a) => `Calendar event deleted by ${py(a.who_delete)}`,
  },
  emails: {
    create_and_add_email: (a) => `New email received from ${py(a.sender)}`,
    send_email_to_user_only: (a) => `New email received from ${py(a.sender)}`,
    reply_to_email_from_user: () => 'New email received',
  },
  messages: messaging('New participant added to conversation'),
  chats: messaging('New participant added to chat conversation'),
  'rent-a-flat': {
    add_new_apartment: (a) => `New apartment available: ${py(a.name)}`,
    update_apartment: (a) => withPrice(`Apartment ${py(a.apartment_id).slice(0, 8)} updated`, a),
  },
  shopping: {
    add_product: (a) => `New product added: ${py(a.name)}`,
    add_item_to_product: (a) => `New item added to product ${py(a.product_id)}`,
    cancel_order: (a) => `Order cancelled (Id ${py(a.order_id)})`,
    update_order_status: (a) => `Order updated (Id ${py(a.order_id)})`,
    add_discount_code: (a) => `New discount code for item ${py(a.item_id)}`,
    update_item: (a) => withPrice(`Item ${py(a.item_id)} updated`, a),
  },
  cabs: {
    cancel_ride: () => 'Ride cancelled',
    user_cancel_ride: () => 'Ride cancelled',
    update_ride_status: () => 'Ride status updated',
    end_ride: () => 'Ride completed',
  },
  city: {
    update_crime_rate: (a) => `Crime rate updated for ${py(a.city_name)}`,
  },
};

/** "<cli>: <text>" for an executed ENV action, or null when the reference sends none. */
export function formatNotification(app: string, fn: string, args: Args): string | null {
  const cli = cliForApp(app);
  const f = cli ? FORMATTERS[cli]?.[fn] : undefined;
  if (!cli || !f) return null;
  try {
    return `${cli}: ${f(args)}`;
  } catch {
    return `${cli}: ${fn} completed`;
  }
}

/** One message for a batch of notifications, as the reference bundles them. */
export function bundleNotifications(texts: readonly string[]): string | null {
  if (texts.length === 0) return null;
  if (texts.length === 1) return `[Notification] ${texts[0]}`;
  return `[Notifications]\n${texts.map((t) => `- ${t}`).join('\n')}`;
}
