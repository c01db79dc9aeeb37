// The mailbox's order (apps/emails/state.ts): folders kept newest first so listing does not
// sort per call, with the reference's stable-sort results, and file order where a timestamp is
// not a number.
import { describe, expect, it } from 'vitest';
import { PyFloat } from '../../../agent-image/src/contract/pyjson.js';
import { addEmail, newestFirst, newestFirstView, loadMailbox, saveMailbox } from '../../../agent-image/src/apps/emails/state.js';
import type { AppContext } from '../../../agent-image/src/apps/framework/types.js';

const email = (id: string, ts: unknown) => ({ email_id: id, timestamp: ts });
const stableSort = (xs: Array<Record<string, unknown>>) => xs.map((x, i) => [x, i] as const).sort((a, b) => Number(b[0].timestamp) - Number(a[0].timestamp) || a[1] - b[1]).map(([x]) => x);

function ctxWith(state: Record<string, unknown>): AppContext & { saved: Record<string, unknown>[] } {
  let current = state;
  const saved: Record<string, unknown>[] = [];
  return { saved, loadState: () => current, saveState: (s: Record<string, unknown>) => (saved.push(s), (current = s)) } as unknown as AppContext & { saved: Record<string, unknown>[] };
}

describe('the mailbox order', () => {
  it('a list already newest first is used as it is; any other list is sorted stably', () => {
    const sorted = [email('a', 5), email('b', 5), email('c', new PyFloat(3))];
    expect(newestFirstView(sorted)).toBe(sorted);
    expect(newestFirst(sorted)).not.toBe(sorted);
    expect(newestFirst(sorted)).toEqual(sorted);
    const mixed = [email('a', 1), email('b', 5), email('c', 1), email('d', 7), email('e', 5)];
    expect(newestFirstView(mixed).map((e) => e.email_id)).toEqual(stableSort(mixed).map((e) => e.email_id));
  });

  it('the view sorts folders once; a folder with a timestamp that is not a number keeps file order', () => {
    const raw = {
      user_email: 'me@x',
      folders: {
        INBOX: { folder_name: 'INBOX', emails: [email('a', 1), email('b', 3), email('c', 2)] },
        SENT: { folder_name: 'SENT', emails: [email('x', 1), email('y', 'soon'), email('z', 2)] },
      },
    };
    const box = loadMailbox(ctxWith(raw));
    expect(box.folders.get('INBOX')!.map((e) => e.email_id)).toEqual(['b', 'c', 'a']);
    expect(box.folders.get('SENT')!.map((e) => e.email_id)).toEqual(['x', 'y', 'z']);
  });

  it('a save keeps a folder the command did not change as the same object, and writes changed ones newest first', () => {
    const inbox = { folder_name: 'INBOX', emails: [email('b', 3), email('a', 1)] };
    const raw = { user_email: 'me@x', folders: { INBOX: inbox, SENT: { folder_name: 'SENT', emails: [email('s', 1)] } } };
    const ctx = ctxWith(raw);
    const box = loadMailbox(ctx);
    addEmail(box, 'SENT', email('t', 9));
    saveMailbox(ctx, box);
    const out = ctx.saved[0]!.folders as Record<string, { emails: Array<{ email_id: string }> }>;
    expect(out.INBOX).toBe(inbox);
    expect(out.SENT!.emails.map((e) => e.email_id)).toEqual(['t', 's']);
    // The next command's view holds the saved order, in lists apart from the saved state's.
    const next = loadMailbox(ctx);
    expect(next.folders.get('SENT')!.map((e) => e.email_id)).toEqual(['t', 's']);
    expect(next.folders.get('SENT')).not.toBe(out.SENT!.emails);
    expect(next.folders.get('INBOX')).not.toBe(inbox.emails);
  });
});
