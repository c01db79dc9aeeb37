// Every command module exports register(program). Add one import and one list entry per
// command; keep this file a plain list.
import type { Command } from 'commander';
import { register as agents } from './agents.js';
import { register as buildImage } from './build-image.js';
import { register as run } from './run.js';
import { register as runDataset } from './run-dataset.js';
import { register as runConfig } from './run-config.js';
import { register as rerun } from './rerun.js';
import { register as report } from './report.js';
import { register as clean } from './clean.js';
import { register as doctor } from './doctor.js';
import { register as view } from './view.js';
import { register as serve } from './serve.js';
import { register as compare } from './compare.js';
import { register as leaderboard } from './leaderboard.js';
import { register as world } from './world.js';
import { register as judge } from './judge.js';
import { register as gaia2Run } from './gaia2-run.js';
import { register as submission } from './submission.js';
import { register as exportCommand } from './export.js';
import { register as gateway } from './gateway.js';
import { register as aggregate } from './aggregate.js';
import { register as slurm } from './slurm.js';
import { register as verify } from './verify.js';

type Registrar = (program: Command) => void;

const registrars: Registrar[] = [buildImage, run, runDataset, runConfig, aggregate, slurm, gaia2Run, submission, exportCommand, rerun, report, clean, doctor, judge, world, view, serve, compare, leaderboard, gateway, agents, verify];

export function registerCommands(program: Command): void {
  for (const register of registrars) register(program);
}
