// Cases every bridge on the kit's acp-bridge.mjs plays the same way against the stand-in ACP
// agent (acp-standin.mjs), whatever its program: its own failures fail turns with its text, and
// a program that dies mid-turn ends the bridge, the next start resuming the session.
import { expect } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentAdapter } from '../../../runner/src/agents/adapter.js';
import { serveHost, type ServeHost } from './serve-host.js';

/** Turns 1–3: the program's error answer and a turn it stopped itself are failed with its words (`stopped`); the next is answered; one process. */
export async function failuresThenReply(host: ServeHost, starts: () => unknown[], stopped: string): Promise<void> {
  const s = host.start();
  await s.next('ready');
  expect(await s.turn(1, 'error')).toMatchObject({ type: 'failed', turn: 1, text: 'Rate limit exceeded. Try again later.', detail: expect.stringContaining('429') });
  expect(await s.turn(2, 'loop')).toMatchObject({ type: 'failed', turn: 2, text: stopped });
  expect(await s.turn(3, 'fine')).toMatchObject({ type: 'reply', turn: 3 });
  expect(starts()).toHaveLength(1);
  s.send({ type: 'shutdown', reason: 'done' });
  await s.exited;
}

/** Turn 1 answered, the program dies in turn 2: the bridge exits 1, its last stderr line naming the program (`label`). Resolves with the saved session id. */
export async function diesInTurn2(host: ServeHost, label: string, sessionFile: string): Promise<string> {
  const s = host.start();
  await s.next('ready');
  expect(await s.turn(1, 'remember me')).toMatchObject({ type: 'reply' });
  await expect(s.turn(2, 'die')).rejects.toThrow(/exited before saying reply/);
  expect((await s.exited).code).toBe(1);
  expect(s.said.filter((m) => m.type === 'failed' || m.type === 'reply')).toHaveLength(1);
  expect(s.stderr().trim().split('\n').at(-1)).toBe(`agent-serve: ${label} exited (code 7): standin: fatal: out of memory`);
  return readFileSync(join(host.dirs.session, sessionFile), 'utf8').trim();
}

/** The start after diesInTurn2: ready, and turn 3 answered in the same session (the stand-in counts its user messages: 'remember me', 'die', this one). */
export async function resumedTurn3(host: ServeHost): Promise<void> {
  const again = host.start();
  expect(await again.next('ready')).toEqual({ type: 'ready', steer: false });
  expect(await again.turn(3, 'back?')).toEqual({ type: 'reply', turn: 3, text: 'You said: back? (turn 3)' });
  again.send({ type: 'shutdown', reason: 'done' });
  await again.exited;
}

/** How the stand-in was started (its record of each start). */
export interface Started {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  pid: number;
}

/**
 * The adapter's layer with the stand-in in the package at `program` (relative to pkg/; an
 * executable with a shebang when `executable`, for a program started directly rather than by
 * Node); `starts()` lists how the program was started.
 */
export function standinLayer(adapter: AgentAdapter, program: string, env: Record<string, string>, executable = false): { host: ServeHost; starts: () => Started[] } {
  const pkg = mkdtempSync(join(tmpdir(), `${adapter.name}-standin-`));
  mkdirSync(join(pkg, dirname(program)), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"type":"module"}\n');
  const standin = readFileSync(join(import.meta.dirname, 'acp-standin.mjs'), 'utf8');
  writeFileSync(join(pkg, program), executable ? `#!${process.execPath}\n${standin}` : standin);
  if (executable) chmodSync(join(pkg, program), 0o755);
  const record = join(pkg, 'starts.jsonl');
  const host = serveHost(adapter, pkg, { ...env, STANDIN_RECORD: record });
  const starts = () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Started) : []);
  return { host, starts };
}

/** Two turns answered by one start of the program, then a clean shutdown; resolves with that start. */
export async function twoTurnsOneStart(host: ServeHost, starts: () => Started[]): Promise<Started> {
  const s = host.start();
  expect(await s.next('ready')).toEqual({ type: 'ready', steer: false });
  expect(await s.turn(1, 'Book the cheapest ride')).toEqual({ type: 'reply', turn: 1, text: 'You said: Book the cheapest ride (turn 1)' });
  expect(await s.turn(2, 'And now?')).toEqual({ type: 'reply', turn: 2, text: 'You said: And now? (turn 2)' });
  s.send({ type: 'shutdown', reason: 'done' });
  expect(await s.exited).toEqual({ code: 0, signal: null });
  const [only, ...more] = starts();
  expect(more).toEqual([]);
  expect(only!.cwd).toBe(host.dirs.work);
  return only!;
}

/** agent-serve's notes in a trace file of the program (`dir: "note"`): start, pid, session. */
export const notes = (host: ServeHost, file: string): Array<Record<string, unknown>> =>
  readFileSync(join(host.dirs.trace, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { dir: string; msg: Record<string, unknown> }).filter((l) => l.dir === 'note').map((l) => l.msg);
