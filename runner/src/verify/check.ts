// `gaia2-runner verify RUN_DIR`: a run directory checked against its digests.json, and every
// verdict recomputed offline from the artifacts (the judge's model calls answered from
// judge_trace.jsonl). Each disagreement is an issue naming the scenario run and what differs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createJudgeLlm, isTypesafeProvider, judgeEventLog, parsePromptVersion, type JudgeLlm } from '@gaia2/contract/lib/judge';
import { parseProvider } from '@gaia2/contract/lib/llm/config';
import type { ExtraBody } from '@gaia2/contract/lib/llm/extra-body';
import { loadScenarioText } from '@gaia2/contract/lib/scenario';
import { sha256File } from '../fsutil/hash.js';
import { datasetDigest, digestArtifacts, digestOf, DIGESTS_FILE, readDigests, verdictOf, type DigestsManifest, type Verdict } from '../provenance/index.js';
import { findRunRecord, type RunRecord as RecordedRun } from '../record/index.js';
import { loadRunRecords, type RunRecord } from '../report/index.js';
import { eventLogOf, readUserDetails, scenarioPath } from './artifacts.js';
import { replayFetch } from './replay.js';

export interface VerifyIssue {
  /** The scenario run's folder relative to the run directory; "." for the run as a whole. */
  run: string;
  what: string;
}

export interface VerifyOutcome {
  runs: number;
  rejudged: number;
  issues: VerifyIssue[];
}

/** Settings-level digests: the record against the manifest. */
function checkRecord(rec: RecordedRun | null, m: DigestsManifest, issues: VerifyIssue[]): void {
  const add = (what: string): void => void issues.push({ run: '.', what });
  if (!rec) return add('no run_config.json');
  if ((rec.image_id ?? null) !== m.image_id) add(`image id ${rec.image_id ?? 'none'} in run_config.json, ${m.image_id ?? 'none'} in ${DIGESTS_FILE}`);
  if (m.dataset_sha256 !== null && datasetDigest(m.scenario_hashes) !== m.dataset_sha256) add(`scenario_hashes in ${DIGESTS_FILE} do not match its dataset_sha256`);
  if (rec.scenario_hashes && digestOf(rec.scenario_hashes) !== digestOf(m.scenario_hashes)) add(`scenario hashes in run_config.json differ from ${DIGESTS_FILE}`);
  if (rec.dataset_sha256 && rec.dataset_sha256 !== m.dataset_sha256) add(`dataset_sha256 in run_config.json differs from ${DIGESTS_FILE}`);
  const judge = digestOf(rec.judge_options ?? null);
  if (judge !== m.judge_sha256 || (rec.judge_sha256 && rec.judge_sha256 !== judge)) add('judge settings differ from their recorded digest');
}

function checkFiles(dir: string, recorded: Record<string, string>, run: string, issues: VerifyIssue[]): void {
  const now = digestArtifacts(dir);
  for (const [name, sha] of Object.entries(recorded)) {
    if (!(name in now)) issues.push({ run, what: `artifact ${name} missing` });
    else if (now[name] !== sha) issues.push({ run, what: `artifact ${name} changed` });
  }
  for (const name of Object.keys(now)) if (!(name in recorded)) issues.push({ run, what: `artifact ${name} not in ${DIGESTS_FILE}` });
}

/** The judge of the record, its model calls answered from this run's judge_trace.jsonl; null: hard checks only. */
function replayJudge(rec: RecordedRun | null, dir: string): { llm: JudgeLlm | null; misses: string[] } {
  const j = rec?.judge_options;
  if (!j) return { llm: null, misses: [] };
  if (isTypesafeProvider(j.provider)) throw new Error('a TypeSafe judge keeps no traffic record to replay');
  const trace = join(dir, 'judge_trace.jsonl');
  const replay = replayFetch(existsSync(trace) ? readFileSync(trace, 'utf8') : '');
  const llm = createJudgeLlm({
    provider: parseProvider(j.provider, 'judge_options.provider'),
    model: j.model,
    apiKey: 'replay',
    ...(j.base_url ? { baseUrl: j.base_url } : replay.chatBaseUrl ? { baseUrl: replay.chatBaseUrl } : {}),
    ...(j.extra_body ? { extraBody: j.extra_body as ExtraBody } : {}),
    fetch: replay.fetch,
    retry: { maxRetries: 0, baseDelayMs: 0 },
  });
  return { llm, misses: replay.misses };
}

async function rejudge(r: RunRecord, rec: RecordedRun | null, root: string, issues: VerifyIssue[], run: string): Promise<Verdict | null> {
  const dir = dirname(r.path);
  const scen = scenarioPath(r.result, dir, root);
  const events = join(dir, 'events.jsonl');
  if (!scen) return (issues.push({ run, what: 'scenario file not found: cannot re-judge' }), null);
  if (!existsSync(events)) return (issues.push({ run, what: 'events.jsonl missing: cannot re-judge' }), null);
  const hash = rec?.scenario_hashes?.[r.key];
  if (hash && sha256File(scen) !== hash) issues.push({ run, what: `scenario file ${relative(root, scen) || scen} differs from the one run` });
  try {
    const { llm, misses } = replayJudge(rec, dir);
    const promptVersion = parsePromptVersion(rec?.judge_options?.prompt_version ?? undefined, 'judge_options.prompt_version');
    const v = await judgeEventLog(loadScenarioText(readFileSync(scen, 'utf8'), scen), eventLogOf(readFileSync(events, 'utf8')), { llm, userDetails: readUserDetails(join(dir, 'user_details.json')), promptVersion });
    for (const miss of misses) issues.push({ run, what: miss });
    return verdictOf(v.success);
  } catch (e) {
    issues.push({ run, what: `cannot re-judge: ${(e as Error).message}` });
    return null;
  }
}

/**
 * A sealed run directory, or a root whose folders are (a gaia2-run root's phases): each
 * verified, its runs named by their path under the root.
 */
export async function verifyRunDir(root: string): Promise<VerifyOutcome> {
  if (readDigests(root)) return verifySealed(root);
  const sealed = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && readDigests(join(root, e.name))).map((e) => e.name).sort();
  if (sealed.length === 0) return verifySealed(root);
  const all: VerifyOutcome = { runs: 0, rejudged: 0, issues: [] };
  for (const name of sealed) {
    const one = await verifySealed(join(root, name));
    all.runs += one.runs;
    all.rejudged += one.rejudged;
    all.issues.push(...one.issues.map((i) => ({ run: i.run === '.' ? name : join(name, i.run), what: i.what })));
  }
  return all;
}

async function verifySealed(root: string): Promise<VerifyOutcome> {
  const issues: VerifyIssue[] = [];
  const m = readDigests(root);
  if (!m) return { runs: 0, rejudged: 0, issues: [{ run: '.', what: `no ${DIGESTS_FILE}: the run was never sealed (or is unfinished)` }] };
  const rec = findRunRecord(root);
  checkRecord(rec, m, issues);
  const onDisk = new Map(loadRunRecords(root).map((r) => [relative(root, dirname(r.path)) || '.', r]));
  for (const run of Object.keys(m.runs)) if (!onDisk.has(run)) issues.push({ run, what: 'result.json missing' });
  let rejudged = 0;
  for (const [run, r] of onDisk) {
    const sealed = m.runs[run];
    if (!sealed) {
      issues.push({ run, what: `not in ${DIGESTS_FILE}` });
      continue;
    }
    checkFiles(dirname(r.path), sealed.files, run, issues);
    const recorded = verdictOf(r.result.success);
    if (recorded !== sealed.verdict) issues.push({ run, what: `verdict ${recorded} in result.json, ${sealed.verdict} when sealed` });
    // An error is no verdict: there is nothing the judge decided to recompute.
    if (recorded === 'error') continue;
    const again = await rejudge(r, rec, root, issues, run);
    if (again === null) continue;
    rejudged++;
    if (again !== recorded) issues.push({ run, what: `verdict differs: recorded ${recorded}, re-judged ${again}` });
  }
  return { runs: onDisk.size, rejudged, issues };
}
