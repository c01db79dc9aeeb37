// Checks the container suites of ACP programs kept up by the kit's bridge (opencode, qwen-code, cline)
// make the same way: one process and one session per sample, and a program killed by its first
// command whose turn fails with that, restarted, its session loaded again. `name` is the trace
// files' suffix (agent-trace/serve-N.<name>.jsonl), `label` the program's name in agent-serve's words.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RecordedRequest } from '../../../helpers/fake-llm/index.js';
import { acpTraces, note, replies, scenarioDirs, sent } from './acp-traces.js';
import { SAMPLES } from './agent-samples.js';
import { readResults, type DrivenRun } from './third-party-run.js';

/** Each sample of the good run: one start (one initialize, one session/new), every turn one prompt of that process and session. */
export function expectOneStartPerSample(out: string, name: string): void {
  const dirs = scenarioDirs(out);
  for (const [sample, turns] of [[SAMPLES.single, 1], [SAMPLES.multi, 2], [SAMPLES.time, 2]] as const) {
    const traces = acpTraces(dirs.get(sample.split('/')[1]!)!, name);
    const start = traces.get(`serve-1.${name}.jsonl`)!;
    expect([...traces.keys()].filter((f) => f.startsWith('serve-')), sample).toEqual([`serve-1.${name}.jsonl`]);
    expect([sent(start, 'initialize').length, sent(start, 'session/new').length, sent(start, 'session/load').length], sample).toEqual([1, 1, 0]);
    for (let n = 1; n <= turns; n++) {
      const turn = traces.get(`turn-${n}.${name}.jsonl`)!;
      expect(note(turn), `${sample} turn ${n}`).toEqual({ turn: n, start: 1, pid: note(start).pid, sessionId: note(start).sessionId });
      expect(sent(turn, 'session/prompt'), `${sample} turn ${n}`).toHaveLength(1);
    }
  }
}

/**
 * The multi-turn sample with the program killed by turn 1's first command: that turn's reply is
 * the failure, start 2 loads the same session in a new process, and turn 2's first request
 * (the one holding `turn2Said`) holds turn 1's message (`turn1Said`): the conversation went on.
 */
export function expectKilledAndResumed(run: DrivenRun, name: string, label: string, userText: (q: RecordedRequest) => string, turn1Said: string, turn2Said: string): void {
  const [r] = readResults(run.dir);
  expect([r!.status, r!.error ?? null], run.err).toEqual([expect.stringMatching(/^(pass|fail)$/), null]);
  const dir = scenarioDirs(run.dir).values().next().value!;
  const traces = acpTraces(dir, name);
  expect([...traces.keys()].filter((f) => f.startsWith('serve-')).sort()).toEqual([`serve-1.${name}.jsonl`, `serve-2.${name}.jsonl`]);
  expect(readFileSync(join(dir, 'agent-trace', 'serve.stderr.log'), 'utf8')).toContain(`agent-serve: ${label} exited (signal SIGKILL)`);
  expect(replies(dir)[0]!.startsWith(`Error: the agent program ended during the turn (exit code 1: agent-serve: ${label} exited (signal SIGKILL)`), replies(dir)[0]).toBe(true);
  expect(r!.agent_failed).toMatchObject({ turns: [1], evidence: 'gateway_record' });
  const [first, second] = [note(traces.get(`serve-1.${name}.jsonl`)!), note(traces.get(`serve-2.${name}.jsonl`)!)];
  expect(second).toMatchObject({ start: 2, resumed: true, sessionId: first.sessionId });
  expect(second.pid).not.toBe(first.pid);
  expect(sent(traces.get(`serve-2.${name}.jsonl`)!, 'session/load')).toHaveLength(1);
  const turn2 = run.fake.requests.find((q) => userText(q).includes(turn2Said))!;
  expect(userText(turn2)).toContain(turn1Said);
}
