// One scenario run directory → its index row and the trace page's data.
import { join } from 'node:path';
import { parseEventsJsonl, isEnvLine, isReplyLine, isUserLine } from '../../../../agent-image/src/contract/index.js';
import { costUsd, defaultPriceTable } from '../../pricing/index.js';
import { parseTraceJsonl } from '../../trace/index.js';
import { asArr, asNum, asObj, asStr } from '../../trace/json-util.js';
import { linesOfRole, TRAFFIC_FILE } from '../../trace/traffic-lines.js';
import { readJsonObject, readJsonlObjects, readText, scanArtifacts, type ArtifactStat } from './artifacts.js';
import { callTotals, cap, conversationGroups } from './conversation.js';
import type { ScenarioInfoCache } from './oracle.js';
import { infoOf, splitOf, statusOf } from './status.js';
import { eventItems, mergeTimeline, withFailures } from './timeline.js';
import { noiseView } from './noise.js';
import type { IndexRow, TraceView } from './types.js';
import { verdictsOf } from './verdicts.js';
import { appAgentTotals, appAgentViews, nestAppAgents } from './app-agents.js';

export interface ScenarioContext {
  runDir: string;
  runName: string;
  configSplits: string[];
  scenarios: ScenarioInfoCache;
}

const RAW_FILES = ['result.json', 'events.jsonl', 'daemon_status.json', 'daemon_judgments.jsonl', 'judgments.jsonl', 'trace.jsonl', 'judge_trace.jsonl', 'app_agents_trace.jsonl', 'model_traffic.jsonl', 'noise.jsonl', 'eventd.log', 'agent_response.txt', 'entrypoint.log'];

/** One role's part of result.json's usage, priced at the runner's table. */
function roleUsage(u: Record<string, unknown>, fallbackModel: string): { tokensIn: number; tokensOut: number; costUsd: number | null } {
  const t = { input_tokens: asNum(u.input_tokens), output_tokens: asNum(u.output_tokens), cache_read_tokens: asNum(u.cache_read_tokens), cache_write_tokens: asNum(u.cache_write_tokens) };
  return { tokensIn: t.input_tokens, tokensOut: t.output_tokens, costUsd: costUsd(defaultPriceTable(), asStr(u.model) || fallbackModel, t) };
}

function withJudge(agent: number | null, agentTokens: number, judge: ReturnType<typeof roleUsage>): number | null {
  if (judge.tokensIn + judge.tokensOut === 0) return agent;
  const a = agent ?? (agentTokens === 0 ? 0 : null); // an agent without LLM calls costs nothing
  return a === null || judge.costUsd === null ? null : a + judge.costUsd;
}

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
  // The model gateway's record, when the run had one, is the agent's traffic as the provider saw
  // it (whatever the agent logs itself); its lines are trace lines stamped with a role.
  const trace = parseTraceJsonl(files.has(TRAFFIC_FILE) ? linesOfRole(text(TRAFFIC_FILE), 'agent') : text('trace.jsonl'));
  const info = ctx.scenarios.get(asStr(result?.scenario_file), dir, ctx.runDir);
  const status = statusOf(result, resultExists);
  // Agent2Agent: the app agents' calls count on the agent's side, and are also shown apart.
  const appAgents = files.has('app_agents_trace.jsonl') ? appAgentViews(text('app_agents_trace.jsonl'), events) : [];
  const main = callTotals(trace.calls);
  const app = appAgentTotals(appAgents);
  const traced = trace.calls.length > 0 || appAgents.length > 0;
  // A main agent without LLM calls (scripted, with app agents) costs nothing.
  const mainCost = trace.calls.length > 0 ? main.costUsd : 0;
  const totals = {
    model: main.model,
    llmCalls: main.llmCalls + app.llmCalls,
    tokensIn: main.tokensIn + app.tokensIn,
    tokensOut: main.tokensOut + app.tokensOut,
    latencyMs: main.latencyMs,
    costUsd: mainCost === null || app.costUsd === null ? null : mainCost + app.costUsd,
  };
  const usage = asObj(result?.usage);
  // result.json keeps the agent's and the judge's usage apart; older ones hold the agent's only.
  const agentUsage = usage.agent ? asObj(usage.agent) : usage.judge ? {} : usage;
  const judge = roleUsage(asObj(usage.judge), '');
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
    llmCalls: traced ? totals.llmCalls : asNum(agentUsage.llm_calls) || asNum(result?.num_llm_calls),
    tokensIn: traced ? totals.tokensIn : asNum(agentUsage.input_tokens) || asNum(result?.total_input_tokens),
    tokensOut: traced ? totals.tokensOut : asNum(agentUsage.output_tokens) || asNum(result?.total_output_tokens),
    ...(appAgents.length ? { appAgentLlmCalls: app.llmCalls, appAgentTokensIn: app.tokensIn, appAgentTokensOut: app.tokensOut } : {}),
    judgeTokensIn: judge.tokensIn,
    judgeTokensOut: judge.tokensOut,
    // Agent and judge together; unknown as soon as either has a model without a price.
    costUsd: 0,
    durationS: typeof result?.duration_seconds === 'number' ? result.duration_seconds : null,
    latencyMs: totals.latencyMs || asNum(result?.total_latency_ms),
    toolCalls: agentActions.length,
    turn: daemon ? `${asNum(daemon.turn)}/${asNum(daemon.nb_turns)}` : '',
    info: cap(infoOf(result, status, daemon), 2000),
  };
  const agentCost = resultCost ?? (traced ? totals.costUsd : roleUsage(agentUsage, asStr(result?.model)).costUsd);
  row.costUsd = withJudge(agentCost, row.tokensIn + row.tokensOut, judge);

  const firstUser = events.find((e) => isUserLine(e));
  const noise = noiseView(files.has('noise.jsonl') ? readJsonlObjects(join(dir, 'noise.jsonl')) : [], events);
  const timed = withFailures(eventItems(events), noise.failures);
  const items = mergeTimeline(info.task, firstUser?.sim_t ?? '', conversationGroups(trace.calls), timed, verdictsOf(judgments, info.oracle, events));
  nestAppAgents(items, appAgents);
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
