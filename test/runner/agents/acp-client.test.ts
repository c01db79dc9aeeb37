// The kit's Agent Client Protocol client (runner/src/agents/kit/acp-client.mjs) against a
// stand-in ACP agent (acp-standin.mjs): a turn's final message and tool calls, permission
// requests answered "allow once", an agent's error and its exit mid-turn, and a session resumed
// by a new process whose replay goes on after its answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error the kit is plain JavaScript (installed in every layer as lib/)
import { AcpClient, allowOption } from '../../../runner/src/agents/kit/acp-client.mjs';

const standin = join(import.meta.dirname, 'acp-standin.mjs');
const clients: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop();
});

function client(home: string, env: Record<string, string> = {}) {
  const c = new AcpClient({ command: process.execPath, args: [standin], cwd: home, env: { PATH: process.env.PATH, HOME: home, ...env }, traceFile: join(home, 'trace.jsonl') });
  clients.push(c);
  return c;
}

describe('ACP client (kit)', () => {
  it('initializes as a client that offers no file system or terminal, and runs turns of one session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const c = client(home);
    const init = await c.start();
    expect(init.echo).toMatchObject({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
    expect(c.canLoad).toBe(true);
    const id = await c.newSession(home);
    expect(await c.prompt('hello')).toMatchObject({ stopReason: 'end_turn', reply: 'You said: hello (turn 1)', toolCalls: [] });
    expect((await c.prompt('again')).reply).toBe('You said: again (turn 2)');
    // Every message in both directions is in the trace, ours and the agent's.
    const lines = readFileSync(join(home, 'trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { dir: string; msg: { method?: string } });
    expect(lines.filter((l) => l.dir === 'out').map((l) => l.msg.method)).toEqual(['initialize', 'session/new', 'session/prompt', 'session/prompt']);
    expect(lines.some((l) => l.dir === 'in' && l.msg.method === 'session/update')).toBe(true);
    expect(c.sessionId).toBe(id);
  });

  it("the reply is the final message: the text after the last tool call, else the last text before it; the tool calls are listed", async () => {
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const c = client(home);
    await c.start();
    await c.newSession(home);
    expect(await c.prompt('use a tool')).toMatchObject({ reply: 'Found it.', toolCalls: [{ id: 'call-1', title: 'ls', kind: 'execute', status: 'completed' }] });
    expect((await c.prompt('be silent')).reply).toBe('Before the call.');
  });

  it('allows what the agent asks permission for, once where it can', async () => {
    expect(allowOption([{ optionId: 'a', kind: 'allow_always' }, { optionId: 'b', kind: 'allow_once' }])).toEqual({ outcome: { outcome: 'selected', optionId: 'b' } });
    expect(allowOption([{ optionId: 'r', kind: 'reject_once' }, { optionId: 'a', kind: 'allow_always' }])).toEqual({ outcome: { outcome: 'selected', optionId: 'a' } });
    expect(allowOption([])).toEqual({ outcome: { outcome: 'cancelled' } });
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const c = client(home);
    await c.start();
    await c.newSession(home);
    expect((await c.prompt('ask first')).reply).toBe('permission: once');
  });

  it("an agent's error rejects the turn with its message and code; other stop reasons come back as they are", async () => {
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const c = client(home);
    await c.start();
    await c.newSession(home);
    await expect(c.prompt('error please')).rejects.toMatchObject({ message: 'session/prompt: Rate limit exceeded. Try again later.', code: 429 });
    expect((await c.prompt('loop')).stopReason).toBe('max_turn_requests');
  });

  it('the agent exiting mid-turn rejects the turn; its exit and last stderr line are kept', async () => {
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const exits: unknown[] = [];
    const c = new AcpClient({ command: process.execPath, args: [standin], cwd: home, env: { PATH: process.env.PATH, HOME: home }, onExit: (code: number, signal: string) => exits.push([code, signal]) });
    clients.push(c);
    await c.start();
    await c.newSession(home);
    await expect(c.prompt('die now')).rejects.toThrow(/exited \(code 7\)/);
    expect(c.exit).toEqual({ code: 7, signal: null });
    expect(exits).toEqual([[7, null]]);
    expect(c.lastStderr()).toBe('standin: fatal: out of memory');
  });

  it('a new process resumes the session with session/load; replayed messages, even those after its answer, are not the next reply', async () => {
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const first = client(home);
    await first.start();
    const id = await first.newSession(home);
    for (const t of ['one', 'two', 'three']) await first.prompt(t);
    await first.stop();
    const second = client(home);
    await second.start();
    // In the agent's container Date reads the simulated clock, which stands still while a
    // program starts: the wait for the replay must not hang on it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await second.loadSession(id, home);
    } finally {
      vi.useRealTimers();
    }
    // The stand-in answered after the first replayed message; the rest came later and settled.
    expect(await second.prompt('four')).toMatchObject({ reply: 'You said: four (turn 4)' });
  });

  it('stop ends the program by closing its stdin', async () => {
    const home = mkdtempSync(join(tmpdir(), 'acp-client-'));
    const c = client(home);
    await c.start();
    await c.stop();
    expect(await c.exited).toEqual({ code: 0, signal: null });
  });
});
