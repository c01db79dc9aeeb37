#!/usr/bin/env node
// A stand-in for `codex app-server` (JSON-RPC lines on stdio, no "jsonrpc" member), enough of the
// 0.169.0 protocol for the bridge's unit test: it records its argv and environment in
// $STANDIN_SEEN, answers initialize, thread/start, thread/resume (each with a shell snapshot a
// little later) and turn/start,
// asks the client to approve a command, and ends a turn whose text holds "fail" as failed.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

writeFileSync(process.env.STANDIN_SEEN, JSON.stringify({ argv: process.argv.slice(2), env: process.env }));
const out = (m) => process.stdout.write(JSON.stringify(m) + '\n');
// Like Codex, a shell snapshot per thread started or resumed, a while after the answer.
const snapshot = (id) =>
  setTimeout(() => {
    mkdirSync(join(process.env.CODEX_HOME, 'shell_snapshots'), { recursive: true });
    writeFileSync(join(process.env.CODEX_HOME, 'shell_snapshots', `${id}.${Date.now()}.sh`), 'export PATH\n');
  }, 300);
const note = (m) => process.env.STANDIN_LOG && appendFileSync(process.env.STANDIN_LOG, JSON.stringify(m) + '\n');
let turns = 0;
let thread = '';
let open = null; // the turn waiting for the client's approval answer

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  note(m);
  if (m.method === 'initialize') return out({ id: m.id, result: { userAgent: 'standin', codexHome: process.env.CODEX_HOME, platformFamily: 'unix', platformOs: 'linux' } });
  if (m.method === 'thread/start' || m.method === 'thread/resume') {
    thread = m.method === 'thread/start' ? 'thr-new' : m.params.threadId;
    snapshot(thread);
    return out({ id: m.id, result: { thread: { id: thread } } });
  }
  if (m.method === 'turn/start') {
    const turn = { id: `turn-${++turns}`, text: m.params.input[0].text };
    out({ id: m.id, result: { turn: { id: turn.id, status: 'inProgress', items: [] } } });
    open = turn;
    return out({ id: 900 + turns, method: 'item/commandExecution/requestApproval', params: { threadId: thread, turnId: turn.id, itemId: 'c1', command: 'true' } });
  }
  if (m.id >= 900 && open) {
    // The approval answered: the turn ends.
    const turn = open;
    open = null;
    setTimeout(() => {
      if (/fail/.test(turn.text)) {
        const error = { message: 'unexpected status 401 Unauthorized', codexErrorInfo: 'unauthorized', additionalDetails: null };
        return out({ method: 'turn/completed', params: { threadId: thread, turn: { id: turn.id, status: 'failed', items: [], error } } });
      }
      const msg = { type: 'agentMessage', id: 'm1', text: `Did: ${turn.text} (approval ${JSON.stringify(m.result)})` };
      out({ method: 'item/completed', params: { threadId: thread, turnId: turn.id, item: msg } });
      out({ method: 'turn/completed', params: { threadId: thread, turn: { id: turn.id, status: 'completed', items: [msg] } } });
    }, Number(process.env.STANDIN_TURN_MS ?? 50));
  }
});
