// emails commands (docs/apps.md). Writes answer {"status": "ok", ...}; folder names are
// case-insensitive and logged upper-cased.
import { resolveDrivePath, saveToDrive } from '../framework/drive.js';
import { fail } from '../framework/errors.js';
import { pySlice } from '../framework/py-builtins.js';
import { opt } from '../framework/options.js';
import type { AppContext, AppDef, CommandDef } from '../framework/types.js';
import { CONTENT, EMAIL_ID, FOLDER_ALIASED, SUBJECT, listOpt } from './options.js';
import { ENV_COMMANDS } from './env.js';
import { attachmentsFrom, ok } from './helpers.js';
import { addEmail, checkAddresses, emailsNewestFirst, findEmail, findInAnyFolder, loadMailbox, moveEmail, newEmail, saveMailbox, type Email, type Mailbox } from './state.js';

function lookup(box: Mailbox, folderName: unknown, id: string, suffix = ''): Email {
  const e = findEmail(box, String(folderName), id);
  if (!e) return fail(`Email with id ${id} does not exist${suffix}`);
  return e;
}

function showEmail(ctx: AppContext, box: Mailbox, e: Email, args: Record<string, unknown>) {
  e.is_read = true;
  saveMailbox(ctx, box);
  return { output: e, args, ret: e };
}

const commands: CommandDef[] = [
  {
    name: 'list-emails',
    fn: 'list_emails',
    write: false,
    help: 'List the emails of a folder, newest first.',
    options: [FOLDER_ALIASED, opt('offset', 'Index of the first email.', { type: 'integer', default: 0 }), opt('limit', 'Maximum number of emails.', { type: 'integer', default: 10 })],
    run: (o, ctx) => {
      const name = String(o.folder_name).toUpperCase();
      const emails = emailsNewestFirst(loadMailbox(ctx), name);
      const offset = o.offset as number;
      if (offset < 0) fail('Offset must be non-negative');
      if (offset > emails.length) fail('Offset must be less than the number of emails');
      const end = Math.min(offset + (o.limit as number), emails.length);
      const page = pySlice(emails, offset, end);
      const out = { emails: page, emails_range: [offset, end], total_returned_emails: page.length, total_emails: emails.length };
      return { output: out, args: { folder_name: name, offset, limit: o.limit }, ret: out };
    },
  },
  {
    name: 'get-email-by-id',
    fn: 'get_email_by_id',
    write: false,
    help: 'Read an email by its id (marks it read).',
    options: [EMAIL_ID, FOLDER_ALIASED],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      return showEmail(ctx, box, lookup(box, name, String(o.email_id)), { email_id: o.email_id, folder_name: name });
    },
  },
  {
    name: 'get-email-by-index',
    fn: 'get_email_by_index',
    write: false,
    help: 'Read the email at a position of a folder, newest first (marks it read).',
    options: [opt('idx', 'Position, 0 = newest.', { type: 'integer', required: true }), FOLDER_ALIASED],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      const emails = emailsNewestFirst(box, name);
      const idx = o.idx as number;
      if (idx < 0 || idx >= emails.length) fail(`Email with index ${idx} does not exist`);
      return showEmail(ctx, box, emails[idx]!, { idx, folder_name: name });
    },
  },
  {
    name: 'send-email',
    fn: 'send_email',
    write: true,
    help: 'Send an email.',
    options: [
      listOpt('recipients', 'JSON list of recipient addresses.', true),
      SUBJECT,
      CONTENT,
      listOpt('cc', 'JSON list of cc addresses.'),
      listOpt('attachment_paths', 'JSON list of cloud-drive file paths to attach.'),
    ],
    run: (o, ctx) => {
      checkAddresses(o.recipients, 'recipients');
      checkAddresses(o.cc, 'cc');
      const box = loadMailbox(ctx);
      const attachments = attachmentsFrom(ctx, o.attachment_paths);
      const e = newEmail(ctx, { sender: box.userEmail, recipients: o.recipients, subject: o.subject, content: o.content, cc: o.cc, attachments, is_read: true });
      addEmail(box, 'SENT', e);
      saveMailbox(ctx, box);
      return ok(e.email_id, { recipients: o.recipients, subject: o.subject, content: o.content, cc: o.cc, attachment_paths: o.attachment_paths });
    },
  },
  {
    name: 'forward-email',
    fn: 'forward_email',
    write: true,
    help: 'Forward an email to new recipients.',
    options: [EMAIL_ID, listOpt('recipients', 'JSON list of recipient addresses.', true), FOLDER_ALIASED],
    run: (o, ctx) => {
      checkAddresses(o.recipients, 'recipients');
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      const src = lookup(box, name, String(o.email_id));
      const e = newEmail(ctx, {
        sender: box.userEmail,
        recipients: o.recipients,
        subject: `FWD: ${String(src.subject ?? '')}`,
        content: `> ${String(src.content ?? '')}`,
        parent_id: src.email_id,
        attachments: { ...((src.attachments as object | null) ?? {}) },
        is_read: true,
      });
      addEmail(box, 'SENT', e);
      saveMailbox(ctx, box);
      return ok(e.email_id, { email_id: o.email_id, recipients: o.recipients, folder_name: name });
    },
  },
  {
    name: 'download-attachments',
    fn: 'download_attachments',
    write: true,
    help: 'Save the attachments of an email into a cloud-drive folder.',
    options: [EMAIL_ID, FOLDER_ALIASED, opt('path_to_save', 'Cloud-drive folder to save into.', { flags: ['--path-to-save', '--download-path'], default: 'Downloads/' })],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      const e = lookup(box, name, String(o.email_id), ` in ${String(o.folder_name)}`);
      const attachments = e.attachments && typeof e.attachments === 'object' && !Array.isArray(e.attachments) ? (e.attachments as Record<string, unknown>) : {};
      // The reference resolves the target folder only when there is something to save.
      if (Object.keys(attachments).length > 0 && !resolveDrivePath(ctx.fsRoot, String(o.path_to_save))) {
        return fail(`Path escapes sandbox: ${String(o.path_to_save)}`);
      }
      const saved = Object.entries(attachments).map(([file, b64]) =>
        saveToDrive(ctx.fsRoot, String(o.path_to_save), file, Buffer.from(String(b64), 'base64')),
      );
      return { output: { status: 'ok', downloaded: saved }, args: { email_id: o.email_id, folder_name: name, path_to_save: o.path_to_save }, ret: saved };
    },
  },
  {
    name: 'reply-to-email',
    fn: 'reply_to_email',
    write: true,
    help: 'Reply to an email (to its sender, or to the original correspondent of your own email).',
    options: [EMAIL_ID, CONTENT, FOLDER_ALIASED, listOpt('attachment_paths', 'JSON list of cloud-drive file paths to attach.')],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      const original = lookup(box, name, String(o.email_id));
      let current = original;
      while (current.sender === box.userEmail && current.parent_id) {
        const pid = String(current.parent_id);
        const parent = findInAnyFolder(box, pid);
        if (!parent) return fail(`Email with id ${pid} does not exist`);
        current = parent;
      }
      const attachments = attachmentsFrom(ctx, o.attachment_paths);
      const e = newEmail(ctx, {
        sender: box.userEmail,
        recipients: [current.sender],
        subject: `Re: ${String(original.subject ?? '')}`,
        content: o.content,
        parent_id: original.email_id,
        attachments,
        is_read: true,
      });
      addEmail(box, 'SENT', e);
      saveMailbox(ctx, box);
      return ok(e.email_id, { email_id: o.email_id, folder_name: name, content: o.content, attachment_paths: o.attachment_paths });
    },
  },
  {
    name: 'move-email',
    fn: 'move_email',
    write: true,
    help: 'Move an email to another folder.',
    options: [
      EMAIL_ID,
      opt('source_folder_name', 'Folder the email is in.', { flags: ['--source-folder-name', '--source-folder'], required: true }),
      opt('dest_folder_name', 'Folder to move it to.', { flags: ['--dest-folder-name', '--dest-folder'], required: true }),
    ],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const src = String(o.source_folder_name).toUpperCase();
      const dest = String(o.dest_folder_name).toUpperCase();
      moveEmail(box, String(o.email_id), src, dest, String(o.source_folder_name));
      saveMailbox(ctx, box);
      return ok(o.email_id, { email_id: o.email_id, source_folder_name: src, dest_folder_name: dest });
    },
  },
  {
    name: 'delete-email',
    fn: 'delete_email',
    write: true,
    help: 'Delete an email (moves it to TRASH).',
    options: [EMAIL_ID, FOLDER_ALIASED],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      moveEmail(box, String(o.email_id), name, 'TRASH', String(o.folder_name), true);
      saveMailbox(ctx, box);
      return ok(o.email_id, { email_id: o.email_id, folder_name: name });
    },
  },
  {
    name: 'search-emails',
    fn: 'search_emails',
    write: false,
    help: 'Search the emails of a folder by sender, recipients, subject or content (case-insensitive).',
    options: [opt('query', 'Text to search for.', { required: true }), FOLDER_ALIASED],
    run: (o, ctx) => {
      const name = String(o.folder_name).toUpperCase();
      const q = String(o.query).toLowerCase();
      const has = (v: unknown): boolean => typeof v === 'string' && v.toLowerCase().includes(q);
      const hits = emailsNewestFirst(loadMailbox(ctx), name).filter(
        (e) => has(e.sender) || (Array.isArray(e.recipients) && e.recipients.some(has)) || has(e.subject) || has(e.content),
      );
      return { output: hits, args: { query: o.query, folder_name: name }, ret: hits };
    },
  },
  ...ENV_COMMANDS,
];

export const emailsApp: AppDef = {
  cli: 'emails',
  stateName: 'EmailClientV2',
  help: 'Emails: read, search, send, reply, forward, move and delete emails.',
  commands,
};
