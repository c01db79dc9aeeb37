// results.jsonl: one result per line, path order, rewritten atomically after every finished
// run so a killed runner leaves a complete file of what finished.
import { join } from 'node:path';
import type { ScenarioResult } from '../../../agent-image/src/contract/result.js';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { redact } from '../secrets/redact.js';

export class ResultsBook {
  private readonly byKey = new Map<string, { run: number | null; result: ScenarioResult }>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly outputDir: string | null,
    private readonly passAt: number,
    private readonly extraPath: string | null,
  ) {}

  set(key: string, run: number | null, result: ScenarioResult): void {
    this.byKey.set(key, { run, result });
  }

  all(): ScenarioResult[] {
    return this.sorted().map((e) => e.result);
  }

  private sorted() {
    return [...this.byKey.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, v]) => v);
  }

  /** Queues a rewrite of every results file; writes never overlap. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeAll());
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    const lines = (rs: Array<{ result: ScenarioResult }>) => rs.map((r) => redact(JSON.stringify(r.result)) + '\n').join('');
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
