// One scenario run directory → its index row and the trace page's data.
import { join } from 'node:path';
import { parseEventsJsonl, isEnvLine, isReplyLine, isUserLine } from '@gaia2/contract';
import type { RoleUsage } from '@gaia2/contract';
import { addCost, addTokens, costUsd, defaultPriceTable, usageRolesOf, ZERO_TOKENS } from '../../tokens/index.js';
import { parseTraceJsonl } from '../../trace/index.js';
import { asArr, asNum, asObj, asStr } from '../../trace/json-util.js';
import { linesOfRole, TRAFFIC_FILE } from '../../trace/traffic-lines.js';
import { readJsonObject, readJsonlObjects, readText, scanArtifacts, type ArtifactStat } from './artifacts.js';
import { callTotals, cap, conversationGroups, type Spend } from './conversation.js';
import type { ScenarioInfoCache } from './oracle.js';
import { infoOf, splitOf, statusOf, stuckLoopOf } from './status.js';
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

const NOTHING: Spend = { tokens: { ...ZERO_TOKENS, llm_calls: 0 }, costUsd: 0 };

/** Roles together; the cost is unknown as soon as one role that used tokens has no price. */
function sumSpends(parts: readonly Spend[]): Spend {
  return parts.reduce<Spend>((s, p) => {
    const used = p.tokens.input_tokens + p.tokens.output_tokens > 0;
    return { tokens: addTokens(s.tokens, p.tokens), costUsd: addCost(s.costUsd, p.costUsd ?? (used ? null : 0)) };
  }, NOTHING);
}

/** One role of result.json's usage; its call count from the trace when the role has none (an agent's own report). */
function roleSpend(u: RoleUsage | null, tracedCalls: number): Spend {
  if (!u) return NOTHING;
  // addTokens keeps the counts alone (not the role's model and source).
  return { tokens: { ...addTokens(ZERO_TOKENS, u), llm_calls: u.llm_calls ?? tracedCalls }, costUsd: costUsd(defaultPriceTable(), u.model, u) };
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
  // The numbers are result.json's usage (usage/run-usage.ts counted them when the run ended);
  // a run still going, or one from before usage was recorded, is counted from its traces.
  const roles = usageRolesOf(result);
  const recorded = roles.agent !== null || roles.app_agents !== null || roles.judge !== null;
  const app = recorded ? roleSpend(roles.app_agents, 0) : appAgentTotals(appAgents);
  // A main agent without LLM calls (scripted, with app agents) costs nothing.
  const agent = recorded ? roleSpend(roles.agent, main.tokens.llm_calls ?? 0) : { tokens: main.tokens, costUsd: trace.calls.length > 0 ? main.costUsd : 0 };
  const judge = roleSpend(roles.judge, 0);
  const agentSide = sumSpends([agent, app]);
  const agentActions = events.filter((e) => !isEnvLine(e) && !isUserLine(e) && !isReplyLine(e) && e.app !== 'AgentUserInterface');

  const stuckLoop = stuckLoopOf(result);
  const row: IndexRow = {
    id,
    href: hrefOf(id, 'trace.html'),
    split: splitOf(id, result, ctx.configSplits),
    status,
    errorKind: asStr(result?.error_kind),
    ...(stuckLoop ? { stuckLoop: true } : {}),
    model: main.model || roles.agent?.model || asStr(result?.model),
    // No usage recorded nor traced (the reference's results, Format C): its own totals.
    llmCalls: agentSide.tokens.llm_calls || asNum(result?.num_llm_calls),
    tokensIn: agentSide.tokens.input_tokens || asNum(result?.total_input_tokens),
    tokensOut: agentSide.tokens.output_tokens || asNum(result?.total_output_tokens),
    ...(appAgents.length || roles.app_agents ? { appAgentLlmCalls: app.tokens.llm_calls ?? 0, appAgentTokensIn: app.tokens.input_tokens, appAgentTokensOut: app.tokens.output_tokens } : {}),
    judgeTokensIn: judge.tokens.input_tokens,
    judgeTokensOut: judge.tokens.output_tokens,
    // Agent, app agents and judge together; unknown as soon as one has a model without a price.
    costUsd: sumSpends([agentSide, judge]).costUsd,
    durationS: typeof result?.duration_seconds === 'number' ? result.duration_seconds : null,
    latencyMs: main.latencyMs || asNum(result?.total_latency_ms),
    toolCalls: agentActions.length,
    turn: daemon ? `${asNum(daemon.turn)}/${asNum(daemon.nb_turns)}` : '',
    info: cap(infoOf(result, status, daemon), 2000),
  };

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
      stuckLoop,
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
