import type { Command } from 'commander';
import { DEFAULT_HF_DATASET, DEFAULT_IMAGE } from '../../plan/plan.js';
import type { DoctorFlags } from './doctor-checks.js';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('check the engine, the image, API keys and dataset access, each with a fix hint')
    .option('-c, --config <file>', 'check what this TOML config needs')
    .option('-i, --image <image>', 'image to look for', DEFAULT_IMAGE)
    .option('-d, --dataset <path|org/name>', 'dataset to check', DEFAULT_HF_DATASET)
    .addHelpText('after', '\nExample:\n  $ gaia2-runner doctor --config examples/demo.toml')
    .action(async (f: DoctorFlags, c: Command) => {
      const { doctor } = await import('./doctor-checks.js');
      await doctor(f, c.optsWithGlobals().envFile);
    });
}
