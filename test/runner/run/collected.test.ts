import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepRunArtifacts } from '../../../runner/src/run/artifacts.js';
import { readCollected } from '../../../runner/src/run/collected.js';

const line = (o: object) => JSON.stringify(o);
const reply = (content: string) => line({ app: 'AgentUserInterface', fn: 'send_message_to_user', args: { content } });
const call = (n: number) => line({ app: 'Emails', fn: 'search_emails', args: { query: '@' }, return_value: Array.from({ length: n }, (_, i) => ({ email_id: `e${i}` })) });
const files = (events: string, status?: string) =>
  new Map<string, Buffer>([['events.jsonl', Buffer.from(events)], ...(status !== undefined ? [['daemon_status.json', Buffer.from(status)] as [string, Buffer]] : [])]);

afterEach(() => vi.restoreAllMocks());

describe('reading collected artifacts', () => {
  it('counts every non-blank line and finds the last non-empty reply of the complete lines', () => {
    const text = [reply('first'), call(3), reply('last'), reply('  '), call(2), ''].join('\n') + '{"torn": ';
    const c = readCollected(files(text, '{"status": "complete", "turn": 1}'));
    expect(c.numAgentEvents).toBe(6);
    expect(c.agentResponse).toBe('last');
    expect(c.statusFile).toMatchObject({ status: 'complete' });
  });

  it('a torn or malformed reply line is not a reply; a broken status file is null', () => {
    const torn = [reply('kept'), 'not json send_message_to_user'].join('\n') + '\n' + reply('torn');
    const c = readCollected(files(torn, '{broken'));
    expect(c.agentResponse).toBe('kept');
    expect(c.statusFile).toBeNull();
    expect(readCollected(new Map()).agentResponse).toBeNull();
  });

  it('parses only the lines that can be a reply, not the large return values', () => {
    const text = [call(5000), call(5000), reply('done'), call(5000), ''].join('\n');
    const parse = vi.spyOn(JSON, 'parse');
    expect(readCollected(files(text)).agentResponse).toBe('done');
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('keeps the reply it read beside the artifacts (agent_response.txt), and an events.jsonl even when none came', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-'));
    const got = files([reply('the answer'), ''].join('\n'));
    await keepRunArtifacts(join(dir, 'a'), got, readCollected(got).agentResponse);
    expect(readFileSync(join(dir, 'a', 'agent_response.txt'), 'utf8')).toBe('the answer');
    await keepRunArtifacts(join(dir, 'b'), new Map([['daemon_status.json', Buffer.from('{}')]]), null);
    expect(readdirSync(join(dir, 'b')).sort()).toEqual(['agent_response.txt', 'daemon_status.json', 'events.jsonl']);
    expect(readFileSync(join(dir, 'b', 'agent_response.txt'), 'utf8')).toBe('');
  });
});
