// The scale bench's search measure: its universe (5 inbox emails per factor, the sample's own
// the newest) and the call made as a process through the thin client against the daemon's socket.
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../agent-image/src/contract/pyjson.js';
import { interleaved, searchAnswers } from '../../bench/lib/search-answer.js';
import type { TimedCli } from '../../bench/lib/timed-calls.js';
import { universe } from '../../bench/lib/universe.js';

type Mail = { email_id: string; timestamp: unknown };
const inbox = (text: string): Mail[] => {
  const apps = (parsePyJson(text) as { apps: Array<{ name: string; app_state: { folders: Record<string, { emails: Mail[] }> } }> }).apps;
  return apps.find((a) => a.name === 'Emails')!.app_state.folders.INBOX!.emails;
};

describe('universe inbox option', () => {
  it('pads INBOX to the given count before scaling, with fresh ids, older than the sample', () => {
    const sample = inbox(universe(1));
    expect(sample).toHaveLength(3);
    const padded = inbox(universe(2, { inbox: 5 }));
    expect(padded).toHaveLength(10);
    expect(new Set(padded.map((e) => e.email_id)).size).toBe(10);
    const oldest = Math.min(...sample.map((e) => Number(e.timestamp)));
    expect(padded.slice(3).every((e) => Number(e.timestamp) < oldest)).toBe(true);
    expect(padded.slice(0, 3).map((e) => e.email_id)).toEqual(sample.map((e) => e.email_id));
  });
});

describe('interleaved', () => {
  it('warms each target up once, then alternates rounds of two calls until each has n', async () => {
    const log: string[] = [];
    const target = (name: string, short = false): TimedCli => ({
      timed: async (_argv, k) => {
        log.push(`${name}${k}`);
        return Array.from({ length: short ? 0 : k }, () => 1);
      },
      close: async () => {},
    });
    const out = await interleaved([target('a'), target('b')], ['x'], 5);
    expect(log).toEqual(['a1', 'b1', 'a2', 'b2', 'a2', 'b2', 'a1', 'b1']);
    expect(out.map((xs) => xs.length)).toEqual([5, 5]);
    await expect(interleaved([target('c', true)], ['emails', 'x'], 2)).rejects.toThrow('emails x: 0 of 2 calls timed');
  });
});

describe('searchAnswers', () => {
  it('times the search in-process and as thin-client processes in each universe', async () => {
    const [one, two] = await searchAnswers([1, 2], 2);
    expect([one!.hits, two!.hits]).toEqual([5, 10]);
    expect(two!.answerBytes).toBeGreaterThan(one!.answerBytes);
    for (const s of [one!, two!]) {
      for (const ms of [s.inProcess, s.writing, s.process]) expect(ms).toBeGreaterThan(0);
      // A process (bash, curl, a socket round trip) costs more than the daemon's part of it.
      expect(s.process).toBeGreaterThan(s.inProcess);
    }
  }, 60_000);
});
