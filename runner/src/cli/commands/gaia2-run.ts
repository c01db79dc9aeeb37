import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { addDatasetOptions, type DatasetFlags } from '../../config/cli-options.js';
import { ConfigError } from '../../plan/errors.js';
import { checkRuns, DEFAULT_PHASE_RUNS, parsePhaseNames, PHASE_NAMES } from '../../plan/phases.js';
import type { PhaseSource } from '../../phases/phase-plans.js';
import { addSubmissionOptions } from './submission.js';

interface Gaia2RunFlags extends Partial<DatasetFlags> {
  split: string;
  hfUpload?: string;
  hfPublic?: boolean;
  config?: string;
  phases?: string;
  runs?: string;
  miniSubset?: string;
  dryRun?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('gaia2-run')
    .description('the Gaia2 submission protocol: standard, agent2agent and noise phases, three runs each, one output root (docs/protocol.md)')
    .option('-c, --config <file>', 'TOML config ([target] [agent] [judge] [run], optional [noise] [agent2agent] [phases]) instead of the flags')
    .option('--phases <list>', `comma-separated phases (default: ${PHASE_NAMES.join(',')})`)
    .option('--runs <n>', `runs per scenario in every phase (default ${DEFAULT_PHASE_RUNS})`)
    .option('--mini-subset <manifest>', 'subset manifest of the mini scenarios for the agent2agent and noise phases (default: the standard selection)')
    .option('--dry-run', 'print every phase plan; launch nothing');
  addSubmissionOptions(cmd);
  addDatasetOptions(cmd, { datasetRequired: false })
    .addHelpText(
      'after',
      '\nOutput: <output-dir>/<phase>/ (a normal pass@N run each), <output-dir>/report.md (one row per phase) and\n<output-dir>/submission/ (the leaderboard dataset; --hf-upload uploads it).\n' +
        'Exit: 0 every run judged, 3 infrastructure errors remain (use --retry), 2 a phase could not run, 130 interrupted.\n' +
        'Examples:\n  $ gaia2-runner gaia2-run -d examples/scenarios --agent oracle -j 4 --output-dir runs/gaia2\n' +
        '  $ gaia2-runner gaia2-run --config my.toml --retry',
    )
    .action(async (f: Gaia2RunFlags, c: Command) => {
      const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
      const [{ readConfigFile }, { configFilePath }, { loadEnvForCli }, { phaseRoot }, { runPhases }, { EXIT }, { checkRepoId, exportSubmission }] = await Promise.all([
        import('../../config/load-toml.js'),
        import('../../config/resolve-toml.js'),
        import('../../env/cli-env.js'),
        import('../../phases/phase-plans.js'),
        import('../../phases/run-phases.js'),
        import('../../orchestrator/session.js'),
        import('../../submission/index.js'),
      ]);
      loadEnvForCli(c.optsWithGlobals().envFile, (l) => io.err(l + '\n'));
      let src: PhaseSource;
      let table: { phases?: string[]; runs?: number; mini_subset?: string } = {};
      if (f.config) {
        if (f.dataset) throw new ConfigError('gaia2-run takes the dataset from --config or from --dataset, not both');
        const file = configFilePath(f.config);
        table = readConfigFile(file).phases ?? {};
        src = { kind: 'toml', file, env: process.env };
      } else {
        if (!f.dataset) throw new ConfigError('gaia2-run needs --dataset <dir|file|org/name> or --config <file.toml>');
        if (f.passAt && f.passAt !== '1') throw new ConfigError('gaia2-run sets the runs per scenario with --runs (every phase), not --pass-at');
        src = { kind: 'flags', flags: f as DatasetFlags, env: process.env };
      }
      const phases = f.phases !== undefined ? parsePhaseNames(f.phases.split(','), '--phases') : table.phases ? parsePhaseNames(table.phases, '[phases].phases') : [...PHASE_NAMES];
      const runs = f.runs !== undefined ? checkRuns(Number(f.runs), '--runs') : checkRuns(table.runs ?? DEFAULT_PHASE_RUNS, '[phases].runs');
      // Like every path in a config, [phases].mini_subset is relative to the file; the flag to the CWD.
      const mini = f.miniSubset !== undefined ? resolve(f.miniSubset) : table.mini_subset && src.kind === 'toml' ? resolve(dirname(src.file), table.mini_subset) : null;
      if (mini && !existsSync(mini)) throw new ConfigError(`${f.miniSubset !== undefined ? '--mini-subset' : '[phases].mini_subset'} does not exist: ${mini}`);
      const root = phaseRoot(src, f.config ? f.outputDir : undefined);
      if (f.hfUpload) checkRepoId(f.hfUpload);
      const code = await runPhases(src, phases, { root, runs, miniSubset: mini, retry: Boolean(f.retry) }, io, { dryRun: f.dryRun });
      process.exitCode = code;
      // Like the reference: the submission is written after the phases (uploaded when asked),
      // unless the run was interrupted; runs that ended in errors are exported as exceptions.
      if (f.dryRun || code === EXIT.interrupted) return;
      await exportSubmission(root, { split: f.split, hfUpload: f.hfUpload ?? null, hfPublic: Boolean(f.hfPublic), env: process.env, out: io.out });
    });
}
