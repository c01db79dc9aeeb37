import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { errText, testWorld, type TestWorld } from './rest-world.js';

const TREE = {
  files: {
    name: '',
    type: 'directory',
    children: [
      { name: 'Documents', type: 'directory', children: [
        { name: 'hello.txt', type: 'file', real_path: 'demo/hello.txt' },
        { name: 'data.csv', type: 'file', real_path: 'demo/data.csv' },
        { name: 'empty.md', type: 'file' },
      ] },
      { name: 'Pictures', type: 'directory', children: [] },
      { name: 'home', type: 'directory', children: [{ name: 'userhome', type: 'directory', children: [{ name: 'notes.txt', type: 'file', real_path: 'demo/notes.txt' }] }] },
    ],
  },
};

let w: TestWorld;
beforeEach(async () => {
  w = await testWorld([{ name: 'Files', class_name: 'SandboxLocalFileSystem', app_state: TREE }], {
    backing: { 'demo/hello.txt': 'hello world', 'demo/data.csv': 'a,b\r\n1,2\r\n', 'demo/notes.txt': 'x'.repeat(250) },
  });
});
const cd = (...a: string[]) => w.run(['cloud-drive', ...a]);

describe('cloud-drive reads', () => {
  it('cats raw text (universal newlines), logs the path as typed and a 200-char preview', async () => {
    const r = await cd('cat', '--path', '/Documents/hello.txt');
    expect([r.exitCode, r.stdout]).toEqual([0, 'hello world']);
    expect(r.lines[0]).toContain('"app": "SandboxLocalFileSystem", "fn": "cat", "args": {"path": "/Documents/hello.txt"}, "w": false, "ret": "hello world"');
    expect((await cd('cat', '--path', 'Documents/data.csv')).stdout).toBe('a,b\n1,2\n');
    const long = await cd('cat', '--path', '~/notes.txt');
    expect(JSON.parse(long.lines[0]!).ret).toBe('x'.repeat(200) + '...');
  });

  it('cat errors: missing, directory, binary, outside the sandbox', async () => {
    expect(errText(await cd('cat', '--path', '/nope.txt'))).toBe('File not found: /nope.txt');
    expect(errText(await cd('cat', '--path', '/Documents'))).toBe('Is a directory: /Documents');
    writeFileSync(join(w.fsRoot, 'Pictures/x.bin'), Buffer.from([0xff, 0xfe, 0x00]));
    expect(errText(await cd('cat', '--path', '/Pictures/x.bin'))).toBe('Cannot read binary file as text: /Pictures/x.bin');
    const escape = await cd('cat', '--path', '/Documents/../../../etc/passwd');
    expect([escape.exitCode, errText(escape), escape.events.length]).toEqual([1, 'Operation not allowed outside sandbox: Documents/../../../etc/passwd', 0]);
    expect(errText(await cd('cat', '--path', '/etc/passwd'))).toBe('File not found: /etc/passwd');
  });

  it('lists sorted sandbox paths, with --detail name/size/type', async () => {
    expect((await cd('ls', '--path', '/')).json).toEqual(['/Documents', '/Pictures', '/home']);
    const d = await cd('ls', '--path', 'Documents', '--detail');
    expect(d.json).toEqual([
      { name: '/Documents/data.csv', size: 10, type: 'file' },
      { name: '/Documents/empty.md', size: 0, type: 'file' },
      { name: '/Documents/hello.txt', size: 11, type: 'file' },
    ]);
    expect(JSON.parse(d.lines[0]!).args).toEqual({ path: 'Documents', detail: true });
    expect(errText(await cd('ls', '--path', '/missing'))).toBe('Directory not found: /missing');
    expect(errText(await cd('ls', '--path', '/Documents/hello.txt'))).toBe('Not a directory: /Documents/hello.txt');
    expect((await cd('ls')).exitCode).toBe(2);
  });

  it('exists and info', async () => {
    expect((await cd('exists', '--path', '/Pictures')).stdout).toBe('true\n');
    expect((await cd('exists', '--path', '/Nope')).stdout).toBe('false\n');
    const info = await cd('info', '--path', '/Documents/hello.txt');
    expect(info.json).toMatchObject({ name: '/Documents/hello.txt', size: 11, type: 'file' });
    expect(typeof (info.json as { created: unknown }).created).toBe('number');
    expect((await cd('info', '--path', '/Pictures')).json).toMatchObject({ type: 'directory' });
    expect(errText(await cd('info', '--path', '/x'))).toBe('Path not found: /x');
  });

  it('prints the tree with the root folder name and errors on files and missing paths', async () => {
    const t = await cd('tree');
    expect(t.stdout).toBe(
      'filesystem\n├── Documents\n    ├── data.csv\n    ├── empty.md\n    └── hello.txt\n├── Pictures\n└── home\n    └── userhome\n        └── notes.txt\n',
    );
    expect(JSON.parse(t.lines[0]!).args).toEqual({ path: '/' });
    expect((await cd('tree', '--path', '/Pictures')).stdout).toBe('Pictures\n');
    expect(errText(await cd('tree', '--path', '/Documents/hello.txt'))).toBe('Not a directory: /Documents/hello.txt');
    expect(errText(await cd('tree', '--path', '/zz'))).toBe('Path not found: /zz');
  });
});

describe('cloud-drive writes', () => {
  it('mkdir needs the parent unless --create-parents; existing targets fail cleanly', async () => {
    const r = await cd('mkdir', '--path', 'NewDir');
    expect(r.json).toEqual({ status: 'success', path: '/NewDir' });
    expect(r.lines[0]).toContain('"args": {"path": "NewDir", "create_parents": false}, "w": true, "ret": null');
    expect(errText(await cd('mkdir', '--path', '/a/b/c'))).toBe('Parent directory does not exist: /a/b');
    expect((await cd('mkdir', '--path', '/a/b/c', '--create-parents')).exitCode).toBe(0);
    expect(existsSync(join(w.fsRoot, 'a/b/c'))).toBe(true);
    const again = await cd('mkdir', '--path', '/NewDir');
    expect([again.exitCode, again.stderr.includes('Traceback')]).toEqual([1, false]);
  });

  it('makedirs creates chains and honours --exist-ok', async () => {
    expect((await cd('makedirs', '--path', '/x/y/z')).json).toEqual({ status: 'success', path: '/x/y/z' });
    expect(errText(await cd('makedirs', '--path', '/x/y/z'))).toBe('Directory already exists: /x/y/z');
    const ok = await cd('makedirs', '--path', '/x/y/z', '--exist-ok');
    expect(JSON.parse(ok.lines[0]!).args).toEqual({ path: '/x/y/z', exist_ok: true });
  });

  it('mv with --source/--destination or --path1/--path2, logged as path1/path2', async () => {
    const r = await cd('mv', '--source', '/Documents/hello.txt', '--destination', '/Pictures/hello.txt');
    expect(r.json).toEqual({ status: 'success', source: '/Documents/hello.txt', destination: '/Pictures/hello.txt' });
    expect(JSON.parse(r.lines[0]!).args).toEqual({ path1: '/Documents/hello.txt', path2: '/Pictures/hello.txt' });
    expect((await cd('mv', '--path1', 'Pictures/hello.txt', '--path2', 'hello.txt')).exitCode).toBe(0);
    expect(readFileSync(join(w.fsRoot, 'hello.txt'), 'utf8')).toBe('hello world');
    expect(errText(await cd('mv', '--source', '/gone', '--destination', '/x'))).toBe('Source not found: /gone');
    expect(errText(await cd('mv', '--source', '/hello.txt', '--destination', '/no/dir/h.txt'))).toBe('Destination directory does not exist: /no/dir');
  });

  it('rm removes files, directories only with --recursive', async () => {
    const r = await cd('rm', '--path', 'Documents/empty.md');
    expect(r.json).toEqual({ status: 'success', path: 'Documents/empty.md' });
    expect(JSON.parse(r.lines[0]!).args).toEqual({ path: 'Documents/empty.md', recursive: false });
    expect(errText(await cd('rm', '--path', '/Documents'))).toBe('Is a directory (use --recursive): /Documents');
    expect((await cd('rm', '--path', '/Documents', '--recursive')).exitCode).toBe(0);
    expect(existsSync(join(w.fsRoot, 'Documents'))).toBe(false);
    expect(errText(await cd('rm', '--path', '/Documents'))).toBe('Path not found: /Documents');
    expect(errText(await cd('rm', '--path', '/', '--recursive'))).toBe('Cannot remove the drive root');
  });

  it('rmdir removes empty directories only', async () => {
    expect((await cd('rmdir', '--path', '/Pictures')).json).toEqual({ status: 'success', path: '/Pictures' });
    expect(errText(await cd('rmdir', '--path', '/Documents'))).toBe('Directory not empty: /Documents');
    expect(errText(await cd('rmdir', '--path', '/Documents/hello.txt'))).toBe('Not a directory: /Documents/hello.txt');
    expect(errText(await cd('rmdir', '--path', '/Pictures'))).toBe('Path not found: /Pictures');
  });

  it('open (our addition for ARE open events) creates, writes, appends and reads', async () => {
    const w1 = await cd('open', '--path', '/Documents/new.txt', '--mode', 'w', '--content', 'abc');
    expect(w1.json).toEqual({ status: 'success', path: '/Documents/new.txt', mode: 'w' });
    expect(JSON.parse(w1.lines[0]!)).toMatchObject({ fn: 'open', w: true, args: { path: '/Documents/new.txt', mode: 'w', content: 'abc' } });
    await cd('open', '--path', '/Documents/new.txt', '--mode', 'a', '--content', 'def');
    expect(readFileSync(join(w.fsRoot, 'Documents/new.txt'), 'utf8')).toBe('abcdef');
    const r = await w.action('Files', 'open', { path: 'Documents/new.txt', mode: 'rb' });
    expect(JSON.parse(r.lines[0]!).args).toEqual({ path: 'Documents/new.txt', mode: 'rb' });
    expect(errText(await cd('open', '--path', '/Documents/new.txt', '--mode', 'x'))).toBe('File already exists: /Documents/new.txt');
    expect(errText(await cd('open', '--path', '/none.txt'))).toBe('File not found: /none.txt');
    expect(errText(await cd('open', '--path', '/a.txt', '--mode', 'q'))).toBe('Invalid mode: q');
  });
});
