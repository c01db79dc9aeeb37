// Checkpoints of a universe chain: after each judged scenario, what it left for the next one
// (carry.ts) as `sequential_state/<universe>/<position>_<scenario>.tar.gz`, written whole or not
// at all (a temporary name, then a rename), so `--retry` resumes a chain from the last one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { packFiles, treeOf, type TarEntry } from '../engine/archive.js';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { asWritten, type CarriedState } from './carry.js';

/** The folder of a run's checkpoints (per run_k of a pass@k run: each replays its chains). */
export const SEQUENTIAL_STATE_DIR = 'sequential_state';

export function checkpointPath(runDir: string, universeId: string, position: number, scenarioId: string): string {
  return join(runDir, SEQUENTIAL_STATE_DIR, universeId, `${position}_${scenarioId.replace(/[^\w.-]/g, '_')}.tar.gz`);
}

// One top folder, so a reader of the archive sees state/, drive/ and home/ under it.
const TOP = 'carry';

export async function writeCheckpoint(file: string, carried: CarriedState): Promise<void> {
  const entries: TarEntry[] = [
    ...[...carried.states].map(([name, content]): TarEntry => ({ name: `${TOP}/state/${name}`, content })),
    ...carried.home.map((e): TarEntry => ({ name: `${TOP}/home/${e.path}`, ...asWritten(e) })),
    ...carried.drive.map((e): TarEntry => ({ name: `${TOP}/drive/${e.path}`, ...asWritten(e) })),
  ];
  await writeFileAtomic(file, gzipSync(await packFiles(entries)));
}

/** A checkpoint's carried state; null when there is none. A damaged one throws. */
export async function readCheckpoint(file: string): Promise<CarriedState | null> {
  if (!existsSync(file)) return null;
  const tree = await treeOf(Readable.from([gunzipSync(readFileSync(file))]));
  const states = new Map<string, Buffer>();
  const home: CarriedState['home'] = [];
  const drive: CarriedState['drive'] = [];
  for (const e of tree) {
    if (e.path.startsWith('state/') && e.type === 'file') states.set(e.path.slice('state/'.length), e.content!);
    else if (e.path.startsWith('home/')) home.push({ ...e, path: e.path.slice('home/'.length) });
    // the drive's root is the folder itself (its path in the tree may or may not end with '/')
    else if (e.path === 'drive' || e.path.startsWith('drive/')) drive.push({ ...e, path: e.path.slice('drive/'.length) });
  }
  return { states, home, drive };
}
