// results.jsonl: one result per line, path order, rewritten atomically after every finished
// run so a killed runner leaves a complete file of what finished. Each result is serialized
// (and redacted) once; runs that finish while a rewrite is under way share the next one, so a
// run of thousands does not rewrite the file once per run while runs keep finishing.
import { join } from 'node:path';
import type { ScenarioResult } from '@gaia2/contract/result';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { redact } from '../secrets/redact.js';

/** A result's place in results.jsonl: its scenario key, run-major for pass@N (`run_0002/search/s1`). */
export function resultKey(runIndex: number | null, key: string): string {
  return runIndex ? `run_${String(runIndex).padStart(4, '0')}/${key}` : key;
}

export class ResultsBook {
  private readonly byKey = new Map<string, { run: number | null; result: ScenarioResult; line: string }>();
  private writing: Promise<void> = Promise.resolve();
  /** The rewrite queued behind the current one (not started: it will see every result set so far). */
  private next: Promise<void> | null = null;

  constructor(
    private readonly outputDir: string | null,
    private readonly passAt: number,
    private readonly extraPath: string | null,
  ) {}

  set(key: string, run: number | null, result: ScenarioResult): void {
    this.byKey.set(key, { run, result, line: redact(JSON.stringify(result)) + '\n' });
  }

  all(): ScenarioResult[] {
    return this.sorted().map((e) => e.result);
  }

  private sorted() {
    return [...this.byKey.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, v]) => v);
  }

  /** Resolves once every results file holds every result set so far; writes never overlap. */
  flush(): Promise<void> {
    const write = () => {
      this.next = null;
      return this.writeAll();
    };
    // (after a failed rewrite the next one is still tried; the failure reaches its own callers)
    this.next ??= this.writing.then(write, write);
    this.writing = this.next;
    return this.next;
  }

  private async writeAll(): Promise<void> {
    const lines = (rs: Array<{ line: string }>) => rs.map((r) => r.line).join('');
    const entries = this.sorted();
    if (this.outputDir) {
      if (this.passAt > 1) {
        for (let k = 1; k <= this.passAt; k++) {
          await writeFileAtomic(join(this.outputDir, `run_${k}`, 'results.jsonl'), lines(entries.filter((e) => e.run === k)));
        }
      }
      await writeFileAtomic(join(this.outputDir, 'results.jsonl'), lines(entries));
    }
    if (this.extraPath) await writeFileAtomic(this.extraPath, lines(entries));
  }
}
