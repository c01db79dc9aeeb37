// The serve kit (runner/src/agents/kit/serve-kit.mjs) when a bridge's start fails after it has
// spawned its program: the kit calls the bridge's stop before it exits 3, so the program does not
// outlive the failed start (a second start would find it holding the state directory and ports).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const kit = pathToFileURL(join(import.meta.dirname, '..', '..', '..', '..', 'runner', 'src', 'agents', 'kit', 'serve-kit.mjs')).href;
/** Running (a process killed but not yet reaped by its new parent is a zombie: not running). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('serve kit: a start that fails', () => {
  it("stops what the start spawned (the bridge's stop), then exits 3 with the error on stderr", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-kit-'));
    const bridge = join(dir, 'agent-serve.mjs');
    writeFileSync(
      bridge,
      `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { serve } from '${kit}';
let program;
serve({
  async start() {
    program = spawn('sleep', ['300'], { stdio: 'ignore' });
    writeFileSync(${JSON.stringify(join(dir, 'pid'))}, String(program.pid));
    throw new Error('the warm-up failed');
  },
  turn: async () => ({ reply: '' }),
  async stop(reason) {
    writeFileSync(${JSON.stringify(join(dir, 'stopped'))}, reason);
    program.kill('SIGKILL');
  },
});
`,
    );
    const child = spawn(process.execPath, [bridge], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(3);
    expect(err).toContain('the program did not start: Error: the warm-up failed');
    expect(readFileSync(join(dir, 'stopped'), 'utf8')).toBe('start failed');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
    expect(running(pid)).toBe(false);
  });
});
