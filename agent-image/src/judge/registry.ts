// Which arguments of which tool are compared, and how (docs/judge.md, "Hard checkers"). Arguments not
// listed are never compared; a tool listed nowhere matches on its name alone.

export type HardCheckerName =
  | 'eq_checker'
  | 'unordered_list_checker'
  | 'list_attendees_checker'
  | 'datetime_checker'
  | 'phone_number_checker'
  | 'eq_str_strip_checker'
  | 'path_checker'
  | 'unordered_path_list_checker';
export type ScriptedCheckerName = 'contain_any_checker' | 'contain_all_checker';
export type ArgCheckerName = HardCheckerName | ScriptedCheckerName | 'llm_checker';

export type SoftCheckerName =
  | 'placeholder_checker'
  | 'signature_checker'
  | 'email_checker'
  | 'message_checker'
  | 'user_message_checker'
  | 'event_checker'
  | 'cab_checker'
  | 'content_checker'
  | 'sanity_checker'
  | 'tone_checker';

const HARD = new Set<string>([
  'eq_checker',
  'unordered_list_checker',
  'list_attendees_checker',
  'datetime_checker',
  'phone_number_checker',
  'eq_str_strip_checker',
  'path_checker',
  'unordered_path_list_checker',
]);
const SCRIPTED = new Set<string>(['contain_any_checker', 'contain_all_checker']);
export const isHardChecker = (c: string): c is HardCheckerName => HARD.has(c);
export const isScriptedChecker = (c: string): c is ScriptedCheckerName => SCRIPTED.has(c);
/** Soft checkers whose reference prompt takes the (always empty in core) subtask. */
export const needsSubtask = (c: SoftCheckerName): boolean =>
  c === 'content_checker' || c === 'user_message_checker' || c === 'event_checker' || c === 'sanity_checker';

type ArgMap = Record<string, ArgCheckerName>;
const eq = 'eq_checker' as const;
const llm = 'llm_checker' as const;
const path = 'path_checker' as const;
const ulist = 'unordered_list_checker' as const;

// Key order inside each map is the order hard checks run in (the first failure is reported).
const ARG_CHECKERS: Record<string, ArgMap> = {
  ApartmentListingApp__save_apartment: { apartment_id: eq },
  ApartmentListingApp__remove_saved_apartment: { apartment_id: eq },
  CalendarApp__add_calendar_event: {
    attendees: 'list_attendees_checker',
    end_datetime: 'datetime_checker',
    start_datetime: 'datetime_checker',
    title: llm,
    description: llm,
    location: llm,
  },
  CalendarApp__delete_calendar_event: { event_id: eq },
  ShoppingApp__checkout: { discount_code: 'eq_str_strip_checker' },
  ShoppingApp__add_to_cart: { item_id: eq, quantity: eq },
  ShoppingApp__remove_from_cart: { item_id: eq, quantity: eq },
  ShoppingApp__cancel_order: { order_id: eq },
  ContactsApp__delete_contact: { contact_id: eq },
  ContactsApp__add_new_contact: {
    first_name: 'eq_str_strip_checker',
    last_name: 'eq_str_strip_checker',
    email: 'eq_str_strip_checker',
    phone: 'phone_number_checker',
  },
  ContactsApp__edit_contact: { contact_id: eq, updates: llm },
  EmailClientApp__reply_to_email: { email_id: eq, content: llm, attachment_paths: 'unordered_path_list_checker' },
  EmailClientApp__delete_email: { email_id: eq },
  EmailClientApp__send_email: {
    recipients: ulist,
    cc: ulist,
    attachment_paths: 'unordered_path_list_checker',
    subject: llm,
    content: llm,
  },
  EmailClientApp__move_email: { email_id: eq, source_folder_name: path, dest_folder_name: path },
  EmailClientApp__forward_email: { email_id: eq, recipients: ulist, folder_name: eq },
  EmailClientApp__download_attachments: { email_id: eq, folder_name: eq, path_to_save: path },
  CabApp__order_ride: { start_location: llm, end_location: llm, service_type: eq, ride_time: 'datetime_checker' },
  CabApp__user_cancel_ride: {},
  MessagingApp__create_conversation: { participants: ulist },
  MessagingApp__add_participant_to_conversation: { conversation_id: eq, participant: eq },
  MessagingApp__remove_participant_from_conversation: { conversation_id: eq, participant: eq },
  MessagingApp__send_message: { conversation_id: eq, content: llm },
  MessagingAppV2__send_message: { user_id: eq, content: llm, attachment_path: path },
  MessagingAppV2__send_message_to_group_conversation: { conversation_id: eq, content: llm, attachment_path: path },
  MessagingAppV2__create_group_conversation: { user_ids: ulist, title: llm },
  MessagingAppV2__add_participant_to_conversation: { conversation_id: eq, user_id: eq },
  MessagingAppV2__remove_participant_from_conversation: { conversation_id: eq, user_id: eq },
  MessagingAppV2__change_conversation_title: { conversation_id: eq, title: llm },
  SandboxLocalFileSystem__mv: { path1: path, path2: path },
  SandboxLocalFileSystem__open: { path, mode: eq },
  SandboxLocalFileSystem__mkdir: { path },
  SandboxLocalFileSystem__rm: { path, recursive: eq },
  SandboxLocalFileSystem__rmdir: { path },
  AgentUserInterface__send_message_to_user: { content: llm },
};

// The evaluation registry; the reference's "rl" registry is identical today.
const SOFT_CHECKERS: Record<string, SoftCheckerName[]> = {
  CalendarApp__add_calendar_event: ['event_checker'],
  EmailClientApp__send_email: ['placeholder_checker', 'signature_checker', 'email_checker'],
  EmailClientApp__reply_to_email: ['placeholder_checker', 'signature_checker', 'email_checker'],
  MessagingApp__send_message: ['placeholder_checker', 'message_checker'],
  CabApp__order_ride: ['cab_checker'],
  AgentUserInterface__send_message_to_user: ['user_message_checker'],
  MessagingApp__create_conversation: ['content_checker'],
};

const APP_ALIASES: Record<string, string[]> = {
  EmailClientApp: ['EmailClientV2', 'Emails'],
  ApartmentListingApp: ['RentAFlat'],
  ContactsApp: ['Contacts'],
  MessagingAppV2: ['Chats', 'Messages'],
  CalendarApp: ['Calendar'],
  ShoppingApp: ['Shopping'],
  CabApp: ['Cabs'],
  SandboxLocalFileSystem: ['Files'],
};

const TOOL_ALIASES: Record<string, string[]> = {
  MessagingApp__send_message: ['MessagingAppV2__send_message', 'MessagingAppV2__send_message_to_group_conversation'],
  MessagingApp__create_conversation: ['MessagingAppV2__create_group_conversation', 'MessagingAppV2__change_conversation_title'],
};

function expand<T>(base: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = { ...base };
  for (const [original, aliases] of Object.entries(TOOL_ALIASES)) {
    if (!(original in out)) continue;
    for (const alias of aliases) if (!(alias in out)) out[alias] = out[original]!;
  }
  for (const [canonical, aliases] of Object.entries(APP_ALIASES)) {
    for (const key of Object.keys(out)) {
      const sep = key.indexOf('__');
      if (key.slice(0, sep) !== canonical) continue;
      for (const alias of aliases) out[`${alias}__${key.slice(sep + 2)}`] = out[key]!;
    }
  }
  return out;
}

export const ARG_CHECKER_REGISTRY: Readonly<Record<string, ArgMap>> = expand(ARG_CHECKERS);
export const SOFT_CHECKER_REGISTRY: Readonly<Record<string, SoftCheckerName[]>> = expand(SOFT_CHECKERS);

export const argCheckersFor = (tool: string): ArgMap => ARG_CHECKER_REGISTRY[tool] ?? {};
export const softCheckersFor = (tool: string): SoftCheckerName[] => SOFT_CHECKER_REGISTRY[tool] ?? [];
