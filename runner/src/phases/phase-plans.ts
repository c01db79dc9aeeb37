// One RunPlan per phase, built from the same source a plain run uses (a TOML config or the
// run-dataset flags), so every setting means the same in every phase. Per phase:
//   standard     no noise, no app agents
//   agent2agent  app agents on every app (app_prop 1, the rest of [agent2agent] / the
//                --a2a-* flags; default: the agent's model), over the mini subset
//   noise        [noise] / --noise settings (reference defaults when none), over the mini subset
// Each phase runs `runs` times per scenario into <root>/<phase>/.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { planFromDatasetFlags, type DatasetFlags } from '../config/cli-flags.js';
import { ConfigError } from '../plan/errors.js';
import type { RunPlan } from '../plan/plan.js';
import { loadRunConfig } from '../config/resolve-toml.js';
import type { ConfigFileData } from '../config/toml-schema.js';
import { AGENT2AGENT_APP_PROP, type PhaseName } from '../plan/phases.js';

export type PhaseSource =
  | { kind: 'toml'; file: string; env: Record<string, string | undefined> }
  | { kind: 'flags'; flags: DatasetFlags; env: Record<string, string | undefined> };

export interface PhaseRunSettings {
  /** Output root: each phase writes to <root>/<phase>. */
  root: string;
  runs: number;
  miniSubset: string | null;
  /** Resume: phases with an output directory rerun only what has no judged result. */
  retry: boolean;
}

const augmented = (p: PhaseName): boolean => p !== 'standard';

function fromToml(phase: PhaseName, file: string, env: Record<string, string | undefined>): RunPlan {
  return loadRunConfig(file, env, (data) => {
    const d: ConfigFileData = { ...data };
    delete d.phases;
    if (phase === 'noise') d.noise = { ...(data.noise ?? {}), enabled: true };
    else delete d.noise;
    if (phase === 'agent2agent') d.agent2agent = { ...(d.agent2agent ?? {}), app_prop: AGENT2AGENT_APP_PROP };
    else delete d.agent2agent;
    return d;
  }, { phases: true });
}

function fromFlags(phase: PhaseName, f: DatasetFlags, env: Record<string, string | undefined>): RunPlan {
  const noiseTuning = phase === 'noise' ? {} : { noiseSeed: undefined, toolFailureProbability: undefined, envEventsPerMinute: undefined };
  // The --a2a-* flags describe the agent2agent phase's app agents; the other phases have none.
  const a2a = phase === 'agent2agent'
    ? { a2aAppProp: String(AGENT2AGENT_APP_PROP) }
    : { a2aAppProp: undefined, a2aSeed: undefined, a2aProvider: undefined, a2aModel: undefined, a2aBaseUrl: undefined, a2aApiKeyEnv: undefined };
  const flags: DatasetFlags = { ...f, passAt: '1', retry: false, noise: phase === 'noise', ...noiseTuning, ...a2a };
  return planFromDatasetFlags(flags, env);
}

/** The output root a source names ([run].output_dir / --output-dir), or `override`. */
export function phaseRoot(src: PhaseSource, override?: string): string {
  if (override) return resolve(override);
  const dir = src.kind === 'flags' ? src.flags.outputDir : fromToml('standard', src.file, src.env).run.outputDir;
  if (!dir) throw new ConfigError(`gaia2-run needs an output root: ${src.kind === 'flags' ? '--output-dir' : '[run].output_dir or --output-dir'}`);
  return resolve(dir);
}

export function phasePlan(phase: PhaseName, src: PhaseSource, s: PhaseRunSettings): RunPlan {
  const plan = src.kind === 'toml' ? fromToml(phase, src.file, src.env) : fromFlags(phase, src.flags, src.env);
  if (plan.target.kind === 'scenario') throw new ConfigError('gaia2-run needs a dataset target (a directory, .jsonl or Hugging Face dataset), not one scenario');
  // Its phases write fixed folders under one root; shards are for run-dataset and run-config.
  if (plan.target.shard) throw new ConfigError('gaia2-run does not run shards (--shard-id/--num-shards, [run].shard_id/num_shards): shard run-dataset or run-config instead');
  const dir = join(s.root, phase);
  const target = augmented(phase) && s.miniSubset ? { ...plan.target, subset: s.miniSubset } : plan.target;
  const resumable = s.retry && existsSync(dir) && statSync(dir).isDirectory();
  return {
    ...plan,
    command: 'run-dataset',
    target,
    noise: phase === 'noise' ? plan.noise : null,
    run: { ...plan.run, passAt: s.runs, outputDir: dir, output: null, retry: resumable },
  };
}
