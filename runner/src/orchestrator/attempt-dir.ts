// A run's earlier attempt moved aside, so a new attempt never mixes its files with old ones.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Moves a previous attempt's artifacts to <parent>/.attempts/<name>/<time> (spec §10.21). */
export function archiveAttempt(dir: string): void {
  if (!existsSync(dir)) return;
  const dest = join(dirname(dir), '.attempts', basename(dir), new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(dirname(dest), { recursive: true });
  renameSync(dir, dest);
}
