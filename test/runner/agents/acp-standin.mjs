// A stand-in for an agent program in its Agent Client Protocol mode (JSON-RPC 2.0, one message a
// line on stdio), for tests of the kit's ACP client and of bridges built on it. It records how it
// was started (argv, cwd, environment) in $STANDIN_RECORD, keeps its sessions under
// $HOME/.standin/ (so a new process can session/load them) and plays a turn by the prompt's words:
//   "tool"      text, a tool call (in progress, then completed), text after it: the final message
//   "silent"    text, then a tool call and no text after it
//   "ask"       asks session/request_permission first, then says which option it was given
//   "error"     answers the prompt with a JSON-RPC error (code 429)
//   "loop"      ends the turn with stopReason max_turn_requests
//   "die"       writes a line to stderr and exits 7 mid-turn
//   "wait"      answers only after 2 s (a long turn)
//   otherwise   "You said: <text>" (the turn's number in this session too)
// session/set_model keeps the model id with the session.
// session/load replays the conversation as session/update notifications, partly AFTER its answer
// (as Gemini CLI 0.61 does), so a client must let the replay settle.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const store = join(process.env.HOME ?? '/tmp', '.standin');
mkdirSync(store, { recursive: true });
if (process.env.STANDIN_RECORD) {
  appendFileSync(process.env.STANDIN_RECORD, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env: process.env, pid: process.pid }) + '\n');
}

const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
const update = (sessionId, u) => send({ method: 'session/update', params: { sessionId, update: u } });
const say = (sessionId, text) => update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const file = (id) => join(store, `${id}.json`);
const load = (id) => (existsSync(file(id)) ? JSON.parse(readFileSync(file(id), 'utf8')) : null);
const save = (id, s) => writeFileSync(file(id), JSON.stringify(s));

let nextAsk = 1000;
const asked = new Map();
function ask(method, params) {
  const id = nextAsk++;
  send({ id, method, params });
  return new Promise((resolve) => asked.set(id, resolve));
}

async function prompt(p) {
  const id = p.sessionId;
  const s = load(id);
  if (!s) throw Object.assign(new Error(`Session not found: ${id}`), { code: -32602 });
  const text = p.prompt.map((c) => c.text ?? '').join('');
  s.messages.push({ role: 'user', text });
  save(id, s); // kept at once, as Gemini CLI records a message when its turn starts
  const reply = (t) => (say(id, t), s.messages.push({ role: 'agent', text: t }));
  let stopReason = 'end_turn';
  if (/\btool\b/.test(text)) {
    reply('Let me look. ');
    update(id, { sessionUpdate: 'tool_call', toolCallId: 'call-1', title: 'ls', kind: 'execute', status: 'in_progress' });
    update(id, { sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'completed', rawInput: { command: 'ls' }, content: [{ type: 'content', content: { type: 'text', text: 'notes.txt' } }] });
    say(id, 'Found ');
    reply('it.');
  } else if (/\bsilent\b/.test(text)) {
    reply('Before the call.');
    update(id, { sessionUpdate: 'tool_call', toolCallId: 'call-2', title: 'ls', kind: 'execute', status: 'in_progress' });
    update(id, { sessionUpdate: 'tool_call_update', toolCallId: 'call-2', status: 'completed' });
  } else if (/\bask\b/.test(text)) {
    const r = await ask('session/request_permission', {
      sessionId: id,
      toolCall: { toolCallId: 'call-3', title: 'rm -rf build', kind: 'execute', status: 'pending' },
      options: [
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      ],
    });
    reply(`permission: ${r.outcome?.outcome === 'selected' ? r.outcome.optionId : r.outcome?.outcome}`);
  } else if (/\berror\b/.test(text)) {
    save(id, s);
    throw Object.assign(new Error('Rate limit exceeded. Try again later.'), { code: 429 });
  } else if (/\bloop\b/.test(text)) {
    stopReason = 'max_turn_requests';
  } else if (/\bdie\b/.test(text)) {
    process.stderr.write('standin: fatal: out of memory\n');
    process.exit(7);
  } else {
    // A model takes its time: a replay still going on lands inside the turn.
    await sleep(/\bwait\b/.test(text) ? 2000 : 150);
    reply(`You said: ${text} (turn ${s.messages.filter((m) => m.role === 'user').length})`);
  }
  save(id, s);
  return { stopReason };
}

const methods = {
  initialize: (p) => ({
    protocolVersion: 1,
    agentInfo: { name: 'acp-standin', version: '1.0.0' },
    agentCapabilities: { loadSession: !process.env.STANDIN_NO_LOAD },
    authMethods: [],
    echo: p,
  }),
  'session/new': (p) => {
    const id = `standin-${process.pid}-${Date.now()}`;
    save(id, { cwd: p.cwd, messages: [] });
    return { sessionId: id };
  },
  'session/load': (p) => {
    const s = load(p.sessionId);
    if (!s) throw Object.assign(new Error('No previous sessions found'), { code: -32603 });
    const replay = s.messages.map((m) => ({ sessionUpdate: m.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'text', text: m.text } }));
    const [first, ...rest] = replay;
    if (first) update(p.sessionId, first);
    setTimeout(() => rest.forEach((u, i) => setTimeout(() => update(p.sessionId, u), 20 * i)), 20);
    return {};
  },
  'session/prompt': prompt,
  // The session's model (any id), kept with the session.
  'session/set_model': (p) => {
    const s = load(p.sessionId);
    if (!s) throw Object.assign(new Error(`unknown session: ${p.sessionId}`), { code: -32602 });
    save(p.sessionId, { ...s, model: p.modelId });
    return {};
  },
  // A program that wants authentication takes the method it offers (STANDIN_AUTH) and no other.
  authenticate: (p) => {
    if (p.methodId !== process.env.STANDIN_AUTH) throw Object.assign(new Error(`unknown auth method ${p.methodId}`), { code: -32602 });
    return {};
  },
};

createInterface({ input: process.stdin }).on('line', async (line) => {
  if (!line.trim()) return;
  const m = JSON.parse(line);
  if (m.method === undefined) return void asked.get(m.id)?.(m.result ?? {});
  if (m.id === undefined) return; // notifications (session/cancel) are not played
  const h = methods[m.method];
  if (!h) return send({ id: m.id, error: { code: -32601, message: `method not found: ${m.method}` } });
  try {
    send({ id: m.id, result: await h(m.params ?? {}) });
  } catch (e) {
    send({ id: m.id, error: { code: e.code ?? -32603, message: e.message } });
  }
});
