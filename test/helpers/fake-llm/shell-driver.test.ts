// The shell driver reads requests as the real agents sent them (fixtures: one request of each
// program after its shell tool ran `echo hi-from-…; whoami`, long texts shortened) and
// answers the next step of the turn through that agent's own shell tool.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_CODE_SHELL,
  CODEX_SHELL,
  GEMINI_CLI_SHELL,
  openclawShell,
  readRequest,
  shellDriver,
  shellExchanges,
  startFakeLlm,
  type AgentShell,
  type FakeReply,
  type RecordedRequest,
} from './index.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/agent-requests', `${name}.json`), 'utf8')) as {
    format: string;
    path: string;
    body: unknown;
  };
const asRequest = (body: unknown): RecordedRequest => ({ method: 'POST', path: '/', query: '', headers: {}, body, stream: true });

const AGENTS: Array<[string, AgentShell, string]> = [
  ['claude-code', CLAUDE_CODE_SHELL, 'hi-from-bash'],
  ['codex', CODEX_SHELL, 'hi-from-codex'],
  ['gemini-cli', GEMINI_CLI_SHELL, 'hi-from-gemini'],
];

describe.each(AGENTS)('%s request', (name, shell, echoed) => {
  const { format, body } = fixture(name);

  it('is read in the format the program speaks: its shell tool offered, the call and its result', () => {
    expect(format).toBe(shell.format);
    const read = readRequest(shell.format, body);
    expect(read.tools).toContain(shell.tool);
    const [exchange, ...more] = shellExchanges(shell.format, body, shell.tool);
    expect(more).toEqual([]);
    expect(JSON.stringify(exchange!.args)).toContain(`echo ${echoed}; whoami`);
    expect(exchange!.result).toContain(echoed);
    expect(read.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text).join('\n')).toContain('turn one');
  });

  it('the next command of the turn goes out through the agent shell tool, the reply after the last', () => {
    const two = shellDriver(shell, [{ when: 'turn one', commands: ['echo first', 'emails list-emails'], reply: 'done' }]);
    expect(two.respond(asRequest(body))).toEqual({ toolCalls: [{ name: shell.tool, args: shell.args('emails list-emails') }] });
    const one = shellDriver(shell, [{ when: 'turn one', commands: ['echo first'], reply: 'all done' }]);
    expect((one.respond(asRequest(body)) as FakeReply).text).toBe('all done');
    expect(one.unplaced).toEqual([]);
  });

  it('a conversation no turn knows gets the fallback answer and is kept', () => {
    const driver = shellDriver(shell, [{ when: 'some other task', commands: [], reply: 'x' }], { text: 'fallback' });
    expect((driver.respond(asRequest(body)) as FakeReply).text).toBe('fallback');
    expect(driver.unplaced).toHaveLength(1);
  });
});

describe('shell driver with notifications', () => {
  const turn = { when: 'Plan the boat trip', commands: ['date', 'emails list-emails', 'calendar add-event'], reply: 'Planned.' };
  const responses = (input: unknown[]) => asRequest({ model: 'm', input });
  const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const ran = (id: string, cmd: string) => [
    { type: 'function_call', call_id: id, name: 'exec_command', arguments: JSON.stringify({ cmd }) },
    { type: 'function_call_output', call_id: id, output: 'ok' },
  ];

  it('a notification taken into the running turn (after its tool results) continues that turn', () => {
    const driver = shellDriver(CODEX_SHELL, [turn]);
    const answer = driver.respond(responses([user('Plan the boat trip.'), ...ran('c1', 'date'), user('[Notification] emails: new email'), ...ran('c2', 'emails list-emails')]));
    expect(answer).toEqual({ toolCalls: [{ name: 'exec_command', args: CODEX_SHELL.args('calendar add-event') }] });
    expect(driver.unplaced).toEqual([]);
  });

  it('a notification after the reply that ended a turn is a turn of its own, which no play knows', () => {
    const driver = shellDriver(CODEX_SHELL, [turn]);
    const done = [user('Plan the boat trip.'), ...turn.commands.flatMap((c, i) => ran(`c${i}`, c)), { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Planned.' }] }];
    expect((driver.respond(responses([...done, user('[Notification] emails: new email')])) as FakeReply).text).toBe('Noted.');
    expect(driver.unplaced).toHaveLength(1);
  });
});

describe('shell driver behind the fake server', () => {
  it('streams the tool call in the wire format and bills what it sent', async () => {
    const driver = shellDriver(CLAUDE_CODE_SHELL, [{ when: 'Order two bottles', commands: ['shopping list-all-products'], reply: 'ok' }]);
    const fake = await startFakeLlm({ format: 'anthropic', respond: driver.respond });
    try {
      const res = await fetch(`${fake.url}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }, { type: 'text', text: 'Order two bottles' }] }] }),
      });
      const sse = await res.text();
      expect(sse).toContain('"type":"tool_use"');
      expect(sse).toContain('"name":"Bash"');
      expect(sse).toContain('shopping list-all-products');
      expect(fake.billing()).toEqual({ responses: 1, input: 101, output: 11, cacheRead: 0, cacheWrite: 0 });
    } finally {
      await fake.close();
    }
  });
});

describe('shell driver: a message that came in during a turn', () => {
  const shell = openclawShell('openai-chat');
  const turns = [{ when: 'Wait for the email', commands: ['date', 'wait-for-it', 'emails list-emails'], reply: 'replied' }];
  const callOf = (id: string, command: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'exec', arguments: JSON.stringify({ command }) } }] });
  const body = (...after: object[]) => ({
    model: 'm',
    messages: [{ role: 'user', content: 'Wait for the email, then answer it' }, callOf('c1', 'date'), { role: 'tool', tool_call_id: 'c1', content: '2025' }, callOf('c2', 'wait-for-it'), { role: 'tool', tool_call_id: 'c2', content: 'arrived' }, ...after],
  });

  it('right after a tool result (steered into the run): the turn goes on, and the message is kept', () => {
    const driver = shellDriver(shell, turns);
    const notice = { role: 'user', content: '[Notification] New email received from Lucia' };
    expect(driver.respond(asRequest(body(notice)))).toEqual({ toolCalls: [{ name: 'exec', args: shell.args('emails list-emails') }] });
    expect(driver.respond(asRequest(body(notice, callOf('c3', 'emails list-emails'), { role: 'tool', tool_call_id: 'c3', content: '[]' })))).toEqual({ text: 'replied' });
    expect(driver.midTurn.map((m) => m.text)).toEqual(['[Notification] New email received from Lucia']);
    expect(driver.unplaced).toEqual([]);
  });

  it('behind the envelope OpenClaw puts before a message (sender metadata, a time stamp): the turn goes on', () => {
    const driver = shellDriver(shell, turns);
    const notice = { role: 'user', content: 'Sender (untrusted metadata):\n```json\n{"label": "openclaw-tui"}\n```\n\n[Thu 2025-10-09 09:00 UTC] [Notification] emails: New email received from Lucia' };
    expect(driver.respond(asRequest(body(notice)))).toEqual({ toolCalls: [{ name: 'exec', args: shell.args('emails list-emails') }] });
    expect(driver.midTurn.map((m) => m.text)).toEqual([notice.content]);
    expect(driver.unplaced).toEqual([]);
  });

  // As OpenClaw 2026.9.6 sent it in a CI run: the message steered in while the next call was
  // pending, that call answered "Skipped…" and never run. A model calls it again.
  it('a call the program skipped for the incoming message is made again, then the turn goes on', () => {
    const driver = shellDriver(shell, turns);
    const skipped = [callOf('c3', 'emails list-emails'), { role: 'tool', tool_call_id: 'c3', content: 'Skipped to process an incoming message.' }];
    const notice = { role: 'user', content: '[Thu 2025-10-09 09:00 UTC] [Notification] emails: New email received from Lucia' };
    expect(driver.respond(asRequest(body(...skipped, notice)))).toEqual({ toolCalls: [{ name: 'exec', args: shell.args('emails list-emails') }] });
    const ran = [callOf('c4', 'emails list-emails'), { role: 'tool', tool_call_id: 'c4', content: '[]' }];
    expect(driver.respond(asRequest(body(...skipped, notice, ...ran)))).toEqual({ text: 'replied' });
    expect(driver.midTurn.map((m) => m.text)).toEqual([notice.content]);
  });

  it('after the turn\'s answer (a turn of its own): not placed, as before', () => {
    const driver = shellDriver(shell, turns);
    const r = driver.respond(asRequest(body({ role: 'assistant', content: 'replied' }, { role: 'user', content: '[Notification] later' })));
    expect((r as FakeReply).text).toBe('Noted.');
    expect(driver.unplaced).toHaveLength(1);
    expect(driver.midTurn).toEqual([]);
  });
});
