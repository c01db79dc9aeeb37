// Every command module exports register(program). Add one import and one list entry per
// command; keep this file a plain list.
import type { Command } from 'commander';
import { register as buildImage } from './build-image.js';

type Registrar = (program: Command) => void;

const registrars: Registrar[] = [buildImage];

export function registerCommands(program: Command): void {
  for (const register of registrars) register(program);
}
