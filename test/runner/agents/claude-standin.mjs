#!/usr/bin/env node
// A stand-in for `claude -p --input-format stream-json --output-format stream-json`, for the
// claude-code bridge's tests: it answers `initialize` and `cancel_async_message`, runs one turn
// per user message and plays what the message's first word asks for, with the message shapes
// Claude Code 2.1.332 writes (the real program's behaviour is tested in test/e2e/agents/):
//   plain TEXT  answers TEXT
//   slow TEXT   answers TEXT after 300 ms of the model writing it (no tool runs)
//   tool        a Bash call that runs until a message comes in; that message is folded into the
//               turn (replayed, then part of the answer)
//   late        a Bash call that ends after a message came in without folding it (the CLI checked
//               its queue just before): the message waits in the queue (cancel_async_message
//               takes it back)
//   eager       as late, but the queued message starts as a turn of its own right after the
//               result, before a cancel can come
//   fail        an error result (an API error the CLI gave up on)
//   crash       "boom" on stderr, exit code 3
// Every line read and its argv and environment go to $STANDIN_RECORD (JSON lines).
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const record = (o) => process.env.STANDIN_RECORD && appendFileSync(process.env.STANDIN_RECORD, JSON.stringify(o) + '\n');
record({ argv: process.argv.slice(2), env: process.env, pid: process.pid });
const session_id = 'standin-session';
const out = (o) => process.stdout.write(JSON.stringify({ session_id, ...o }) + '\n');
const text = (m) => (typeof m.message.content === 'string' ? m.message.content : '');
const assistant = (content) => out({ type: 'assistant', message: { role: 'assistant', content }, parent_tool_use_id: null });
const result = (r, uuids, extra = {}) => out({ type: 'result', subtype: 'success', is_error: false, result: r, user_message_uuids: uuids, ...extra });

let busy = false;
let waiting = null; // the running tool, waiting for a message
const queue = [];

async function play(m) {
  busy = true;
  out({ type: 'user', message: m.message, parent_tool_use_id: null, uuid: m.uuid, isReplay: true });
  const [word, ...rest] = text(m).split(' ');
  if (word === 'crash') {
    process.stderr.write('boom\n');
    process.exit(3);
  }
  if (word === 'fail') {
    assistant([{ type: 'text', text: 'API Error: 400 refused' }]);
    result('API Error: 400 refused', [m.uuid], { is_error: true, api_error_status: 400, terminal_reason: 'api_error' });
  } else if (word === 'tool' || word === 'late' || word === 'eager') {
    assistant([{ type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'sleep 5' } }]);
    const came = await new Promise((resolve) => (waiting = resolve));
    if (word === 'tool') queue.splice(queue.indexOf(came), 1);
    out({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'slept' }] }, parent_tool_use_id: null });
    if (word === 'tool') out({ type: 'user', message: came.message, parent_tool_use_id: null, uuid: came.uuid, isReplay: true });
    const folded = word === 'tool' ? ` (and ${text(came)})` : '';
    assistant([{ type: 'text', text: `${word} done${folded}` }]);
    result(`${word} done${folded}`, word === 'tool' ? [m.uuid, came.uuid] : [m.uuid], { queued_turn_count: queue.length });
    if (word === 'eager') return next();
  } else {
    if (word === 'slow') await new Promise((r) => setTimeout(r, 300));
    assistant([{ type: 'text', text: rest.join(' ') }]);
    result(rest.join(' '), [m.uuid]);
  }
  busy = false;
}

function next() {
  const m = queue.shift();
  if (!m) return void (busy = false);
  out({ type: 'command_lifecycle', command_uuid: m.uuid, state: 'started' });
  m.message.content = `plain follow-up: ${text(m)}`;
  void play(m);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  record({ stdin: m });
  if (m.type === 'control_request') {
    const r = m.request;
    let response = {};
    if (r.subtype === 'cancel_async_message') {
      const at = queue.findIndex((q) => q.uuid === r.message_uuid);
      if (at >= 0) queue.splice(at, 1);
      response = { cancelled: at >= 0, message_uuid: r.message_uuid };
    }
    out({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response } });
  } else if (m.type === 'user') {
    out({ type: 'command_lifecycle', command_uuid: m.uuid, state: 'queued' });
    if (!busy) return void play(m);
    queue.push(m);
    waiting?.(m);
    waiting = null;
  }
});
