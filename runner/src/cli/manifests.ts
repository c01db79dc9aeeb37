// `run-config --dry-run --manifests DIR`: the run as it would go, through the orchestrator and
// the scenario runs, with the backend's manifest writer (a backend that has one: engine/
// registry.ts) writing each unit's objects instead of creating them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedDataset } from '../dataset/index.js';
import type { RunPlan } from '../plan/plan.js';
import { manifestOutput } from '../engine/registry.js';
import { executePlan } from '../orchestrator/execute.js';
import type { SessionIO } from '../orchestrator/session.js';
import { runScenario } from '../run/index.js';

export async function writeManifests(plan: RunPlan, ds: ResolvedDataset, dir: string, io: SessionIO): Promise<void> {
  const writer = await manifestOutput(plan.run.backend, dir);
  // Nothing but the manifests stays: the run's own outputs go to a scratch directory.
  const scratch = mkdtempSync(join(tmpdir(), 'gaia2-manifests-'));
  const dry: RunPlan = { ...plan, run: { ...plan.run, outputDir: scratch, output: null, retry: false } };
  const silent = { start() {}, done() {}, log() {}, stop() {} };
  try {
    // The preflight refuses what the cluster would refuse (host network, loopback services, files to copy in).
    await executePlan(dry, ds, { engine: writer, runScenario, progress: silent, hostEnv: io.env ?? process.env });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  io.out(`Manifests: ${writer.written.length} file(s) in ${dir} (secret values replaced by "redacted"; uids are the API server's)\n`);
}
