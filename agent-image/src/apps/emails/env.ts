// Hidden ENV commands of emails, run by the world daemon to simulate incoming mail.
import type { CommandDef } from '../framework/types.js';
import { fail } from '../framework/errors.js';
import { opt } from '../framework/options.js';
import { attachmentsFrom, ok } from './helpers.js';
import { CONTENT, EMAIL_ID, FOLDER, SUBJECT, listOpt } from './options.js';
import { addEmail, findEmail, loadMailbox, newEmail, saveMailbox } from './state.js';

const SENDER = opt('sender', 'Address of the sender.', { required: true });

export const ENV_COMMANDS: CommandDef[] = [
  {
    name: 'create-and-add-email',
    fn: 'create_and_add_email',
    write: true,
    hidden: true,
    help: 'ENV: an email arrives in a folder.',
    options: [SENDER, listOpt('recipients', 'JSON list of recipients.'), SUBJECT, CONTENT, FOLDER],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const name = String(o.folder_name).toUpperCase();
      const e = newEmail(ctx, { sender: o.sender, recipients: o.recipients, subject: o.subject, content: o.content, is_read: false });
      addEmail(box, name, e);
      saveMailbox(ctx, box);
      return ok(e.email_id, { sender: o.sender, recipients: o.recipients, subject: o.subject, content: o.content, folder_name: name });
    },
  },
  {
    name: 'send-email-to-user-only',
    fn: 'send_email_to_user_only',
    write: true,
    hidden: true,
    help: 'ENV: someone emails the user.',
    options: [SENDER, SUBJECT, CONTENT],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const e = newEmail(ctx, { sender: o.sender, recipients: [box.userEmail], subject: o.subject, content: o.content, is_read: false });
      addEmail(box, 'INBOX', e);
      saveMailbox(ctx, box);
      return ok(e.email_id, { sender: o.sender, subject: o.subject, content: o.content });
    },
  },
  {
    name: 'reply-to-email-from-user',
    fn: 'reply_to_email_from_user',
    write: true,
    hidden: true,
    help: "ENV: someone replies to one of the user's sent emails.",
    options: [SENDER, EMAIL_ID, CONTENT, listOpt('attachment_paths', 'JSON list of cloud-drive paths.')],
    run: (o, ctx) => {
      const box = loadMailbox(ctx);
      const id = String(o.email_id);
      const original = findEmail(box, 'SENT', id);
      if (!original) return fail(`Email with id ${id} does not exist in SENT`);
      const attachments = attachmentsFrom(ctx, o.attachment_paths);
      const e = newEmail(ctx, {
        sender: o.sender,
        recipients: [box.userEmail],
        subject: `Re: ${String(original.subject ?? '')}`,
        content: o.content,
        parent_id: id,
        attachments,
        is_read: false,
      });
      addEmail(box, 'INBOX', e);
      saveMailbox(ctx, box);
      return ok(e.email_id, { sender: o.sender, email_id: id, content: o.content, attachment_paths: o.attachment_paths });
    },
  },
];
