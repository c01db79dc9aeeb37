// GET /artifacts' tar form: the files opened first (missing and unreadable told apart, as the
// JSON form does), then streamed as a POSIX tar that the system's tar and the runner's reader
// both read back byte for byte, long names included; a file that changes while it is sent
// keeps the archive well formed.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openArtifacts, sendTar } from '../../../agent-image/src/adapter/artifacts-tar.js';
import { readArtifacts } from '../../../agent-image/src/adapter/index.js';
import { tarFiles } from '../../../runner/src/engine/index.js';

async function tarOf(paths: Array<readonly [string, string]>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => out.on('end', r));
  await sendTar(out, openArtifacts(paths).files);
  await done;
  return Buffer.concat(chunks);
}

describe('artifacts as a tar stream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-artifacts-tar-'));
  const big = Buffer.alloc(3 * 1024 * 1024 + 17);
  for (let i = 0; i < big.length; i++) big[i] = (i * 13) & 0xff;
  writeFileSync(join(dir, 'events.jsonl'), big);
  writeFileSync(join(dir, 'empty.log'), '');
  const longName = `agent-trace/${'n'.repeat(120)}.json`;
  writeFileSync(join(dir, 'long.json'), '{"long": true}\n');
  mkdirSync(join(dir, 'a-directory'));
  const paths: Array<readonly [string, string]> = [
    [join(dir, 'events.jsonl'), 'events.jsonl'],
    [join(dir, 'empty.log'), 'eventd.log'],
    [join(dir, 'long.json'), longName],
    [join(dir, 'nope.json'), 'daemon_status.json'],
    [join(dir, 'a-directory'), 'trace.jsonl'],
  ];

  it('lists missing and unreadable files as the JSON answer does', () => {
    const opened = openArtifacts(paths);
    const json = readArtifacts(paths);
    expect({ missing: opened.missing, unreadable: opened.unreadable }).toEqual({ missing: json.missing, unreadable: json.unreadable });
    expect(opened.files.map((f) => f.name)).toEqual(Object.keys(json.files));
    return sendTar(new PassThrough().resume(), opened.files); // closes the descriptors
  });

  it("gives the same bytes as the JSON answer, through the runner's reader and the system's tar", async () => {
    const tar = await tarOf(paths);
    expect(tar.length % 512).toBe(0);
    const json = readArtifacts(paths);
    const files = await tarFiles(Readable.from([tar]));
    expect([...files.keys()]).toEqual(Object.keys(json.files));
    for (const [name, b64] of Object.entries(json.files)) expect(files.get(name)!.equals(Buffer.from(b64, 'base64')), name).toBe(true);
    const tarFile = join(dir, 'out.tar');
    writeFileSync(tarFile, tar);
    expect(execFileSync('tar', ['-tf', tarFile], { encoding: 'utf8' }).trim().split('\n')).toEqual(['events.jsonl', 'eventd.log', longName]);
    const x = mkdtempSync(join(tmpdir(), 'gaia2-untar-'));
    execFileSync('tar', ['-xf', tarFile, '-C', x]);
    expect(readFileSync(join(x, 'events.jsonl')).equals(big)).toBe(true);
    expect(readFileSync(join(x, longName), 'utf8')).toBe('{"long": true}\n');
  });

  it('a file that grows after it was opened is sent as it was (the archive stays well formed)', async () => {
    const f = join(dir, 'growing.jsonl');
    writeFileSync(f, 'one\n');
    const opened = openArtifacts([[f, 'events.jsonl']]);
    appendFileSync(f, 'two\n');
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await sendTar(out, opened.files);
    expect((await tarFiles(Readable.from([Buffer.concat(chunks)]))).get('events.jsonl')?.toString()).toBe('one\n');
  });
});
