// Reads the CLI differential corpus (test/fixtures/cli-diff/corpus.jsonl.gz, recorded from the
// reference CLIs by scripts/cli-diff/record.py) and replays it against our CLIs in-process:
// one world per seed, restored from an in-memory snapshot after every command.
import { accessSync, constants, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { formatEventLine } from '../../../../agent-image/src/contract/pyjson.js';
import { initWorld, runCli, type MemoryStates } from '../../../../agent-image/src/apps/index.js';
import { loadTranscript, setupWorld } from '../golden.js';
import { lastLine, normText } from './normalise.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const CORPUS = join(ROOT, 'test/fixtures/cli-diff/corpus.jsonl.gz');

export interface SeedRecord {
  seed: number;
  /** Repo-relative: a golden CLI transcript (its seed) or a scenario JSON. */
  source: string;
  clock: string;
}

/** One command and what the reference did. */
export interface CommandRecord {
  s: number;
  argv: string[];
  env?: Record<string, string>;
  /** Commands run first (outcome not recorded): a ride in progress, a filled cart, … */
  pre?: string[][];
  code: number;
  out: string;
  /** Last non-blank stderr line. */
  err: string;
  /** The reference crashed with a traceback (err is its last line). */
  crash?: boolean;
  ev: string[];
}

export interface Outcome {
  code: number;
  out: string;
  err: string;
  ev: string[];
}

export function readCorpus(file = CORPUS): { seeds: SeedRecord[]; commands: CommandRecord[] } {
  const seeds: SeedRecord[] = [];
  const commands: CommandRecord[] = [];
  for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as SeedRecord | CommandRecord;
    if ('argv' in rec) commands.push(rec);
    else seeds.push(rec);
  }
  return { seeds, commands };
}

/** The reference's uuid4() sequence in the recorder: c0de + the counter, 32 hex digits. */
export function idCounter(): { next: () => string; reset: () => void } {
  let n = 0;
  return {
    next: () => `c0de${(++n).toString(16).padStart(28, '0')}`,
    reset: () => {
      n = 0;
    },
  };
}

interface Snapshot {
  files: Map<string, Buffer>;
  dirs: string[];
}

function scratchDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** Whether the file still holds these bytes (file times are too coarse to tell). */
function holds(file: string, data: Buffer): boolean {
  try {
    return readFileSync(file).equals(data);
  } catch {
    return false;
  }
}

function snapshot(dir: string): Snapshot {
  const files = new Map<string, Buffer>();
  const dirs: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        dirs.push(relative(dir, p));
        walk(p);
      } else files.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return { files, dirs };
}

/** Puts the state dir back as the snapshot had it (the drive tree only when asked). */
function restore(dir: string, snap: Snapshot, withDrive: boolean): void {
  if (withDrive) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const d of snap.dirs) mkdirSync(join(dir, d), { recursive: true });
  }
  for (const [rel, data] of snap.files) {
    const file = join(dir, rel);
    if (!withDrive && (rel.includes('/') || holds(file, data))) continue;
    writeFileSync(file, data);
  }
}

/** A seeded world for one seed record, resettable after each command. */
export class SeedWorld {
  private constructor(
    readonly stateDir: string,
    readonly clock: string,
    private readonly snap: Snapshot,
  ) {}

  static async create(seed: SeedRecord): Promise<SeedWorld> {
    let seeded: string;
    if (seed.source.startsWith('test/fixtures/golden/cli/')) {
      seeded = (await setupWorld(loadTranscript(seed.source.split('/').pop()!))).stateDir;
    } else {
      seeded = join(mkdtempSync(join(tmpdir(), 'gaia2-cli-diff-')), 'state');
      await initWorld(readFileSync(join(ROOT, seed.source), 'utf8'), seeded);
    }
    // Thousands of small state writes: on a RAM disk where there is one.
    const stateDir = join(mkdtempSync(join(scratchDir(), 'gaia2-cli-diff-')), 'state');
    cpSync(seeded, stateDir, { recursive: true });
    rmSync(dirname(seeded), { recursive: true, force: true });
    return new SeedWorld(stateDir, seed.clock, snapshot(stateDir));
  }

  /** Runs one command and resets the world; the outcome normalised like the corpus. */
  async run(rec: CommandRecord, ids: ReturnType<typeof idCounter>, states?: MemoryStates): Promise<Outcome> {
    ids.reset();
    const ctx = { stateDir: this.stateDir, simTime: this.clock, ids: ids.next, states };
    for (const argv of rec.pre ?? []) await runCli(argv, ctx);
    const r = await runCli(rec.argv, { ...ctx, eventId: rec.env?.GAIA2_EVENT_ID });
    // The daemon's states (MemoryStates) write their files only when asked: now, so the reset
    // below finds what a per-command save would have left.
    states?.persist();
    // Usage errors never reach state; other failures must not save (city and cabs save even
    // on reads and failed calls). A command that wrongly saved shows up in the next ones.
    const pre = (rec.pre ?? []).length > 0;
    const saves = pre || r.exitCode === 0 || (r.exitCode === 1 && (rec.argv[0] === 'city' || rec.argv[0] === 'cabs'));
    const touchesDrive = (pre || r.exitCode !== 2) && (rec.argv[0] === 'cloud-drive' || rec.argv.some((a) => a.startsWith('download')));
    if (saves || touchesDrive) restore(this.stateDir, this.snap, touchesDrive);
    return {
      code: r.exitCode,
      out: normText(r.stdout, this.stateDir),
      err: normText(lastLine(r.stderr), this.stateDir),
      ev: r.events.map((e) => normText(formatEventLine(e), this.stateDir)),
    };
  }

  dispose(): void {
    rmSync(dirname(this.stateDir), { recursive: true, force: true });
  }
}

