// One scenario run directory → its index row and the trace page's data.
import { join } from 'node:path';
import { parseEventsJsonl, isEnvLine, isReplyLine, isUserLine } from '../../../../agent-image/src/contract/index.js';
import { parseTraceJsonl } from '../trace/index.js';
import { asArr, asNum, asObj, asStr } from '../trace/json-util.js';
import { readJsonObject, readJsonlObjects, readText, scanArtifacts, type ArtifactStat } from './artifacts.js';
import { callTotals, cap, conversationGroups } from './conversation.js';
import type { ScenarioInfoCache } from './oracle.js';
import { infoOf, splitOf, statusOf } from './status.js';
import { eventItems, mergeTimeline, withFailures } from './timeline.js';
import { noiseView } from './noise.js';
import type { IndexRow, TraceView } from './types.js';
import { verdictsOf } from './verdicts.js';

export interface ScenarioContext {
  runDir: string;
  runName: string;
  configSplits: string[];
  scenarios: ScenarioInfoCache;
}

const RAW_FILES = ['result.json', 'events.jsonl', 'daemon_status.json', 'daemon_judgments.jsonl', 'judgments.jsonl', 'trace.jsonl', 'noise.jsonl', 'eventd.log', 'agent_response.txt', 'entrypoint.log'];

/** The POSIX relative path of a scenario dir, URL-encoded per segment. */
export const hrefOf = (id: string, file: string): string => [...id.split('/').map(encodeURIComponent), file].join('/');

/** `files` is the dir's scan (model/artifacts.ts); absent files are not even opened. */
const tail = (s: string, n: number): string => (s.length <= n ? s : `[… ${s.length - n} earlier characters in eventd.log]\n${s.slice(-n)}`);

export function loadScenario(dir: string, id: string, ctx: ScenarioContext, files: Map<string, ArtifactStat> = scanArtifacts(dir)): TraceView {
  const text = (name: string): string => (files.has(name) ? readText(join(dir, name)) : '');
  const resultExists = files.has('result.json');
  const result = resultExists ? readJsonObject(join(dir, 'result.json')) : null;
  const daemon = files.has('daemon_status.json') ? readJsonObject(join(dir, 'daemon_status.json')) : null;
  const events = parseEventsJsonl(text('events.jsonl'));
  const judgmentsFile = files.has('daemon_judgments.jsonl') ? 'daemon_judgments.jsonl' : 'judgments.jsonl';
  const judgments = files.has(judgmentsFile) ? readJsonlObjects(join(dir, judgmentsFile)) : [];
  const trace = parseTraceJsonl(text('trace.jsonl'));
  const info = ctx.scenarios.get(asStr(result?.scenario_file), dir, ctx.runDir);
  const status = statusOf(result, resultExists);
  const totals = callTotals(trace.calls);
  const usage = asObj(result?.usage);
  const agentActions = events.filter((e) => !isEnvLine(e) && !isUserLine(e) && !isReplyLine(e) && e.app !== 'AgentUserInterface');
  const resultCost = typeof usage.cost_usd === 'number' ? usage.cost_usd : null;

  const row: IndexRow = {
    id,
    href: hrefOf(id, 'trace.html'),
    split: splitOf(id, result, ctx.configSplits),
    status,
    errorKind: asStr(result?.error_kind),
    model: totals.model || asStr(result?.model),
    // No trace (oracle/scripted agents, Format C): fall back to the totals in result.json.
    llmCalls: trace.calls.length ? totals.llmCalls : asNum(usage.llm_calls) || asNum(result?.num_llm_calls),
    tokensIn: trace.calls.length ? totals.tokensIn : asNum(usage.input_tokens) || asNum(result?.total_input_tokens),
    tokensOut: trace.calls.length ? totals.tokensOut : asNum(usage.output_tokens) || asNum(result?.total_output_tokens),
    costUsd: resultCost ?? totals.costUsd,
    durationS: typeof result?.duration_seconds === 'number' ? result.duration_seconds : null,
    latencyMs: totals.latencyMs || asNum(result?.total_latency_ms),
    toolCalls: agentActions.length,
    turn: daemon ? `${asNum(daemon.turn)}/${asNum(daemon.nb_turns)}` : '',
    info: cap(infoOf(result, status, daemon), 2000),
  };

  const firstUser = events.find((e) => isUserLine(e));
  const noise = noiseView(files.has('noise.jsonl') ? readJsonlObjects(join(dir, 'noise.jsonl')) : [], events);
  const timed = withFailures(eventItems(events), noise.failures);
  const items = mergeTimeline(info.task, firstUser?.sim_t ?? '', conversationGroups(trace.calls), timed, verdictsOf(judgments, info.oracle, events));
  return {
    page: 'trace',
    id,
    runName: ctx.runName,
    homeHref: '',
    prevHref: '',
    nextHref: '',
    row,
    result: {
      failureReasons: asArr(result?.failure_reasons).map(asStr),
      error: asStr(result?.error),
      errorKind: asStr(result?.error_kind),
      judgeMode: asStr(result?.judge_mode),
      timedOut: result?.timed_out === true,
      agentResponse: cap(text('agent_response.txt') || asStr(result?.agent_response), 20_000),
      startedAt: asStr(result?.started_at),
      finishedAt: asStr(result?.finished_at),
    },
    daemon: daemon
      ? { status: asStr(daemon.status), turn: asNum(daemon.turn), nbTurns: asNum(daemon.nb_turns), simTime: asStr(daemon.sim_time), reason: asStr(daemon.reason) }
      : null,
    oracle: info.oracle.map((o) => ({ id: o.id, type: o.type, tool: o.tool, args: o.args, deps: o.deps })),
    items,
    badLines: trace.badLines.slice(0, 50),
    daemonLogTail: tail(text('eventd.log'), 30_000),
    rawFiles: RAW_FILES.filter((name) => files.has(name)).map((name) => ({ name, size: files.get(name)!.size })),
    noise: noise.summary,
  };
}
