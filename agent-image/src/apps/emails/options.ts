// Options shared by the visible and the ENV email commands.
import { parsePyJson } from '../../contract/pyjson.js';
import { opt } from '../framework/options.js';
import type { OptionDef } from '../framework/types.js';
import { jsonList } from './state.js';

/** JSON-list option: parsed by a Click callback in the reference (usage error when invalid), [] when absent. */
export const listOpt = (name: string, help: string, required = false): OptionDef =>
  opt(name, help, { required, default: [], convert: jsonList(parsePyJson) });
export const FOLDER = opt('folder_name', 'Folder: INBOX, SENT, DRAFT or TRASH.', { default: 'INBOX' });
export const FOLDER_ALIASED: OptionDef = { ...FOLDER, flags: ['--folder-name', '--folder'] };
export const EMAIL_ID = opt('email_id', 'Id of the email.', { required: true });
export const SUBJECT = opt('subject', 'Subject.', { default: '' });
export const CONTENT = opt('content', 'Body text.', { default: '' });
