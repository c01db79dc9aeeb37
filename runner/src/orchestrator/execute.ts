// Runs a plan's scenarios: (scenario, run k) tasks in one bounded queue, retry selection,
// crash-safe outputs, Ctrl-C handling (abort → running containers stop, nothing new
// starts, the directory stays resumable with --retry), finished containers removed in the
// background once their result is recorded (drained before returning), and the final report.
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AgentRecord, ScenarioResult } from '@gaia2/contract/result';
import { ConfigError } from '../plan/errors.js';
import { engineNetwork, hostActivityTimeout, sealedNetwork, type RunPlan } from '../plan/plan.js';
import type { ResolvedDataset } from '../dataset/index.js';
import { LABELS, type UnitBackend } from '../engine/index.js';
import type { buildBaseEnv } from '../env/container-env.js';
import { startRunGateway, type GatewayRecord, type RunGateway } from '../gateway/index.js';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import type { Progress } from '../progress/index.js';
import { buildReport, classify, loadRunRecords, readReportMeta, renderText, saveReport, type Report, type RunRecord } from '../report/index.js';
import type { RunScenarioFn } from '../run/index.js';
import { BackgroundWork } from '../run/background-work.js';
import { sealAllowList } from '../run/seal.js';
import { redact, redactValue } from '../secrets/redact.js';
import { runPool } from './pool.js';
import { archiveAttempt } from './attempt-dir.js';
import { allocatePort } from './ports.js';
import { ResultsBook, resultKey } from './results-file.js';
import { collectProvenance, writeDigests } from '../provenance/index.js';
import { configKey, resultCacheRoot, withResultCache } from '../result-cache/index.js';
import { judgeSettingsRecord, previousRunIds, readRunConfig, runConfigRecord, writeRunConfig } from './run-config-file.js';
import { buildTasks, selectForRetry, type Task } from './tasks.js';
import { buildChainTasks, chainRuns, runChain, selectChainsForRetry, type ChainStepRun, type ChainTask } from './chains.js';
import { readSequences } from '../sequences/parse.js';
import { resolveChains, type ChainPlan } from '../sequences/resolve.js';
import { preflightRun } from './preflight.js';
import { gatewayResult, gatewayTotals } from './gateway-result.js';
import { watchGateway } from './gateway-live.js';
import { weighAgentFailures } from '../run/agent-failures.js';
import { sleep } from '../run/sleep.js';
import { OutageGate } from '../engine/outage/index.js';
import { MAX_OUTAGE_RESTARTS, withOutageRestarts } from './outage-restart.js';
import { RunStop } from './run-stop.js';
import { budgetReason } from '../plan/budget.js';


export interface ExecuteDeps {
  engine: UnitBackend;
  runScenario: RunScenarioFn;
  progress: Progress;
  hostEnv?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Status poll interval passed to each run (tests use small values). */
  pollIntervalMs?: number;
  /** The engine outage probe's backoff (tests shorten it). */
  /** The outage gate's timings (tests shorten them): probe backoff, settle time, a suspect failure's watch. */
  outageTiming?: { baseMs: number; maxMs: number; settleMs?: number; watchMs?: number };
  /** The gateway's backoff without retry-after (tests shorten it). */
  gatewayBackoff?: { baseDelayMs: number; maxDelayMs: number };
}

export interface ExecuteOutcome {
  runId: string;
  results: ScenarioResult[];
  report: Report;
  reportText: string;
  /** Tasks run by this invocation / skipped because already judged. */
  ran: number;
  kept: number;
  interrupted: boolean;
  /** Why runs of the plan were not started while the others finished (the whole run's budget spent). */
  notStarted?: string;
}

export function newRunId(): string {
  return `g2-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
}

/** The run function behind the result cache; the plain one when the image id is unknown. */
async function cachingRun(plan: RunPlan, deps: ExecuteDeps, hostEnv: Record<string, string | undefined>, log: (l: string) => void): Promise<RunScenarioFn> {
  const imageId = deps.engine.images ? await deps.engine.images.id(plan.agent.image).catch(() => null) : null;
  if (!imageId) {
    log('Result cache off: the engine does not report the image id, so an identical image cannot be recognised');
    return deps.runScenario;
  }
  const root = resultCacheRoot(hostEnv);
  log(`Result cache: ${root} (finished, judged runs with identical inputs are reused)`);
  return withResultCache(deps.runScenario, { root, configKey: configKey(plan, imageId), log });
}

function crashResult(t: Task, e: unknown, plan: RunPlan, agent: AgentRecord): ScenarioResult {
  return {
    scenario_id: t.entry.id,
    success: null,
    status: 'error',
    error_kind: 'internal_error',
    error: redact(e instanceof Error ? e.message : String(e)),
    scenario_file: t.entry.file,
    ...(t.entry.split ? { split: t.entry.split } : {}),
    ...(t.runIndex ? { run_index: t.runIndex } : {}),
    image: plan.agent.image,
    agent,
  };
}

export async function executePlan(given: RunPlan, selected: ResolvedDataset, deps: ExecuteDeps): Promise<ExecuteOutcome> {
  let plan = given;
  // A sequences file is the selection: its chains, checked against the dataset before anything starts.
  const sequences = plan.target.kind !== 'scenario' ? (plan.target.sequences ?? null) : null;
  const chains = sequences ? resolveChains(readSequences(sequences), selected.entries, sequences) : null;
  const ds = chains ? { ...selected, entries: chains.flatMap((c) => c.entries) } : selected;
  if (chains && !plan.run.outputDir) throw new ConfigError('--sequences requires --output-dir');
  const hostEnv = deps.hostEnv ?? process.env;
  const out = plan.run.outputDir;
  const passAt = plan.run.passAt;
  if (plan.run.retry && (!out || !existsSync(out) || !statSync(out).isDirectory()))
    throw new ConfigError('--retry requires --output-dir pointing to an existing run');
  if (passAt > 1 && !out) throw new ConfigError('--pass-at > 1 requires --output-dir');
  const log = (l: string) => deps.progress.log(redact(l));
  // Model access: through the run's gateway (keys stay here, tokens go to the containers) or
  // direct (keys in the containers' environment) when it is off or cannot serve this run.
  const pre = await preflightRun(given, deps.engine, hostEnv, log);
  const { base, gateway: decision } = pre;
  plan = pre.plan;
  const runId = newRunId();
  const gw: RunGateway | null = decision.on ? await startRunGateway(plan, base, { runId, log, engine: deps.engine, ...(deps.gatewayBackoff ? { backoff: deps.gatewayBackoff } : {}) }) : null;
  const gatewayRecord: GatewayRecord = gw?.record ?? { mode: 'direct', ...(decision.reason ? { reason: decision.reason } : {}) };
  try {
    return await executeWithAccess(plan, ds, deps, { runId, base, gw, gatewayRecord, hostEnv, log, agent: pre.agent, chains });
  } finally {
    await gw?.close();
  }
}

interface Access {
  runId: string;
  base: ReturnType<typeof buildBaseEnv>;
  gw: RunGateway | null;
  gatewayRecord: GatewayRecord;
  hostEnv: Record<string, string | undefined>;
  log: (l: string) => void;
  /** The agent that plays (name and version), as recorded in run_config.json and result.json. */
  agent: AgentRecord;
  /** A sequences file's chains (then ds holds their scenarios); null: every scenario on its own. */
  chains: ChainPlan[] | null;
}

async function executeWithAccess(plan: RunPlan, ds: ResolvedDataset, deps: ExecuteDeps, a: Access): Promise<ExecuteOutcome> {
  const { runId, base, gw, hostEnv, log } = a;
  const out = plan.run.outputDir;
  const passAt = plan.run.passAt;
  // The run's scope on the backend, before its first unit: host-loopback URLs (a local
  // BASE_URL, a loopback proxy, the model gateway) are relayed or tunnelled to the units, and a
  // backend that keeps objects per run makes them. Relays are unref'd, so a throw below cannot
  // keep the process alive; engine.close() closes a scope left open.
  const seal = sealedNetwork(plan.run.network) ? { allow: sealAllowList(base.env), image: plan.agent.image } : undefined;
  const scope = await deps.engine.openRun({ runId, env: base.env, network: engineNetwork(plan.run.network), ...(seal ? { seal } : {}), log });
  base.env = scope.env;
  // (which setting asked for a file matters to the preflight only; units get path and content)
  const files = base.files.map((f) => ({ path: f.path, content: f.content }));

  let tasks = a.chains ? [] : buildTasks(ds.entries, passAt, out);
  let chains: { tasks: ChainTask[] } | null = a.chains && out ? { tasks: buildChainTasks(a.chains, passAt, out) } : null;
  let kept = 0;
  if (plan.run.retry) {
    const sel = chains ? selectChainsForRetry(chains.tasks) : selectForRetry(tasks);
    if (chains) chains = { tasks: sel.rerun as ChainTask[] };
    else tasks = sel.rerun as Task[];
    kept = sel.passed + sel.failed;
    log(`Retry: ${chains ? chainRuns(chains.tasks) : tasks.length} run(s) to redo (${sel.passed} passed, ${sel.failed} failed kept)${chains ? `, ${chains.tasks.length} chain(s) resumed` : ''}`);
  }
  // What this invocation plays: each chain from where it (re)starts.
  const planned = chains ? chainRuns(chains.tasks) : tasks.length;
  const playing = chains ? chains.tasks.flatMap((c) => c.steps.slice(c.startAt)) : tasks;
  // Containers of an earlier invocation on this output directory that a crash (kill -9, power
  // loss mid-cleanup) left behind: found by their run id label and removed before anything new.
  if (out && existsSync(out)) for (const old of previousRunIds(out, passAt)) await removeLabelled(deps.engine, old, log);

  const book = new ResultsBook(out, passAt, plan.run.output && plan.run.output !== (out && join(out, 'results.jsonl')) ? plan.run.output : null);
  if (out) {
    // Seed with what is already on disk so results.jsonl is the merged set after a retry.
    for (const r of loadRunRecords(out)) book.set(resultKey(passAt > 1 ? r.runIndex : null, r.key), passAt > 1 ? r.runIndex : null, r.result);
    const now = new Date();
    const provenance = await collectProvenance(deps.engine, plan.agent.image, ds);
    const extras = { runId, agent: a.agent, numScenarios: ds.entries.length, retryCount: plan.run.retry ? new Set(playing.map((t) => t.entry.file)).size : null, now, provenance, gateway: a.gatewayRecord };
    if (passAt > 1) {
      for (let k = 1; k <= passAt; k++) {
        const d = join(out, `run_${k}`);
        await writeRunConfig(d, runConfigRecord(plan, ds, { ...extras, runNumber: k }, readRunConfig(d), hostEnv));
      }
    } else await writeRunConfig(out, runConfigRecord(plan, ds, extras, readRunConfig(out), hostEnv));
  }

  // Finished containers are removed in the background once their result is recorded (~300 ms
  // per run off the critical path), at most one per lane in flight; drained before returning.
  const removals = new BackgroundWork(Math.max(1, plan.run.concurrency), (e) => log(`container removal failed: ${(e as Error).message}`));
  // A chain's runs start from carried state the cache's key does not hold: never from the cache.
  if (chains && plan.run.enableCaching) log('Result cache off: a universe chain carries state from run to run');
  // One gate for the run's engine: lanes wait on it, outage victims start again (outage-restart.ts).
  // The user's stop, or the output disk's (run-stop.ts): every run and wait below follows it.
  const stop = new RunStop(deps.signal, log, plan.run.concurrency);
  const gate = new OutageGate({ ping: () => deps.engine.ping(), limitSeconds: plan.run.engineOutageWait, log, sleep, signal: stop.signal, ...(deps.outageTiming ? { backoff: deps.outageTiming, settleMs: deps.outageTiming.settleMs ?? 0 } : {}) });
  const runOne = withOutageRestarts(plan.run.enableCaching && !chains ? await cachingRun(plan, deps, hostEnv, log) : deps.runScenario, { gate, maxRestarts: MAX_OUTAGE_RESTARTS, log, archive: archiveAttempt, ...(deps.outageTiming?.watchMs !== undefined ? { watchMs: deps.outageTiming.watchMs } : {}) });
  const debug = plan.run.logLevel.toUpperCase() === 'DEBUG';
  const reservedPorts = new Set<number>();
  const hostNetParallel = plan.run.network === 'host' && plan.run.concurrency > 1;
  const fixedHostPort = plan.run.network === 'host' && !hostNetParallel;
  deps.progress.start(planned);
  // The gateway's counts, live: the progress line and model_gateway.json (the dashboard).
  const watch = gw ? watchGateway(() => gw.stats(), { outputDir: out, progress: deps.progress, log }) : null;
  let ran = 0;
  // One scenario run, recorded; a chain's step brings its carried delivery and its fields.
  const runTask = async (t: Task, step?: ChainStepRun): Promise<ScenarioResult> => {
    if (t.dir) archiveAttempt(t.dir); // never mix a new attempt with old files
    let result: ScenarioResult;
    let cleanup: (() => Promise<void>) | null = null;
    let port: number | undefined;
    try {
      port = hostNetParallel ? await allocatePort(reservedPorts) : plan.run.network === 'host' ? plan.run.adapterPort : undefined;
      result = await runOne({
        engine: deps.engine,
        image: plan.agent.image,
        scenarioFile: t.entry.file,
        scenario: t.entry,
        outputDir: t.dir,
        env: { ...base.env, ...step?.env, ...(await gw?.tokensFor({ container: t.label, runId, dir: t.dir, scenario: join(t.entry.relDir, t.entry.id), runIndex: t.runIndex, recordKey: out && t.dir ? relative(out, t.dir) : t.label })) },
        ...(files.length || step?.files.length ? { files: [...files, ...(step?.files ?? [])] } : {}),
        ...(step?.content ? { content: step.content } : {}),
        ...(step ? { beforeRemove: step.beforeRemove } : {}),
        agent: plan.agent.name,
        agentRecord: a.agent,
        network: engineNetwork(plan.run.network),
        seal: sealedNetwork(plan.run.network),
        timeouts: { healthSeconds: plan.run.healthTimeout, scenarioSeconds: plan.run.timeout, activitySeconds: hostActivityTimeout(plan.run) },
        ...(plan.run.stuckLoopMinToolCalls ? { stuckLoopMinToolCalls: plan.run.stuckLoopMinToolCalls } : {}),
        ...(gw?.overBudget ? { overBudget: () => gw.overBudget!(t.label) } : {}),
        ...(gw?.overBudgetNow ? { overBudgetNow: () => gw.overBudgetNow!(t.label) } : {}),
        labels: { [LABELS.managed]: '1', [LABELS.runId]: runId },
        ...(t.runIndex ? { runIndex: t.runIndex } : {}),
        ...(t.entry.split ? { split: t.entry.split } : {}),
        ...(port ? { adapterPort: port } : {}),
        ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
        signal: stop.signal,
        onCleanup: (c) => {
          cleanup = c;
        },
        // Lifecycle chatter only at DEBUG; failures reach the user through the result.
        ...(debug ? { log } : {}),
      });
      const before = result;
      const patch: Partial<ScenarioResult> = { ...(!result.judge_mode && classify(result) !== 'error' ? { judge_mode: plan.judge ? 'llm' : 'hard-only' } : {}), ...judgeSettingsRecord(plan), ...step?.fields };
      // the run's own result may hold secrets its writer redacted on disk: redact again here
      if (Object.keys(patch).length) result = redactValue({ ...result, ...patch });
      if (gw) result = await gatewayResult(gw, t.label, t.dir, result);
      else result = weighAgentFailures(result, { none: 'the run called its provider directly (no model gateway, no record)' });
      if (result !== before && t.dir) await writeJsonAtomic(join(t.dir, 'result.json'), result);
    } catch (e) {
      await gw?.finish(t.label, t.dir).catch(() => null);
      result = { ...crashResult(t, e, plan, a.agent), ...step?.fields };
      log(`${t.label} crashed: ${result.error}`);
      const file = t.dir && join(t.dir, 'result.json');
      if (file) await writeJsonAtomic(file, result).catch((w: unknown) => { if (!stop.takeOutputFault(w, file)) throw w; });
    }
    ran++;
    const spent = gw?.runOverBudget?.();
    if (spent) stop.stopStarting(budgetReason(spent));
    try {
      book.set(resultKey(t.runIndex, join(t.entry.relDir, t.entry.id)), t.runIndex, result);
      await book.flush().catch((w: unknown) => { if (!stop.takeOutputFault(w, out ? join(out, 'results.jsonl') : 'results.jsonl')) throw w; });
    } finally {
      // Recorded (result.json by the run, results.jsonl here): now the container may go. A
      // host-network port is free for the next run only once its container is gone: with one
      // fixed port (host networking, -j 1) the next run waits for the removal, or it would
      // reach this container's adapter on that port.
      const c = cleanup as (() => Promise<void>) | null;
      const held = port;
      const release = () => void (held && reservedPorts.delete(held));
      if (c && fixedHostPort) await c().catch((e: unknown) => log(`container removal failed: ${(e as Error).message}`));
      else if (c) await removals.add(() => c().finally(release));
      else release();
    }
    const status = classify(result);
    if (status === 'error') log(`${t.label}: ${result.error_kind ?? 'error'}: ${String(result.error ?? '').slice(0, 300)}`);
    deps.progress.done(t.label, status, typeof result.error_kind === 'string' ? result.error_kind : undefined);
    return result;
  };
  const units: Array<Task | ChainTask> = chains ? chains.tasks : tasks;
  await runPool(
    units,
    plan.run.concurrency,
    async (u) => {
      if (!('steps' in u)) await runTask(u);
      else await runChain(u, { runTask, engine: deps.engine, signal: stop.signal, log });
    },
    stop.startSignal,
  ).finally(async () => {
    await removals.drain();
    await watch?.stop();
  });
  deps.progress.stop();
  await scope.close();
  const interrupted = stop.interrupted;
  if (stop.signal.aborted) {
    log(`${interrupted ? 'Interrupted' : 'Stopped'}: ${planned - ran} run(s) not started; stopping this run's containers. Resume with --retry.`);
    await removeLabelled(deps.engine, runId, log);
  } else if (gate.seen) {
    // Every run is recorded: whatever of this run the engine still holds is a unit whose
    // removal an outage dropped.
    await removeLabelled(deps.engine, runId, log);
  }
  stop.throwIfOutputFault(out);
  await book.flush();

  let records: RunRecord[];
  if (out) records = loadRunRecords(out, log);
  else
    records = book.all().map((r, i) => ({
      path: `#${i}`,
      key: join(ds.entries.find((e) => e.file === r.scenario_file)?.relDir ?? '', r.scenario_id),
      runIndex: typeof r.run_index === 'number' ? r.run_index : 1,
      split: typeof r.split === 'string' ? r.split : null,
      status: classify(r),
      result: r,
    }));
  const report = buildReport(records, out ?? '(not saved: no output dir)', passAt, { meta: out ? readReportMeta(out) : null, errorsAsFailures: plan.run.errorsAsFailures });
  if (gw) report.model_gateway = { ...a.gatewayRecord, ...gatewayTotals(gw.stats()) };
  const reportText = out ? await saveReport(out, report) : redact(renderText(report));
  // Every run is judged and recorded: seal their artifacts' digests for `verify`.
  if (out) await writeDigests(out);
  return { runId, results: book.all(), report, reportText, ran, kept, interrupted, ...(stop.startsStopped ? { notStarted: stop.startsStopped } : {}) };
}

/** Removes containers that carry a run id (leftovers of a killed runner, or Ctrl-C). */
export async function removeLabelled(engine: UnitBackend, runId: string, log: (l: string) => void): Promise<number> {
  let n = 0;
  try {
    for (const c of await engine.listByLabels({ [LABELS.runId]: runId })) {
      const gone = await engine.remove(c.id).then(
        () => true,
        (e: Error) => (log(`could not remove container ${c.name} of run ${runId}: ${e.message}`), false),
      );
      if (gone) n++;
    }
  } catch (e) {
    log(`could not list containers of run ${runId}: ${(e as Error).message}`);
  }
  if (n) log(`Removed ${n} container(s) of run ${runId}`);
  return n;
}
