// state/user_details.json: the user's own contact (is_user) from the seeded contacts state,
// written once at start as the reference does; the judge uses it for attendee tolerance and
// signatures.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePyJson } from '../contract/pyjson.js';
import type { UserDetails } from '../scenario/index.js';

export function readUserDetails(stateDir: string): UserDetails | null {
  let state: unknown;
  try {
    state = parsePyJson(readFileSync(join(stateDir, 'contacts.json'), 'utf8'));
  } catch {
    return null; // no contacts app in this scenario
  }
  const c = (state as { contacts?: unknown } | null)?.contacts;
  const list = (Array.isArray(c) ? c : Object.values((c as Record<string, unknown>) ?? {})) as Array<Record<string, unknown>>;
  const me = list.find((x) => x && x.is_user === true);
  if (!me) return null;
  const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
  return { first_name: s(me.first_name), last_name: s(me.last_name), address: s(me.address) };
}

export function writeUserDetails(stateDir: string, details: UserDetails): void {
  writeFileSync(join(stateDir, 'user_details.json'), JSON.stringify(details) + '\n');
}
