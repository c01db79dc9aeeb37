import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchTurn } from '../../../../agent-image/src/agents/external/launch-turn.js';

const dir = mkdtempSync(join(tmpdir(), 'launch-turn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function launcher(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/bash\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

const run = (file: string, message = 'hello', env: NodeJS.ProcessEnv = {}) =>
  launchTurn({ launcher: file, cwd: dir, env: { PATH: process.env.PATH, ...env }, message, stderrLog: join(dir, `${file.split('/').pop()}.log`) }).done;

describe('launchTurn', () => {
  it('gives the message on stdin and takes stdout, trailing white space trimmed, as the reply', async () => {
    const r = await run(launcher('echo', 'msg=$(cat); echo "got: $msg (turn $GAIA2_TURN)"; echo; echo "log line" >&2'), 'two\nlines', { GAIA2_TURN: '3' });
    expect(r).toEqual({ exitCode: 0, reply: 'got: two\nlines (turn 3)', lastStderrLine: 'log line' });
    expect(readFileSync(join(dir, 'echo.log'), 'utf8')).toBe('log line\n');
  });

  it('reports a failed launcher with its exit code and last stderr line', async () => {
    const r = await run(launcher('fail', 'cat >/dev/null; echo "partial"; echo "first" >&2; echo "model refused" >&2; exit 4'));
    expect(r).toMatchObject({ exitCode: 4, lastStderrLine: 'model refused' });
  });

  it('does not wait for a background process the launcher left holding stdout', async () => {
    const t0 = Date.now();
    const r = await run(launcher('daemon', 'sleep 60 & echo "done"'));
    expect(r.reply).toBe('done');
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('a launcher that cannot start is a failed turn, not a crash', async () => {
    const r = await run(join(dir, 'missing'));
    expect(r.exitCode).toBe(127);
    expect(r.lastStderrLine).toMatch(/cannot run .*missing/);
  });

  it('stop() ends the whole process group', async () => {
    const t = launchTurn({ launcher: launcher('slow', 'sleep 60; echo never'), cwd: dir, env: { PATH: process.env.PATH }, message: '', stderrLog: join(dir, 'slow.log') });
    setTimeout(() => t.stop(1000), 200);
    const r = await t.done;
    expect(r.exitCode).not.toBe(0);
    expect(r.reply).toBe('');
  });
});

describe('launchTurn with an unwritable log', () => {
  it('still runs the turn', async () => {
    const r = await launchTurn({ launcher: launcher('ok', 'echo fine'), cwd: dir, env: { PATH: process.env.PATH }, message: '', stderrLog: join(dir, 'no/such/dir/x.log') }).done;
    expect(r).toMatchObject({ exitCode: 0, reply: 'fine' });
  });
});
