// `gaia2-runner export RUN_DIR --format atif`: one ATIF trajectory per scenario run of a run
// directory (pass@1, a pass@N root, a gaia2-run root, an aggregated root), at
// <output>/<the scenario run's path in the run>/trajectory.json. The calls come from the run's
// trace.jsonl (our agent's own, or the one derived from the gateway's record), else from the
// record's agent lines (third-party runs from before the trace was derived). Each trajectory
// is checked against Harbor's rules before it is written.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../fsutil/atomic.js';
import { ConfigError } from '../plan/errors.js';
import { findRunRecord } from '../record/index.js';
import { agentIdentity } from '../report/agent-identity.js';
import { loadRunRecords, type RunRecord } from '../report/collect.js';
import { parseTraceJsonl, type CanonicalCall } from '../trace/index.js';
import { linesOfRole, TRAFFIC_FILE } from '../trace/traffic-lines.js';
import { trajectoryOfCalls } from './from-calls.js';
import { validateTrajectory } from './validate.js';

export const ATIF_FILE = 'trajectory.json';

export interface AtifExport {
  written: Array<{ scenario: string; file: string; steps: number; source: string }>;
  /** Scenario runs without a model call (the oracle, a scripted agent): no trajectory to write. */
  skipped: Array<{ scenario: string; reason: string }>;
}

/** The runner's own agent runtimes, named apart from any program of the same name. */
const RUNNER_AGENTS = new Set(['default', 'oracle', 'scripted']);

function callsOf(dir: string): { calls: CanonicalCall[]; source: string } | null {
  const read = (name: string): string => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  const own = parseTraceJsonl(read('trace.jsonl')).calls;
  if (own.length) return { calls: own, source: 'trace.jsonl' };
  const recorded = parseTraceJsonl(linesOfRole(read(TRAFFIC_FILE), 'agent')).calls;
  return recorded.length ? { calls: recorded, source: TRAFFIC_FILE } : null;
}

function runDirError(runDir: string): string | null {
  if (!existsSync(runDir)) return `no such directory: ${runDir}`;
  if (!statSync(runDir).isDirectory()) return `not a directory: ${runDir}`;
  return null;
}

export async function exportAtif(runDir: string, outDir: string): Promise<AtifExport> {
  const bad = runDirError(runDir);
  if (bad) throw new ConfigError(bad);
  const records = loadRunRecords(runDir);
  if (records.length === 0) throw new ConfigError(`not a run directory: ${runDir} (no scenario run's result.json under it)`);
  const runId = findRunRecord(runDir)?.run_id ?? basename(runDir);
  const out: AtifExport = { written: [], skipped: [] };
  for (const r of records) {
    const dir = dirname(r.path);
    const rel = relative(runDir, dir).split(sep).join('/');
    const got = callsOf(dir);
    const trajectory = got ? trajectoryOfCalls(got.calls, { sessionId: `${runId}/${rel}`, agent: agentOf(r), extra: runFacts(r, got.source) }) : null;
    if (!got || !trajectory) {
      out.skipped.push({ scenario: rel, reason: 'no model call recorded (trace.jsonl, model_traffic.jsonl)' });
      continue;
    }
    const problems = validateTrajectory(trajectory);
    if (problems.length) throw new Error(`ATIF trajectory of ${rel} breaks the schema: ${problems.slice(0, 5).join('; ')}`);
    const file = join(outDir, ...rel.split('/'), ATIF_FILE);
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify(trajectory, null, 2) + '\n');
    out.written.push({ scenario: rel, file, steps: trajectory.steps.length, source: got.source });
  }
  return out;
}

function agentOf(r: RunRecord): { name: string; version: string } {
  const id = agentIdentity(r.result as unknown as Record<string, unknown>);
  const name = id.name ?? 'unknown';
  return { name: RUNNER_AGENTS.has(name) ? `gaia2-runner-${name}` : name, version: id.version ?? 'unknown' };
}

function runFacts(r: RunRecord, source: string): Record<string, unknown> {
  const res = r.result;
  return {
    scenario_id: res.scenario_id,
    scenario: r.key,
    run_index: r.runIndex,
    split: r.split,
    status: r.status,
    ...(typeof res.error_kind === 'string' ? { error_kind: res.error_kind } : {}),
    ...(typeof res.reward === 'number' ? { reward: res.reward } : {}),
    calls_from: source,
  };
}
