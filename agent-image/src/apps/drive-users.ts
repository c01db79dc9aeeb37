// The apps whose commands read or write files on the cloud drive: the drive itself, and the
// apps that attach a drive file or save an attachment to it (emails, chats and messages).
// The daemon finishes building the drive's tree (drive-tree.ts) before any of their commands.
import { cliName } from './catalog.js';
import { CLI_NAMES, entryForAppName } from './registry.js';

const DRIVE_CLIS = new Set(['cloud-drive', 'emails', 'chats', 'messages']);
const KNOWN = new Set(CLI_NAMES);

/** `cli`: the binary (argv[0]); `app`: a scenario app or class name. Unknown names count as users. */
export function usesDrive(c: { cli: string } | { app: string }): boolean {
  const cli = 'cli' in c ? cliName([c.cli]) : entryForAppName(c.app)?.cli;
  return cli === undefined || !KNOWN.has(cli) || DRIVE_CLIS.has(cli);
}
