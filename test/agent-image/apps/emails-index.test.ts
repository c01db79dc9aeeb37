// The mailbox's per-folder id index and its changed-folder tracking (apps/emails/state.ts),
// checked against a plain model of the reference's folders: a dict keyed by id per folder
// (an email set under an id it holds keeps that key's place), the whole folder stably sorted
// newest first at every save and read back in that order, every folder compared at every save.
// Random commands (moves there and back, deletes, sends, ENV adds, reads) over folders sharing
// ids, with equal timestamps and a timestamp that is not a number; after each, every lookup and
// every saved folder must be the model's.
import { describe, expect, it } from 'vitest';
import { PyFloat } from '../../../agent-image/src/contract/pyjson.js';
import { addEmail, findEmail, findInAnyFolder, loadMailbox, moveEmail, newestFirst, saveMailbox, type Email } from '../../../agent-image/src/apps/emails/state.js';
import type { AppContext } from '../../../agent-image/src/apps/framework/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStates, runAction, runCli } from '../../../agent-image/src/apps/index.js';
import { formatEventLine } from '../../../agent-image/src/contract/pyjson.js';
import { CLOCK, makeWorld, json } from './world.js';

const email = (id: string, ts: unknown): Email => ({ email_id: id, timestamp: ts, is_read: false });

function ctxWith(state: Record<string, unknown>): AppContext & { saved: Array<Record<string, unknown>> } {
  let current = state;
  const saved: Array<Record<string, unknown>> = [];
  return { saved, loadState: () => current, saveState: (s: Record<string, unknown>) => (saved.push(s), (current = s)) } as unknown as AppContext & { saved: Array<Record<string, unknown>> };
}

/** A seeded generator, so a failure replays. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** Per folder, the reference's dict: email id → email, in insertion order. */
type Folders = Map<string, Map<string, Email>>;
const byId = (list: readonly Email[]): Map<string, Email> => new Map(list.map((e) => [e.email_id as string, e]));

/** The model at load: one email per id (the last read, at the first's place), sorted when every timestamp is a number. */
function modelOf(raw: { folders: Record<string, { emails: Email[] }> }): Folders {
  const m: Folders = new Map();
  for (const [name, f] of Object.entries(raw.folders)) {
    const list = [...byId(f.emails).values()];
    m.set(name, byId(list.every((e) => Number.isFinite(Number(e.timestamp instanceof PyFloat ? e.timestamp.value : e.timestamp))) ? newestFirst(list) : list));
  }
  return m;
}

function start() {
  const dup = email('d1', 40);
  const raw = {
    user_email: 'me@x',
    folders: {
      INBOX: { folder_name: 'INBOX', emails: [email('a', 10), email('b', 30), email('c', 30), dup, email('e', 20), email('f', new PyFloat(25.5))] },
      SENT: { folder_name: 'SENT', emails: [email('s1', 5), email('s2', 50)] },
      // TRASH holds an id INBOX holds too (another object): d1 moved in takes its place.
      TRASH: { folder_name: 'TRASH', emails: [email('d1', 35), email('t1', 30)] },
      // A timestamp that is not a number: file order, sorted per listing and at every save.
      ODD: { folder_name: 'ODD', emails: [email('o1', 3), email('o2', 'soon'), email('o3', 7)] },
      // As a file may hold it: one id twice (the load keeps one) and not newest first.
      DRAFT: { folder_name: 'DRAFT', emails: [email('r1', 1), email('r2', 9), email('r1', 4)] },
    },
  };
  return { raw, model: modelOf(raw) };
}

describe('the mailbox id index', () => {
  it("answers every lookup and saves every folder as the reference's dicts would, across moves, deletes, sends, ENV adds and reads", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
      const { raw, model } = start();
      const ctx = ctxWith(raw);
      const names = [...model.keys()];
      const ids = new Set<string>(['missing']);
      for (const f of model.values()) for (const id of f.keys()) ids.add(id);
      let n = 0;
      for (let step = 0; step < 40; step++) {
        const box = loadMailbox(ctx);
        const op = rnd();
        if (op < 0.45) {
          // move there and back (or a delete: always re-filed into TRASH)
          const src = pick(names);
          const from = model.get(src)!;
          const id = from.size > 0 && rnd() < 0.9 ? pick([...from.keys()]) : 'missing';
          const remove = rnd() < 0.3;
          const dest = remove ? 'TRASH' : pick(names);
          const e = from.get(id);
          if (!e) {
            expect(() => moveEmail(box, id, src, dest, src, remove)).toThrow(`Email with id ${id} does not exist in ${src}`);
            continue;
          }
          moveEmail(box, id, src, dest, src, remove);
          // src.pop(id); dest[id] = email
          if (src !== dest || remove) {
            from.delete(id);
            model.get(dest)!.set(id, e);
          }
        } else if (op < 0.75) {
          // send / ENV add: a new email, sometimes with the timestamp of another, rarely not a number
          const name = pick(names);
          const ts = rnd() < 0.05 ? 'later' : rnd() < 0.5 ? pick([10, 20, 30, 40, 50]) : new PyFloat(Math.floor(rnd() * 60) + 0.5);
          const e = email(`n${n++}`, ts);
          ids.add(e.email_id as string);
          addEmail(box, name, e);
          model.get(name)!.set(e.email_id as string, e);
        } else {
          // get-email-by-id: marks one read, no folder changes
          const name = pick(names);
          const id = pick([...ids]);
          const e = findEmail(box, name, id);
          expect(e).toBe(model.get(name)!.get(id));
          if (e) e.is_read = true;
        }
        saveMailbox(ctx, box);
        for (const [name, f] of model) model.set(name, byId(newestFirst([...f.values()])));
        const saved = ctx.saved.at(-1)!.folders as Record<string, { folder_name: string; emails: Email[] }>;
        const next = loadMailbox(ctx);
        for (const name of names) {
          const want = [...model.get(name)!.values()];
          expect(saved[name]!.emails, `seed ${seed} step ${step} ${name}`).toEqual(want);
          saved[name]!.emails.forEach((e, i) => expect(e).toBe(want[i]));
          expect(next.folders.get(name)!.map((e) => e.email_id)).toEqual(want.map((e) => e.email_id));
          for (const id of ids) expect(findEmail(next, name, id), `seed ${seed} step ${step} ${name} ${id}`).toBe(model.get(name)!.get(id));
        }
        for (const id of ids) expect(findInAnyFolder(next, id)).toBe(names.map((f) => model.get(f)!.get(id)).find((x) => x));
      }
    }
  });

  it("an email moved into a folder holding its id takes that key's place, then sorts by its timestamp as the reference's save does", () => {
    const moved = (trash: Email[], incoming: Email): string[] => {
      const ctx = ctxWith({ user_email: 'me@x', folders: { INBOX: { folder_name: 'INBOX', emails: [incoming] }, TRASH: { folder_name: 'TRASH', emails: trash } } });
      const box = loadMailbox(ctx);
      moveEmail(box, 'd', 'INBOX', 'TRASH', 'INBOX');
      saveMailbox(ctx, box);
      const saved = (ctx.saved[0]!.folders as Record<string, { emails: Email[] }>).TRASH!.emails;
      expect(saved.filter((e) => e.email_id === 'd')).toEqual([incoming]);
      expect(findEmail(loadMailbox(ctx), 'TRASH', 'd')).toBe(incoming);
      return saved.map((e) => `${e.email_id as string}${String(e.timestamp)}`);
    };
    // Older than the one it replaces: first among its ties (the key came before them).
    expect(moved([email('d', 45), email('y', 40), email('z', 30)], email('d', 40))).toEqual(['d40', 'y40', 'z30']);
    // Newer: last among its ties (the key came after them).
    expect(moved([email('x', 50), email('y', 40), email('d', 35)], email('d', 40))).toEqual(['x50', 'y40', 'd40']);
    // The same timestamp: the very place of the one it replaces.
    expect(moved([email('x', 50), email('y', 40), email('d', 40), email('z', 40)], email('d', 40))).toEqual(['x50', 'y40', 'd40', 'z40']);
  });

  it('a save after a command that changed no folder keeps every folder object; a move replaces only its two folders', () => {
    const { raw } = start();
    const ctx = ctxWith(raw);
    saveMailbox(ctx, loadMailbox(ctx)); // the file's DRAFT (an id twice) and ODD are rewritten once
    const before = ctx.saved[0]!.folders as Record<string, unknown>;
    const box = loadMailbox(ctx);
    findEmail(box, 'INBOX', 'b')!.is_read = true;
    saveMailbox(ctx, box);
    const read = ctx.saved[1]!.folders as Record<string, unknown>;
    for (const name of ['INBOX', 'SENT', 'TRASH', 'DRAFT']) expect(read[name]).toBe(before[name]);
    const moved = loadMailbox(ctx);
    moveEmail(moved, 'a', 'INBOX', 'SENT', 'INBOX');
    saveMailbox(ctx, moved);
    const after = ctx.saved[2]!.folders as Record<string, { emails: Email[] }>;
    expect(after.INBOX).not.toBe(read.INBOX);
    expect(after.SENT).not.toBe(read.SENT);
    expect(after.TRASH).toBe(read.TRASH);
    expect(after.SENT!.emails.map((e) => e.email_id)).toEqual(['s2', 'a', 's1']);
  });

  it('through the commands: an email moved there and back, and one added by the ENV, are found by id', async () => {
    const mail = (id: string, ts: number) => ({ sender: 'p@x.example', recipients: ['me@x.example'], subject: `s ${id}`, content: id, email_id: id, parent_id: null, cc: [], attachments: {}, timestamp: ts, is_read: false });
    const w = await makeWorld([['Emails', 'EmailClientV2', { user_email: 'me@x.example', view_limit: 5, folders: { INBOX: { folder_name: 'INBOX', emails: [mail('x', 100), mail('y', 200)] }, TRASH: { folder_name: 'TRASH', emails: [] } } }]]);
    const move = (src: string, dest: string) => w.run('emails', 'move-email', '--email-id', 'x', '--source-folder-name', src, '--dest-folder-name', dest);
    expect((await move('INBOX', 'TRASH')).exitCode).toBe(0);
    expect((await w.run('emails', 'get-email-by-id', '--email-id', 'x')).stderr).toBe('Email with id x does not exist\n');
    expect(json(await w.run('emails', 'get-email-by-id', '--email-id', 'x', '--folder-name', 'TRASH'))).toMatchObject({ subject: 's x', is_read: true });
    expect((await move('TRASH', 'INBOX')).exitCode).toBe(0);
    expect(json(await w.run('emails', 'get-email-by-id', '--email-id', 'x'))).toMatchObject({ subject: 's x' });
    const added = json(await w.action('Emails', 'create_and_add_email', { sender: 'q@x.example', subject: 'new', content: 'c', folder_name: 'INBOX' })) as { email_id: string };
    expect(json(await w.run('emails', 'get-email-by-id', '--email-id', added.email_id))).toMatchObject({ subject: 'new', is_read: true });
    expect((json(await w.run('emails', 'list-emails')) as { emails: Array<{ email_id: string }> }).emails.map((e) => e.email_id)).toEqual([added.email_id, 'y', 'x']);
  });

  // No repeated id here: a move into a folder holding the moved email's id is where the daemon
  // (both kept, first found) and the state files (one read back, the last) already differed
  // before the index (docs/daemon.md, "The mailbox's id index"); the first test pins the
  // daemon's side.
  it('the daemon (one state in memory, views handed on) answers a command sequence as the state files do', async () => {
    const mail = (id: string, ts: unknown, subject = id) => ({ sender: 'p@x.example', recipients: ['me@x.example'], subject, content: id, email_id: id, parent_id: null, cc: [], attachments: {}, timestamp: ts, is_read: false });
    const seed = {
      user_email: 'me@x.example',
      view_limit: 5,
      folders: {
        INBOX: { folder_name: 'INBOX', emails: [mail('x', 100), mail('y', 200), mail('z', 200), mail('w', 50)] },
        SENT: { folder_name: 'SENT', emails: [{ ...mail('s', 150), sender: 'me@x.example', parent_id: 'y' }] },
        DRAFT: { folder_name: 'DRAFT', emails: [mail('d', 'soon'), mail('e', 10)] },
        TRASH: { folder_name: 'TRASH', emails: [] },
      },
    };
    const argvs: string[][] = [
      ['emails', 'get-email-by-id', '--email-id', 'x'],
      ['emails', 'move-email', '--email-id', 'x', '--source-folder-name', 'INBOX', '--dest-folder-name', 'TRASH'],
      ['emails', 'get-email-by-id', '--email-id', 'x'],
      ['emails', 'move-email', '--email-id', 'x', '--source-folder-name', 'TRASH', '--dest-folder-name', 'INBOX'],
      ['emails', 'move-email', '--email-id', 'z', '--source-folder-name', 'INBOX', '--dest-folder-name', 'INBOX'],
      ['emails', 'delete-email', '--email-id', 'y'],
      ['emails', 'delete-email', '--email-id', 'y', '--folder-name', 'TRASH'],
      ['emails', 'reply-to-email', '--email-id', 's', '--folder-name', 'SENT', '--content', 'again'],
      ['emails', 'forward-email', '--email-id', 'w', '--recipients', '["a@x.example"]'],
      ['emails', 'send-email', '--recipients', '["b@x.example"]', '--subject', 'hi', '--content', 'c'],
      ['emails', 'move-email', '--email-id', 'd', '--source-folder-name', 'DRAFT', '--dest-folder-name', 'INBOX'],
      ['emails', 'list-emails', '--limit', '20'],
      ['emails', 'get-email-by-index', '--idx', '1', '--folder-name', 'DRAFT'],
      ['emails', 'list-emails', '--folder-name', 'SENT'],
      ['emails', 'list-emails', '--folder-name', 'TRASH'],
      ['emails', 'search-emails', '--query', 'x.example'],
      ['emails', 'get-email-by-id', '--email-id', 'gone', '--folder-name', 'TRASH'],
    ];
    const play = async (states?: MemoryStates) => {
      const w = await makeWorld([['Emails', 'EmailClientV2', seed]]);
      const out: unknown[] = [];
      for (const argv of argvs) {
        const r = await runCli(argv, { stateDir: w.stateDir, simTime: CLOCK, ids: ((n) => () => `id${n++}`)(0), states });
        out.push([r.exitCode, r.stdout, r.stderr, r.events.map(formatEventLine)]);
      }
      const env = await runAction('Emails', 'create_and_add_email', { sender: 'q@x.example', subject: 'env', content: 'c', folder_name: 'INBOX' }, { stateDir: w.stateDir, simTime: CLOCK, ids: () => 'env1', eventId: 'Event-ENV-1', states });
      out.push(env.stdout, (await runCli(['emails', 'get-email-by-id', '--email-id', 'env1'], { stateDir: w.stateDir, simTime: CLOCK, ids: () => 'no', states })).stdout);
      states?.persist();
      out.push(readFileSync(join(w.stateDir, 'email_client_v2.json'), 'utf8'));
      return out;
    };
    const files = await play();
    const memory = await play(new MemoryStates({ verify: true }));
    expect(memory).toEqual(files);
    expect((files[1] as unknown[])[0]).toBe(0);
  });
});

