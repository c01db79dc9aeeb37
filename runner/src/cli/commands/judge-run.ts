// `judge`'s work, loaded when the command runs.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createJudgeBackend, isTypesafeProvider, TYPESAFE_PROVIDER, judgeEventLog, parsePromptVersion, type EventLogVerdict, type JudgeLlm, type PromptVersion } from '@gaia2/contract/lib/judge';
import { parseExtraBody, type ExtraBody } from '@gaia2/contract/lib/llm/extra-body';
import { findRunRecord, runRecordFile } from '../../record/index.js';
import { parseProvider } from '@gaia2/contract/lib/llm/config';
import { loadScenarioText } from '@gaia2/contract/lib/scenario';
import { loadEnvForCli, lookupProviderKey } from '../../env/index.js';
import { writeJsonAtomic } from '../../fsutil/atomic.js';
import { classify, loadRunRecords } from '../../report/index.js';
import { redact, redactValue, registerSecret } from '../../secrets/redact.js';
import { UsageError } from '../errors.js';
import { usageOfTrace } from '../../usage/run-usage.js';
import { eventLogOf, readUserDetails, scenarioPath } from '../../verify/artifacts.js';

export interface JudgeFlags {
  scenario?: string;
  events?: string;
  outputDir?: string;
  llm: boolean;
  judgeProvider?: string;
  judgeModel?: string;
  judgeBaseUrl?: string;
  judgeApiKeyEnv?: string;
  judgePromptVersion?: string;
  judgeExtraBody?: string;
  json?: boolean;
}

interface JudgeSetup {
  /** The judge LLM (null: hard checks only), tracing its calls to `traceFile` when given. */
  llm: (traceFile?: string) => JudgeLlm | null;
  describe: { mode: 'llm' | 'hard-only'; provider?: string; model?: string; prompt_version?: PromptVersion; extra_body?: ExtraBody };
  promptVersion: PromptVersion;
}

/** The judge LLM from the flags; none (hard-only) without --judge-model or with --no-llm. */
function judgeSetup(f: JudgeFlags, env: NodeJS.ProcessEnv): JudgeSetup {
  const promptVersion = promptVersionOf(f);
  if (!f.llm || !f.judgeModel) {
    if (f.llm && (f.judgeProvider || f.judgeBaseUrl || f.judgeApiKeyEnv || f.judgeExtraBody)) {
      throw new UsageError('--judge-provider/--judge-base-url/--judge-api-key-env/--judge-extra-body need --judge-model');
    }
    return { llm: () => null, describe: { mode: 'hard-only' }, promptVersion };
  }
  if (!f.judgeProvider) throw new UsageError('--judge-model needs --judge-provider');
  const provider = isTypesafeProvider(f.judgeProvider) ? TYPESAFE_PROVIDER : parseProvider(f.judgeProvider, '--judge-provider');
  let apiKey: string | undefined;
  if (f.judgeApiKeyEnv) {
    apiKey = env[f.judgeApiKeyEnv]?.trim() || undefined;
    if (!apiKey) throw new UsageError(`--judge-api-key-env: variable ${f.judgeApiKeyEnv} is not set`);
  } else apiKey = lookupProviderKey(provider, env)?.value;
  registerSecret(apiKey);
  const model = f.judgeModel;
  let extraBody: ExtraBody | undefined;
  try {
    extraBody = parseExtraBody(f.judgeExtraBody, '--judge-extra-body');
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const backend = (traceFile?: string) =>
    createJudgeBackend({
      provider,
      model,
      ...(apiKey ? { apiKey } : {}),
      ...(f.judgeBaseUrl ? { baseUrl: f.judgeBaseUrl } : {}),
      ...(extraBody ? { extraBody } : {}),
      ...(traceFile ? { traceFile } : {}),
      labels: { provider: '--judge-provider', extraBody: '--judge-extra-body' },
    });
  // configuration errors (TypeSafe options, a missing key) before any run is read
  try {
    backend();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const llm = (traceFile?: string) => backend(traceFile);
  return { llm, describe: { mode: 'llm', provider, model, prompt_version: promptVersion, ...(extraBody ? { extra_body: extraBody } : {}) }, promptVersion };
}

/**
 * The prompt set: --judge-prompt-version, else (re-judging a run) the one the run was judged
 * with, as its run_config.json records it, else the default set.
 */
function promptVersionOf(f: JudgeFlags): PromptVersion {
  let value = f.judgePromptVersion;
  let where = '--judge-prompt-version';
  if (value === undefined && f.outputDir) {
    const recorded = findRunRecord(resolve(f.outputDir))?.judge_options?.prompt_version;
    if (recorded) {
      value = recorded;
      where = `judge_options.prompt_version in ${runRecordFile(resolve(f.outputDir))}`;
    }
  }
  try {
    return parsePromptVersion(value, where);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${(e as Error).message}`);
  }
}

const readEventLog = (path: string) => eventLogOf(readText(path, 'events log'));

const verdictWord = (success: boolean | null | undefined, status?: string): string =>
  success === true ? 'pass' : success === false ? 'fail' : `error${status ? ` (${status})` : ''}`;

/** Public shape of a verdict (the turn verdicts' id mappings are kept, the records are the turns). */
function verdictJson(v: EventLogVerdict, judge: JudgeSetup['describe']) {
  const { verdicts: _verdicts, ...rest } = v;
  return { ...rest, judge };
}

async function judgeOne(f: JudgeFlags, setup: JudgeSetup): Promise<void> {
  if (!f.scenario || !f.events) throw new UsageError('give --scenario and --events, or --output-dir');
  const scenario = loadScenarioText(readText(f.scenario, 'scenario'), f.scenario);
  const v = await judgeEventLog(scenario, readEventLog(f.events), { llm: setup.llm(), promptVersion: setup.promptVersion });
  const out = redactValue(verdictJson(v, setup.describe));
  if (f.json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  else {
    process.stdout.write(`${scenario.id}: ${verdictWord(v.success, v.status)} [${v.judge_mode}]\n`);
    if (v.failure_reason) process.stdout.write(`  ${redact(v.failure_reason)}\n`);
    if (v.error) process.stdout.write(`  ${v.error_kind}: ${redact(v.error)}\n`);
  }
  process.exitCode = v.success === true ? 0 : v.success === false ? 1 : 2;
}

interface RejudgeRow {
  path: string;
  scenario_id: string;
  original: string;
  rejudged: string;
  changed: boolean;
}

async function rejudgeRun(f: JudgeFlags, setup: JudgeSetup): Promise<void> {
  const root = resolve(f.outputDir!);
  if (!existsSync(root)) throw new UsageError(`--output-dir does not exist: ${root}`);
  const records = loadRunRecords(root, (l) => process.stderr.write(`${l}\n`));
  if (records.length === 0) throw new UsageError(`no result.json under ${root}`);
  const rows: RejudgeRow[] = [];
  let errors = 0;
  for (const rec of records) {
    const dir = dirname(rec.path);
    const original = { success: rec.result.success ?? null, status: classify(rec.result), failure_reasons: rec.result.failure_reasons ?? [] };
    const scen = scenarioPath(rec.result, dir, root);
    const eventsFile = join(dir, 'events.jsonl');
    let body: Record<string, unknown>;
    let word: string;
    if (!scen || !existsSync(eventsFile)) {
      const error = !scen ? `scenario file not found (${rec.result.scenario_file ?? 'no scenario_file in result.json'})` : 'events.jsonl missing';
      body = { success: null, status: 'error', error_kind: 'artifact_error', error, judge: setup.describe };
      word = 'error';
    } else {
      const scenario = loadScenarioText(readText(scen, 'scenario'), scen);
      // The judge's calls of this run go to their own trace, so rejudge.json can state their usage.
      const trace = join(dir, 'rejudge_trace.jsonl');
      rmSync(trace, { force: true });
      const v = await judgeEventLog(scenario, readEventLog(eventsFile), { llm: setup.llm(trace), userDetails: readUserDetails(join(dir, 'user_details.json')), promptVersion: setup.promptVersion });
      const usage = existsSync(trace) ? usageOfTrace(readFileSync(trace, 'utf8'), setup.describe.model ?? null) : null;
      body = { ...verdictJson(v, setup.describe), ...(usage ? { usage: { judge: usage } } : {}) };
      word = verdictWord(v.success);
    }
    if (word === 'error') errors++;
    const scenarioId = rec.result.scenario_id;
    await writeJsonAtomic(join(dir, 'rejudge.json'), redactValue({ scenario_id: scenarioId, judged_at: new Date().toISOString(), ...body, original }));
    const originalWord = verdictWord(original.success);
    rows.push({ path: relative(root, dir) || '.', scenario_id: scenarioId, original: originalWord, rejudged: word, changed: originalWord !== word });
  }
  if (f.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    const width = Math.max(8, ...rows.map((r) => r.path.length));
    process.stdout.write(`${'run'.padEnd(width)}  original  rejudged  [${setup.describe.mode}]\n`);
    for (const r of rows) {
      const line = `${r.path.padEnd(width)}  ${r.original.padEnd(8)}  ${r.rejudged.padEnd(8)}${r.changed ? '  changed' : ''}`;
      process.stdout.write(`${line.trimEnd()}\n`);
    }
    const changed = rows.filter((r) => r.changed).length;
    process.stdout.write(`${rows.length} run(s) re-judged, ${changed} changed, ${errors} error(s); verdicts in rejudge.json beside each result.json\n`);
  }
  process.exitCode = errors ? 2 : 0;
}

/** Re-judges one log (--scenario/--events) or every run under --output-dir. */
export async function judge(f: JudgeFlags, envFile: string | undefined): Promise<void> {
  loadEnvForCli(envFile, (l) => process.stderr.write(`${l}\n`));
  const setup = judgeSetup(f, process.env);
  if (f.outputDir) await rejudgeRun(f, setup);
  else await judgeOne(f, setup);
}
