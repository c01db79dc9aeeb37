import type { Command } from 'commander';
import { resolve } from 'node:path';
import { DEFAULT_SUBMISSION_SPLIT } from '../../submission/format.js';

export function addSubmissionOptions(cmd: Command): Command {
  return cmd
    .option('--split <name>', 'split name of the submission dataset', DEFAULT_SUBMISSION_SPLIT)
    .option('--hf-upload <org/name>', 'upload the submission to this Hugging Face dataset (needs HF_TOKEN)')
    .option('--hf-public', 'make a newly created dataset public (default: private)');
}

export function register(program: Command): void {
  const cmd = program
    .command('submission')
    .description('export a finished gaia2-run root in the Gaia2 leaderboard dataset format (<root>/submission), optionally upload it')
    .argument('<root>', 'output root of gaia2-run');
  addSubmissionOptions(cmd)
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner submission runs/gaia2\n  $ HF_TOKEN=… gaia2-runner submission runs/gaia2 --hf-upload my-org/gaia2-traces')
    .action(async (root: string, f: { split: string; hfUpload?: string; hfPublic?: boolean }, c: Command) => {
      const [{ loadEnvForCli }, { exportSubmission }] = await Promise.all([import('../../env/cli-env.js'), import('../../submission/index.js')]);
      loadEnvForCli(c.optsWithGlobals().envFile, (l) => process.stderr.write(l + '\n'));
      await exportSubmission(resolve(root), { split: f.split, hfUpload: f.hfUpload ?? null, hfPublic: Boolean(f.hfPublic), env: process.env, out: (s) => process.stdout.write(s) });
    });
}
