// `gaia2-runner aggregate`: the shard folders of an output directory → one results.jsonl,
// report.json/report.md, run_config.json and index.html at its root. The checks come first and
// nothing is written when one fails; the shard folders are only read.
import { join } from 'node:path';
import { SHARDS_DIR } from '../plan/shard.js';
import { ResultsBook, resultKey } from '../orchestrator/results-file.js';
import { writeReport, type Report } from '../report/index.js';
import { buildViewer, missingTracePages } from '../viewer/index.js';
import { checkNoDuplicates, checkSameSettings, checkShardSet, incompleteShards, type IncompleteShard } from './check.js';
import { readShardFolders } from './folders.js';
import { mergedRecord } from './merged-record.js';
import { writeRunRecord } from '../record/index.js';
import { writeDigests } from '../provenance/index.js';

export interface AggregateOutcome {
  numShards: number;
  /** Results merged (scenarios × runs). */
  results: number;
  incomplete: IncompleteShard[];
  report: Report;
  reportText: string;
  /** False when the viewer could not be built (the message went to `warn`). */
  viewer: boolean;
}

export async function aggregateShards(root: string, o: { warn: (line: string) => void; now?: Date }): Promise<AggregateOutcome> {
  const shards = readShardFolders(root, o.warn);
  const numShards = checkShardSet(shards, join(root, SHARDS_DIR));
  checkSameSettings(shards);
  checkNoDuplicates(shards);
  const incomplete = incompleteShards(shards);
  for (const x of incomplete) o.warn(`${x.rel} is incomplete: ${x.results} of ${x.planned} planned results (finish it with run-dataset --retry on that machine, then aggregate again)`);

  const passAt = shards[0]!.passAt;
  const records = shards.flatMap((s) => s.results);
  // One results.jsonl in the order a single run writes it (run-major, then scenario path).
  const book = new ResultsBook(root, 1, null);
  for (const r of records) book.set(resultKey(passAt > 1 ? r.runIndex : null, r.key), null, r.result);
  await book.flush();
  await writeRunRecord(root, mergedRecord(shards, incomplete, o.now ?? new Date()));
  const { report, text } = await writeReport(root, { records, numRuns: passAt, warn: o.warn });
  // The merged run sealed like a single one: `verify` of the root covers every shard's runs.
  await writeDigests(root);
  let viewer = true;
  try {
    await buildViewer(root);
    const missing = missingTracePages(root);
    if (missing.length) o.warn(`${missing.length} scenario run(s) have no trace page in their shard (its viewer was not built), e.g. ${missing[0]}: run \`gaia2-runner view --output-dir <that shard folder>\``);
  } catch (e) {
    viewer = false;
    o.warn(`viewer not generated: ${(e as Error).message}`);
  }
  return { numShards, results: records.length, incomplete, report, reportText: text, viewer };
}
