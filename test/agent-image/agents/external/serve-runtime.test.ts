// The serve contract's world side (docs/agents.md, "Programs that stay up"), against a real
// in-process world daemon over its agent socket and a real serve program built on the layers'
// serve kit (fake-serve.mjs): one process for the whole run, ready before the first turn,
// steers taken or delivered again, a program that dies or fails, starts that fail.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectToDaemon } from '../../../../agent-image/src/agents/client.js';
import { runExternalAgent } from '../../../../agent-image/src/agents/external/runtime.js';
import { socketWorld } from '../../world/run-world.js';

const SCENARIO = 'scenarios/search/search_email_flight_code.json';
const FAKE = join(import.meta.dirname, 'fake-serve.mjs');
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

interface LogLine {
  pid: number;
  start: number;
  ev: string;
  turn?: number;
  text?: string;
  taken?: boolean;
  session?: string | null;
  sim?: string;
}

async function world(env: Record<string, string>, o: { maxStarts?: number } = {}) {
  // W1's fix: the run ends only once the agent answered its last message (a single-turn
  // scenario would otherwise end at the first reply, with later messages still in flight).
  const w = await socketWorld(SCENARIO, { judgeFinalTurn: false, clockMode: 'realtime', fixes: { finalTurnLastReply: true, chainedEnvTiming: false } });
  closers.push(() => w.server.close());
  const root = mkdtempSync(join(tmpdir(), 'gaia2-serve-'));
  const layout = { workDir: join(root, 'work'), sessionDir: join(root, 'session'), turnsDir: join(root, 'turns'), traceDir: join(root, 'trace') };
  for (const d of Object.values(layout)) mkdirSync(d, { recursive: true });
  const logFile = join(root, 'fake.log');
  const conn = await connectToDaemon({ agent: 'fake-serve', socketPath: w.socketPath });
  closers.push(() => conn.close());
  const done = runExternalAgent(conn, {
    env: { PATH: process.env.PATH, FAKE_LOG: logFile, ...env },
    serve: FAKE,
    layout,
    heartbeatMs: 50,
    ...(o.maxStarts ? { maxStarts: o.maxStarts } : {}),
  } as Parameters<typeof runExternalAgent>[1]);
  const log = (): LogLine[] => {
    try {
      return readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine);
    } catch {
      return [];
    }
  };
  const replies = () => w.lines().filter((l) => l.fn === 'send_message_to_user').map((l) => String((l.args as { content: string }).content));
  const delivered = () => w.lines().filter((l) => l.fn === 'send_message_to_agent').map((l) => String((l.args as { content: string }).content));
  debugState = () => JSON.stringify({ log: log(), lines: w.lines().map((l) => [l.fn, (l.args as { content?: string }).content]), status: w.world.status, trace: (() => { try { return readFileSync(join(layout.traceDir, 'serve.stderr.log'), 'utf8'); } catch { return ''; } })() });
  return { w, conn, done, log, replies, delivered, layout };
}

let debugState = (): string => '';
const until = async (what: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out waiting; ${debugState()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('serve runtime', () => {
  it('starts the program once, before the first turn, and plays every message as a turn of that process', async () => {
    const t = await world({ FAKE_START_MS: '300', FAKE_DELAY: '150' });
    // while the program starts, the world says so (GET /health's agent_starting) and delivers nothing
    await until(() => t.log().some((l) => l.ev === 'start'));
    expect(t.w.world.agentStarting).toBe(true);
    expect(t.delivered()).toEqual([]);
    await until(() => t.delivered().length === 1);
    expect(t.w.world.agentStarting).toBe(false);
    // more user messages while the first turn runs: queued by the daemon, the next run
    t.w.world.postMessage('second message');
    await until(() => t.replies().length === 2);
    const log = t.log();
    expect(log.map((l) => l.ev)).toEqual(['start', 'ready', 'turn', 'turn']);
    expect(new Set(log.map((l) => l.pid)).size).toBe(1);
    expect(log[0]!.sim).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(log[0]!.session).toBeNull();
    expect(t.replies()[1]).toBe('echo: second message');
    expect(t.w.world.status.status).not.toBe('error');
  });

  it('a steer the program takes joins the running turn; one it does not take comes back as the next turn, recorded once', async () => {
    const t = await world({ FAKE_STEER: '1', FAKE_DELAY: '600' });
    await until(() => t.log().some((l) => l.ev === 'turn'));
    t.w.world.postMessage('please take this', 'notification');
    t.w.world.postMessage('not this one', 'notification');
    await until(() => t.replies().length === 2);
    const log = t.log();
    expect(log.filter((l) => l.ev === 'steer').map((l) => [l.text, l.taken])).toEqual([
      ['please take this', true],
      ['not this one', false],
    ]);
    expect(t.replies()[0]).toMatch(/ \+ please take this$/);
    expect(t.replies()[1]).toBe('echo: not this one');
    expect(log.filter((l) => l.ev === 'turn').map((l) => l.text)).toEqual([expect.any(String), 'not this one']);
    // each message reached the agent once in the event log, the handed-back one included
    expect(t.delivered().filter((d) => d === 'not this one')).toHaveLength(1);
  });

  it('a program that dies mid-turn: the turn ends with its failure, the next turn restarts it and it resumes its session', async () => {
    // (each message is posted while a turn runs: a single-turn scenario ends once its agent is idle)
    const t = await world({ FAKE_DELAY: '300', FAKE_DIE_MS: '300' });
    await until(() => t.log().some((l) => l.ev === 'turn'));
    t.w.world.postMessage('now die please');
    await until(() => t.log().filter((l) => l.ev === 'turn').length === 2);
    t.w.world.postMessage('and come back'); // queued behind the dying turn
    await until(() => t.replies().length === 3);
    expect(t.replies()[1]).toBe('Error: the agent program ended during the turn (exit code 7: dying on purpose)');
    expect(t.replies()[2]).toBe('echo: and come back');
    const starts = t.log().filter((l) => l.ev === 'start');
    expect(starts.map((s) => s.start)).toEqual([1, 2]);
    expect(starts[1]!.session).toBe('session-of-start-1');
    expect(starts[0]!.pid).not.toBe(starts[1]!.pid);
  });

  it("a turn the program fails on its own ends with the program's failure text as the reply", async () => {
    const t = await world({ FAKE_DELAY: '300' });
    await until(() => t.log().some((l) => l.ev === 'turn'));
    t.w.world.postMessage('fail this one');
    await until(() => t.replies().length === 2);
    expect(t.replies()[1]).toBe('model refused: quota exceeded');
    expect(t.w.world.status.status).not.toBe('error');
  });

  it('starts that fail are retried before the first turn; a program that never starts answers each turn with why', async () => {
    const retried = await world({ FAKE_START_FAILS: '2' });
    await until(() => retried.replies().length === 1);
    expect(retried.log().filter((l) => l.ev === 'start').map((l) => l.start)).toEqual([1, 2, 3]);
    expect(retried.replies()[0]).toMatch(/^echo: /);

    const never = await world({ FAKE_START_FAILS: '99' }, { maxStarts: 2 });
    await until(() => never.replies().length === 1);
    expect(never.replies()[0]).toBe('Error: the agent program could not start (exit code 5: cannot start, attempt 2)');
  });
});
