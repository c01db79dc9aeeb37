// Exit codes: 0 ok, 1 benchmark failures or runtime errors, 2 bad input (nothing launched),
// 3 infrastructure (the container engine is unreachable, the image is missing, …).
import { CommanderError } from 'commander';
import { redact } from '../secrets/redact.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return 2;
  // commander's own usage errors (unknown option, missing argument); 0 for --help / --version.
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
  const n = (err as { name?: string } | null)?.name;
  if (n === 'ConfigError' || n === 'ScenarioError' || n === 'DatasetError') return 2;
  if (n === 'EngineError') return 3;
  if (n === 'OutputWriteError') return 3; // the output disk failed: what was written is kept, --retry resumes
  if (n === 'UploadError') return 3; // the Hub failed: infrastructure, the export on disk is kept
  return 1;
}

export function formatError(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return redact(msg);
}
