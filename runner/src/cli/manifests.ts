// `run-config --dry-run --manifests DIR`: the run as it would go, through the orchestrator and
// the scenario runs, with an engine that writes each unit's objects instead of creating them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedDataset } from '../dataset/index.js';
import { ConfigError } from '../plan/errors.js';
import type { RunPlan } from '../plan/plan.js';
import { ManifestWriter } from '../engine/kubernetes/dry-run.js';
import { executePlan } from '../orchestrator/execute.js';
import type { SessionIO } from '../orchestrator/session.js';
import { runScenario } from '../run/index.js';

export async function writeManifests(plan: RunPlan, ds: ResolvedDataset, dir: string, io: SessionIO): Promise<void> {
  const backend = plan.run.backend;
  if (backend.kind !== 'kubernetes') throw new ConfigError('--manifests needs [run].backend = "kubernetes" (the local engine has no manifests)');
  const writer = new ManifestWriter(dir, backend);
  // Nothing but the manifests stays: the run's own outputs go to a scratch directory.
  const scratch = mkdtempSync(join(tmpdir(), 'gaia2-manifests-'));
  const dry: RunPlan = { ...plan, run: { ...plan.run, outputDir: scratch, output: null, retry: false } };
  const silent = { start() {}, done() {}, log() {}, stop() {} };
  try {
    await executePlan(dry, ds, { engine: writer, runScenario, progress: silent, hostEnv: io.env ?? process.env });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (writer.problems.size) throw new ConfigError(`the cluster would refuse these scenario runs: ${[...writer.problems].join('; ')}`);
  io.out(`Manifests: ${writer.written.length} file(s) in ${dir} (secret values replaced by "redacted"; uids are the API server's)\n`);
}
