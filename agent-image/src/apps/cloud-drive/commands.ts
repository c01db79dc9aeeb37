// The `cloud-drive` CLI (reference Files app, logged as SandboxLocalFileSystem): the real
// directory tree under the drive root is the state. `open` is our addition (ARE's only way to
// create or write a file; see docs/apps.md).
import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fail } from '../framework/errors.js';
import { opt } from '../framework/options.js';
import type { AppDef, CommandDef, OptionDef } from '../framework/types.js';
import {
  charCount,
  driveName,
  entryInfo,
  headChars,
  isDir,
  pyDirname,
  readText,
  real,
  sortedEntries,
  times,
  treeText,
} from './fs-ops.js';

const path = (dest: string, help: string, extra: Partial<OptionDef> = {}): OptionDef => ({
  name: 'path',
  dest,
  flags: ['--path'],
  type: 'text',
  required: true,
  help,
  ...extra,
});
const flag = (name: string, help: string): OptionDef => opt(name, help, { type: 'flag' });

/** OS errors of a write become one line naming the path and the reason. */
function osError(what: string, e: unknown): never {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  const reasons: Record<string, string> = {
    EEXIST: 'already exists',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'not a directory',
    EISDIR: 'is a directory',
    ENOTEMPTY: 'directory not empty',
    EINVAL: 'invalid move (into itself?)',
    EACCES: 'permission denied',
  };
  return fail(`${what}: ${reasons[code] ?? code}`);
}

const reads: CommandDef[] = [
  {
    name: 'cat',
    fn: 'cat',
    write: false,
    help: 'Read the contents of a file and print to stdout.',
    options: [path('file_path', 'Path to the file to read.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!existsSync(abs)) fail(`File not found: ${p}`);
      if (isDir(abs)) fail(`Is a directory: ${p}`);
      const text = readText(abs) ?? fail(`Cannot read binary file as text: ${p}`);
      const preview = headChars(text, 200) + (charCount(text) > 200 ? '...' : '');
      return { raw: text, args: { path: p }, ret: preview };
    },
  },
  {
    name: 'ls',
    fn: 'ls',
    write: false,
    help: 'List the contents of a directory.',
    options: [path('dir_path', 'Path to the directory to list.'), flag('detail', 'Show detailed info for each entry.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!existsSync(abs)) fail(`Directory not found: ${p}`);
      if (!isDir(abs)) fail(`Not a directory: ${p}`);
      const children = sortedEntries(abs).map((n) => `${abs}/${n}`);
      const list = o.detail ? children.map((c) => entryInfo(ctx.fsRoot, c)) : children.map((c) => driveName(ctx.fsRoot, c));
      return { output: list, args: { path: p, detail: o.detail === true }, ret: list };
    },
  },
  {
    name: 'exists',
    fn: 'exists',
    write: false,
    help: 'Check if a file or directory exists.',
    options: [path('file_path', 'Path to check.')],
    run(o, ctx) {
      const found = existsSync(real(ctx.fsRoot, o.path as string));
      return { output: found, args: { path: o.path }, ret: found };
    },
  },
  {
    name: 'info',
    fn: 'info',
    write: false,
    help: 'Get metadata about a file or directory.',
    options: [path('file_path', 'Path to get info about.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!existsSync(abs)) fail(`Path not found: ${p}`);
      const info = { ...entryInfo(ctx.fsRoot, abs), ...times(abs) };
      return { output: info, args: { path: p }, ret: info };
    },
  },
  {
    name: 'tree',
    fn: 'tree',
    write: false,
    help: 'Generate a directory tree listing.',
    options: [path('dir_path', 'Path to start the tree from (default: /).', { required: false, default: '/' })],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!existsSync(abs)) fail(`Path not found: ${p}`);
      if (!isDir(abs)) fail(`Not a directory: ${p}`);
      const text = treeText(abs);
      return { raw: text, args: { path: p }, ret: headChars(text, 500) };
    },
  },
];

const writes: CommandDef[] = [
  {
    name: 'mkdir',
    fn: 'mkdir',
    write: true,
    help: 'Create a directory.',
    options: [path('dir_path', 'Path of the directory to create.'), flag('create_parents', 'Create parent directories if they do not exist.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!o.create_parents && !isDir(dirname(abs))) fail(`Parent directory does not exist: ${pyDirname(p)}`);
      try {
        if (o.create_parents && isDir(abs)) {
          // mkdir -p on an existing directory is fine.
        } else mkdirSync(abs, { recursive: o.create_parents === true });
      } catch (e) {
        osError(`Cannot create directory ${p}`, e);
      }
      if (!isDir(abs)) fail(`Cannot create directory ${p}: a file with that name exists`);
      return { output: { status: 'success', path: driveName(ctx.fsRoot, abs) }, args: { path: p, create_parents: o.create_parents === true }, ret: null };
    },
  },
  {
    name: 'makedirs',
    fn: 'makedirs',
    write: true,
    help: 'Create nested directories (like mkdir -p).',
    options: [path('dir_path', 'Path of nested directories to create.'), flag('exist_ok', 'Do not raise an error if the directory already exists.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (existsSync(abs) && (!o.exist_ok || !isDir(abs))) fail(`Directory already exists: ${p}`);
      try {
        mkdirSync(abs, { recursive: true });
      } catch (e) {
        osError(`Cannot create directory ${p}`, e);
      }
      return { output: { status: 'success', path: driveName(ctx.fsRoot, abs) }, args: { path: p, exist_ok: o.exist_ok === true }, ret: null };
    },
  },
  {
    name: 'mv',
    fn: 'mv',
    write: true,
    help: 'Move a file or directory.',
    options: [
      { name: 'path1', dest: 'source', flags: ['--source', '--path1'], type: 'text', required: true, help: 'Source path.' },
      { name: 'path2', dest: 'destination', flags: ['--destination', '--path2'], type: 'text', required: true, help: 'Destination path.' },
    ],
    run(o, ctx) {
      const [src, dst] = [o.path1 as string, o.path2 as string];
      const [absSrc, absDst] = [real(ctx.fsRoot, src), real(ctx.fsRoot, dst)];
      if (!existsSync(absSrc)) fail(`Source not found: ${src}`);
      if (!isDir(dirname(absDst))) fail(`Destination directory does not exist: ${pyDirname(dst)}`);
      try {
        renameSync(absSrc, absDst);
      } catch (e) {
        osError(`Cannot move ${src} to ${dst}`, e);
      }
      const output = { status: 'success', source: driveName(ctx.fsRoot, absSrc), destination: driveName(ctx.fsRoot, absDst) };
      return { output, args: { path1: src, path2: dst }, ret: null };
    },
  },
  {
    name: 'rm',
    fn: 'rm',
    write: true,
    help: 'Remove a file or directory.',
    options: [path('file_path', 'Path to remove.'), flag('recursive', 'Remove directories and their contents recursively.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!existsSync(abs)) fail(`Path not found: ${p}`);
      if (isDir(abs)) {
        if (!o.recursive) fail(`Is a directory (use --recursive): ${p}`);
        if (driveName(ctx.fsRoot, abs) === '/') fail('Cannot remove the drive root');
        rmSync(abs, { recursive: true });
      } else unlinkSync(abs);
      return { output: { status: 'success', path: p }, args: { path: p, recursive: o.recursive === true }, ret: null };
    },
  },
  {
    name: 'rmdir',
    fn: 'rmdir',
    write: true,
    help: 'Remove an empty directory.',
    options: [path('dir_path', 'Path of the empty directory to remove.')],
    run(o, ctx) {
      const p = o.path as string;
      const abs = real(ctx.fsRoot, p);
      if (!existsSync(abs)) fail(`Path not found: ${p}`);
      if (!isDir(abs)) fail(`Not a directory: ${p}`);
      if (readdirSync(abs).length > 0) fail(`Directory not empty: ${p}`);
      if (driveName(ctx.fsRoot, abs) === '/') fail('Cannot remove the drive root');
      rmdirSync(abs);
      return { output: { status: 'success', path: driveName(ctx.fsRoot, abs) }, args: { path: p }, ret: null };
    },
  },
  {
    name: 'open',
    fn: 'open',
    write: true,
    extension: true,
    help: "Open a file like ARE's open(): mode r/rb reads, w/wb creates or truncates, a/ab appends, x/xb creates a new file.",
    options: [
      path('file_path', 'Path of the file.'),
      { name: 'mode', flags: ['--mode'], type: 'text', default: 'rb', help: 'File mode (r, rb, w, wb, a, ab, x, xb).' },
      { name: 'content', flags: ['--content'], type: 'text', help: 'Text to write (modes w, a, x).' },
    ],
    run(o, ctx) {
      const p = o.path as string;
      const mode = o.mode as string;
      const content = (o.content as string | null | undefined) ?? null;
      const abs = real(ctx.fsRoot, p);
      const kind = /^[rwax]b?\+?$|^[rwax]\+?b$/.test(mode) ? mode[0] : fail(`Invalid mode: ${mode}`);
      if (isDir(abs)) fail(`Is a directory: ${p}`);
      if (kind === 'r') {
        if (!existsSync(abs)) fail(`File not found: ${p}`);
        if (content !== null) fail('--content needs a writing mode (w, a or x)');
      } else {
        if (!isDir(dirname(abs))) fail(`Parent directory does not exist: ${pyDirname(p)}`);
        if (kind === 'x' && existsSync(abs)) fail(`File already exists: ${p}`);
        if (kind === 'a') appendFileSync(abs, content ?? '');
        else writeFileSync(abs, content ?? '');
      }
      const args: Record<string, unknown> = { path: p, mode };
      if (content !== null) args.content = content;
      return { output: { status: 'success', path: driveName(ctx.fsRoot, abs), mode }, args, ret: null };
    },
  },
];

export const cloudDriveApp: AppDef = {
  cli: 'cloud-drive',
  stateName: 'Files',
  logClass: 'SandboxLocalFileSystem',
  help: 'CloudDrive - Gaia2 filesystem app CLI.',
  commands: [...reads, ...writes],
};
