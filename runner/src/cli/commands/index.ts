// Every command module exports register(program). Add one import and one list entry per
// command; keep this file a plain list.
import type { Command } from 'commander';

type Registrar = (program: Command) => void;

const registrars: Registrar[] = [];

export function registerCommands(program: Command): void {
  for (const register of registrars) register(program);
}
