import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pyFloat } from '../../../agent-image/src/contract/pyjson.js';
import { expectFailure, json, makeWorld } from './world.js';

const msg = (id: string, sender: string, ts: number, content: string, extra: Record<string, unknown> = {}) => ({ sender_id: sender, message_id: id, timestamp: pyFloat(ts), content, ...extra });
const NAME_STATE = {
  current_user_id: 'me', current_user_name: 'Noor Haddad', mode: 'NAME', messages_view_limit: 10, conversation_view_limit: 2,
  id_to_name: { me: 'Noor Haddad', a1: 'Alice Smith', b1: 'Bob Jones', b10: 'Bea Long' },
  name_to_id: { 'Noor Haddad': 'me', 'Alice Smith': 'a1', 'Bob Jones': 'b1', 'Bea Long': 'b10' },
  conversations: {
    ca: { participant_ids: ['me', 'a1'], title: 'Alice Smith', conversation_id: 'ca', last_updated: pyFloat(3000), messages: [msg('m1', 'a1', 1000, 'Hello WORLD'), msg('m2', 'me', 2000, 'Meeting at 3pm tomorrow'), msg('m3', 'a1', 3000, 'ok', { attachment: Buffer.from('pic').toString('base64'), attachment_name: 'p.png' })] },
    cg: { participant_ids: ['me', 'a1', 'b10'], title: 'Crew', conversation_id: 'cg', last_updated: pyFloat(500), messages: [] },
  },
};
const world = () => makeWorld([['Messages', 'MessagingAppV2', NAME_STATE]]);

describe('messages', () => {
  it('fails cleanly without a state file or with a broken one', async () => {
    const w = await makeWorld([['Calendar', 'CalendarApp', {}]]);
    expectFailure(await w.run('messages', 'get-user-id', '--user-name', 'x'), 1, 'State file for Messages not found\n');
    expectFailure(await w.run('chats', 'get-user-id', '--user-name', 'x'), 1, 'State file for Chats not found\n');
    writeFileSync(join(w.stateDir, 'messages.json'), '{"conversations": {}}');
    expectFailure(await w.run('messages', 'search', '--query', 'x'), 1, "Messages state is missing the required key 'current_user_id'\n");
  });

  it('looks users up exactly and approximately', async () => {
    const w = await world();
    expect(await w.run('messages', 'get-user-id', '--user-name', 'nobody')).toMatchObject({ stdout: 'null\n', exitCode: 0 });
    expect(json(await w.run('messages', 'get-user-name-from-id', '--user-id', 'b1'))).toBe('Bob Jones');
    expect(json(await w.run('messages', 'lookup-user-id', '--user-name', 'Alice Smit'))).toEqual({ 'Alice Smith': 'a1' });
  });

  it('reuses a default-titled 1:1 conversation and creates one otherwise (message id first)', async () => {
    const w = await world();
    expect(json(await w.run('messages', 'send-message', '--user-id', 'a1', '--content', 'hi'))).toBe('ca');
    const r = await w.run('messages', 'send-message', '--user-id', 'b1', '--content', 'yo');
    expect(json(r)).toBe(w.ids[2]);
    const conv = (w.state('messages.json') as { conversations: Record<string, Record<string, unknown>> }).conversations[w.ids[2]!]!;
    expect(Object.keys(conv)).toEqual(['conversation_id', 'title', 'participant_ids', 'last_updated', 'messages']);
    expect(conv).toMatchObject({ title: 'Bob Jones', participant_ids: ['b1', 'me'] /* Python set order */, messages: [{ message_id: w.ids[1], sender_id: 'me', content: 'yo' }] });
    expectFailure(await w.run('messages', 'send-message', '--user-id', 'zed'), 1, 'User zed does not exist in Ids, you need to provide the Id of an existing user\n');
    expectFailure(await w.run('messages', 'send-message', '--user-id', 'a1', '--attachment-path', '/nope.png'), 1, 'File /nope.png does not exist\n');
  });

  it('creates groups with the reference checks and messages them', async () => {
    const w = await world();
    expectFailure(await w.run('messages', 'create-group-conversation', '--user-ids', '["a1"]'), 1, 'Must have at least two other participants\n');
    expectFailure(await w.run('messages', 'create-group-conversation', '--user-ids', '["a1", "me"]'), 1, 'Must have at least two other participants (do not include your own user id)\n');
    expectFailure(await w.run('messages', 'create-group-conversation', '--user-ids', 'a1,b1'), 1, 'Expecting value: line 1 column 1 (char 0)\n');
    const g = await w.run('messages', 'create-group-conversation', '--user-ids', '["b1", "a1"]');
    expect(JSON.parse(w.line(g)).args).toEqual({ user_ids: ['b1', 'a1'], title: null });
    const id = json(g) as string;
    expect((w.state('messages.json') as { conversations: Record<string, { title: string }> }).conversations[id]!.title).toBe('Alice Smith, Bob Jones');
    expect(json(await w.run('messages', 'send-message-to-group-conversation', '--conversation-id', id, '--content', 'x'))).toBe(id);
    expectFailure(await w.run('messages', 'send-message-to-group-conversation', '--conversation-id', 'ca'), 1, 'Conversation ca is not a group conversation\n');
    expectFailure(await w.run('messages', 'send-message-to-group-conversation', '--conversation-id', 'zz'), 1, 'Conversation zz does not exist\n');
    expect(json(await w.run('messages', 'get-existing-conversation-ids', '--user-ids', '["a1"]'))).toEqual(['ca']);
    expectFailure(await w.run('messages', 'get-existing-conversation-ids', '--user-ids', '[a1]'), 1, 'Expecting value: line 1 column 2 (char 1)\n');
  });

  it('lists and reads with the view limits and date filters', async () => {
    const w = await world();
    expect((json(await w.run('messages', 'list-recent-conversations', '--limit', '1', '--limit-recent-messages-per-conversation', '1')) as Array<{ conversation_id: string; messages: Array<{ message_id: string }> }>)[0]).toMatchObject({ conversation_id: 'ca', messages: [{ message_id: 'm3' }] });
    expectFailure(await w.run('messages', 'list-recent-conversations', '--limit', '3'), 1, 'Limit must be smaller than the view limit of 2 - Please use a smaller limit and use offset to navigate\n');
    expectFailure(await w.run('messages', 'list-recent-conversations', '--limit', '1', '--limit-recent-messages-per-conversation', '11'), 1, 'Limit must be smaller than the view limit of 10 - Please use a smaller limit and use offset to navigate\n');
    expectFailure(await w.run('messages', 'list-recent-conversations', '--limit', '1', '--offset', '3'), 1, 'Offset is larger than the number of conversations\n');
    expect((json(await w.run('messages', 'list-conversations-by-participant', '--user-id', 'b1', '--limit', '2')) as Array<{ conversation_id: string }>).map((c) => c.conversation_id)).toEqual(['cg']);
    const read = json(await w.run('messages', 'read-conversation', '--conversation-id', 'ca', '--offset', '1', '--limit', '1')) as { messages: Array<{ message_id: string }>; metadata: unknown };
    expect(read.messages.map((m) => m.message_id)).toEqual(['m2']);
    expect(read.metadata).toEqual({ message_range: [1, 2], conversation_length: 3, conversation_id: 'ca', conversation_title: 'Alice Smith' });
    const ranged = json(await w.run('messages', 'read-conversation', '--conversation-id', 'ca', '--min-date', '1970-01-01 00:25:00', '--max-date', '1970-01-01 00:40:00')) as { messages: Array<{ message_id: string }> };
    expect(ranged.messages.map((m) => m.message_id)).toEqual(['m2']);
    expectFailure(await w.run('messages', 'read-conversation', '--conversation-id', 'ca', '--offset', '-1'), 1, 'Offset must be positive\n');
    expectFailure(await w.run('messages', 'read-conversation', '--conversation-id', 'ca', '--offset', '4'), 1, 'Offset is larger than the number of messages\n');
    expectFailure(await w.run('messages', 'read-conversation', '--conversation-id', 'ca', '--min-date', 'yesterday'), 1, "time data 'yesterday' does not match format '%Y-%m-%d %H:%M:%S'\n");
    expectFailure(await w.run('messages', 'read-conversation', '--conversation-id', 'zz'), 1, 'Conversation with id zz not found\n');
  });

  it('searches by text and Python regex', async () => {
    const w = await world();
    expect(json(await w.run('messages', 'search', '--query', 'hello world'))).toEqual(['ca']);
    expect(json(await w.run('messages', 'search', '--query', 'crew'))).toEqual(['cg']);
    expect(json(await w.run('messages', 'regex-search', '--query', 'meeting.*\\d+pm'))).toEqual(['ca']);
    expect(json(await w.run('messages', 'regex-search', '--query', '(?P<w>b1)0'))).toEqual(['cg']);
    const bad = await w.run('messages', 'regex-search', '--query', '(unclosed');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/^Invalid regular expression "\(unclosed"/);
    expectFailure(await w.run('messages', 'search', '--query', 'x', '--max-date', '2024'), 1, "time data '2024' does not match format '%Y-%m-%d %H:%M:%S'\n");
  });

  it('retitles default titles when participants change', async () => {
    const w = await world();
    await w.run('messages', 'add-participant-to-conversation', '--conversation-id', 'ca', '--user-id', 'b1');
    const title = () => (w.state('messages.json') as { conversations: { ca: { title: string } } }).conversations.ca.title;
    expect(title()).toBe('Alice Smith, Bob Jones');
    expectFailure(await w.run('messages', 'add-participant-to-conversation', '--conversation-id', 'ca', '--user-id', 'b1'), 1, 'Participant b1 already in conversation\n');
    await w.run('messages', 'remove-participant-from-conversation', '--conversation-id', 'ca', '--user-id', 'b1');
    expect(title()).toBe('Alice Smith');
    expectFailure(await w.run('messages', 'remove-participant-from-conversation', '--conversation-id', 'ca', '--user-id', 'b1'), 1, 'Participant b1 not in conversation\n');
    await w.run('messages', 'change-conversation-title', '--conversation-id', 'cg', '--title', 'Climbers');
    await w.run('messages', 'add-participant-to-conversation', '--conversation-id', 'cg', '--user-id', 'b1');
    expect((w.state('messages.json') as { conversations: { cg: { title: string } } }).conversations.cg.title).toBe('Climbers');
  });

  it('downloads attachments and runs the ENV message command', async () => {
    const w = await world();
    const path = json(await w.run('messages', 'download-attachment', '--conversation-id', 'ca', '--message-id', 'm3')) as string;
    expect(path).toBe(join(w.stateDir, 'filesystem/Downloads/p.png'));
    expect(readFileSync(path, 'utf8')).toBe('pic');
    expectFailure(await w.run('messages', 'download-attachment', '--conversation-id', 'ca', '--message-id', 'm1'), 1, 'No attachment found in the specified message\n');
    expectFailure(await w.action('Messages', 'create_and_add_message', { conversation_id: 'ca', sender_id: 'b1', content: 'x' }), 1, 'Sender b1 not in conversation\n');
    const r = await w.action('Messages', 'create_and_add_message', { conversation_id: 'cg', sender_id: 'b10', content: 'New!' }, 'Event-ENV-2');
    expect(JSON.parse(w.line(r))).toMatchObject({ app: 'MessagingAppV2', fn: 'create_and_add_message', ret: 'cg', event_id: 'Event-ENV-2' });
    expect((json(await w.run('messages', 'list-recent-conversations', '--limit', '1')) as Array<{ conversation_id: string }>)[0]!.conversation_id).toBe('cg');
  });
});

describe('chats', () => {
  const CHATS = { ...NAME_STATE, mode: 'PHONE_NUMBER', current_user_id: '+1000', id_to_name: { '+1000': 'Noor Haddad', '+2000': 'Alice Smith' }, name_to_id: {}, conversations: {} };
  it('accepts any phone-like id and titles unknown numbers with the raw id', async () => {
    const w = await makeWorld([['Chats', 'MessagingAppV2', CHATS]]);
    const r = await w.run('chats', 'send-message', '--user-id', '+3000', '--content', 'hi');
    expect(JSON.parse(w.line(r)).app).toBe('MessagingAppV2');
    expect((w.state('chats.json') as { conversations: Record<string, { title: string }> }).conversations[json(r) as string]!.title).toBe('+3000');
    expectFailure(await w.run('chats', 'send-message', '--user-id', 'not_a_phone'), 1, 'User not_a_phone is not a valid phone number, you need to provide the phone number of an existing user\n');
  });
});
