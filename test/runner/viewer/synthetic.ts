// Synthetic scenario run directories for viewer tests and bench/viewer.mjs (no containers).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SyntheticScenario {
  id: string;
  split?: string;
  status: 'pass' | 'fail' | 'error' | 'running';
  task?: string;
  /** Text placed in a tool argument and in the agent's reply (XSS canaries). */
  toolArg?: string;
  reply?: string;
  calls?: number;
  /** Pad tool results so the trace reaches roughly this many bytes. */
  traceBytes?: number;
  model?: string;
}

const T0 = Date.parse('2026-11-22T01:00:00Z');

export function anthropicTrace(s: SyntheticScenario): string {
  const calls = s.calls ?? 3;
  const pad = s.traceBytes && calls > 1 ? Math.max(0, Math.floor((s.traceBytes - calls * 900) / ((calls * (calls - 1)) / 2))) : 0;
  const messages: unknown[] = [{ role: 'user', content: s.task ?? 'Do the task.' }];
  const rows: string[] = [];
  for (let i = 0; i < calls; i++) {
    const last = i === calls - 1;
    const content = last
      ? [{ type: 'text', text: s.reply ?? 'All done.' }]
      : [
          { type: 'thinking', thinking: `Step ${i}: think about it.` },
          { type: 'tool_use', id: `toolu_${i}`, name: 'exec', input: { command: `gaia2 calendar list --day ${i} ${s.toolArg ?? ''}`.trim() } },
        ];
    rows.push(
      JSON.stringify({
        seq: i + 1,
        timestamp: new Date(T0 + i * 4000).toISOString(),
        type: 'llm_call',
        url: 'https://api.anthropic.com/v1/messages',
        latency_ms: 900 + i,
        http_status: 200,
        request: { model: s.model ?? 'claude-sonnet-4-5', system: 'You are a phone assistant.', messages: [...messages] },
        raw_response: JSON.stringify({ model: s.model ?? 'claude-sonnet-4-5', stop_reason: last ? 'end_turn' : 'tool_use', usage: { input_tokens: 1000 + i * 100, output_tokens: 50 }, content }),
      }),
    );
    messages.push({ role: 'assistant', content });
    if (!last) messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `result ${i} ${'x'.repeat(pad)}` }] });
  }
  return rows.join('\n') + '\n';
}

export function writeScenario(runDir: string, s: SyntheticScenario): string {
  const dir = join(runDir, ...s.id.split('/'));
  mkdirSync(dir, { recursive: true });
  const t = T0 / 1000;
  const events = [
    { t: t + 1, app: 'CalendarApp', fn: 'list_events', args: { day: 0, note: s.toolArg ?? '' }, w: false, ret: [], sim_t: '2025-10-09 09:00:01' },
    { t: t + 5, app: 'EmailClientV2', fn: 'send_email', args: { to: ['a@b.c'], subject: 'Hi' }, w: true, ret: 'em1', sim_t: '2025-10-09 09:00:05' },
    { t: t + 6, app: 'MessagingAppV2', fn: 'create_and_add_message', args: { content: 'ENV says hi' }, w: true, ret: 'm1', event_id: 'Event-ENV-1', sim_t: '2025-10-09 09:00:06' },
    { t: t + 9, app: 'AgentUserInterface', fn: 'send_message_to_user', args: { content: s.reply ?? 'All done.' }, w: true, ret: null, sim_t: '2025-10-09 09:00:09' },
  ];
  writeFileSync(join(dir, 'events.jsonl'), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  writeFileSync(join(dir, 'trace.jsonl'), anthropicTrace(s));
  writeFileSync(join(dir, 'daemon_status.json'), JSON.stringify({ status: s.status === 'running' ? 'running' : 'complete', turn: 1, nb_turns: 1, num_events: 3 }));
  if (s.status !== 'running') {
    const success = s.status === 'pass' ? true : s.status === 'fail' ? false : null;
    writeFileSync(
      join(dir, 'daemon_judgments.jsonl'),
      JSON.stringify({
        turn: 0,
        success: s.status === 'pass',
        failure_reason: s.status === 'pass' ? null : 'Cannot match EmailClientV2__send_email',
        agent_events: [{ id: 'AGENT-EmailClientV2.send_email-1', tool: 'EmailClientV2__send_email', args: { to: ['a@b.c'], subject: 'Hi' } }],
        oracle_events: [{ id: 'Event-AGENT-1', tool: 'EmailClientV2__send_email', args: { to: ['a@b.c'], subject: 'Hello' } }],
        match_details: [{ oracle_id: 'Event-AGENT-1', oracle_tool: 'EmailClientV2__send_email', matched: s.status === 'pass', reason: s.status === 'pass' ? '' : 'eq_checker:subject', judge_output: '' }],
        id_mapping: s.status === 'pass' ? { 'AGENT-EmailClientV2.send_email-1': 'Event-AGENT-1' } : {},
      }) + '\n',
    );
    writeFileSync(
      join(dir, 'result.json'),
      JSON.stringify({
        scenario_id: s.id.split('/').pop(),
        success,
        status: s.status,
        split: s.split,
        failure_reasons: s.status === 'fail' ? ['Cannot match EmailClientV2__send_email'] : [],
        error: s.status === 'error' ? 'container exited with code 137' : undefined,
        error_kind: s.status === 'error' ? 'container_exited' : undefined,
        duration_seconds: 12.5,
        judge_mode: 'hard-only',
      }),
    );
  }
  return dir;
}

export function writeRun(runDir: string, scenarios: SyntheticScenario[], config: Record<string, unknown> = {}): void {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, 'run_config.json'), JSON.stringify({ model: 'claude-sonnet-4-5', provider: 'anthropic', num_scenarios: scenarios.length, ...config }));
  for (const s of scenarios) writeScenario(runDir, s);
}
