// The turn judge: the reference's per-event matching (docs/judge.md, "Per turn"), usable turn by turn.
// State (matches, cumulative write list, ENV times) persists across turns as in the reference.
import type { LoadedScenario, ScenarioEventModel, UserDetails } from '../scenario/index.js';
import { resolvePlaceholder, type ReturnLookup } from '../scenario/index.js';
import { hardCompare } from './checkers.js';
import type { CompletedEvent } from './events.js';
import type { JudgeLlm } from './llm.js';
import { promptSet, type PromptSet, type PromptVersion } from './prompt-sets.js';
import { pyFormat0f, pyStrip, pyStrRepr, pyTruthy } from './pystr.js';
import { summarizeEvent, type JudgmentRecord, type MatchDetail } from './record.js';
import { argCheckersFor, softCheckersFor, type SoftCheckerName } from './registry.js';
import { softCompare } from './soft.js';

export const REPLY_TOOL = 'AgentUserInterface__send_message_to_user';
const NO_TOOL = 'NoApp__NoFunction';

export interface JudgeOptions {
  /** Soft-check engine; null/absent → hard checks only (judge_mode "hard-only"). */
  llm?: JudgeLlm | null;
  /**
   * The user's own contact; defaults to the scenario's (the daemon passes the runtime one, as
   * a function: it is looked up when first needed, its state may not be parsed yet).
   */
  userDetails?: UserDetails | null | (() => UserDetails | null);
  /** Which prompt set the soft checks use (prompt-sets.ts); default "default". */
  promptVersion?: PromptVersion;
  extraSmuAllowed?: number;
  checkTimeThresholdSeconds?: number;
  preEventToleranceSeconds?: number;
  postEventToleranceSeconds?: number;
  timeCheckWarnOnly?: boolean;
}

export interface TurnVerdict {
  turn: number;
  success: boolean;
  /** "" on success. */
  failure_reason: string;
  /** Cumulative agent id → oracle id (partial on failure, empty on count failure/auto-pass). */
  agent_event_id_to_oracle_event_id: Record<string, string>;
  /** The judgments.jsonl line; null for auto-passed turns (the reference writes none). */
  record: JudgmentRecord | null;
}

interface JudgedEvent {
  event: CompletedEvent;
  tool: string;
}

const oracleTool = (o: ScenarioEventModel): string => o.action?.toolName ?? NO_TOOL;

function countTools(tools: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tools) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

const dictRepr = (m: Map<string, number>): string =>
  `{${[...m].map(([k, v]) => `${pyStrRepr(k)}: ${v}`).join(', ')}}`;

export class Judge {
  readonly mode: 'llm' | 'hard-only';
  /** ENV return values by event id, filled by the caller after each ENV action ({{Event-ENV-…}}). */
  readonly envReturnValues = new Map<string, unknown>();

  private readonly llm: JudgeLlm | null;
  private readonly prompts: PromptSet;
  private readonly userDetailsOf: () => UserDetails | null;
  private get userDetails(): UserDetails | null {
    return this.userDetailsOf();
  }
  private readonly extraSmu: number;
  private readonly threshold: number;
  private readonly pre: number;
  private readonly post: number;
  private readonly warnOnly: boolean;
  private readonly all: JudgedEvent[] = [];
  private readonly agentIdxToOracle = new Map<number, string>();
  private readonly oracleToAgentIdx = new Map<string, number>();
  private readonly agentIdToOracle = new Map<string, string>();
  private readonly envTimes = new Map<string, number>();
  private readonly resolvedArgs = new Map<string, Record<string, unknown>>();
  private readonly lastResponses = new Map<SoftCheckerName, string>();

  constructor(
    readonly scenario: LoadedScenario,
    opts: JudgeOptions = {},
  ) {
    this.llm = opts.llm ?? null;
    this.prompts = promptSet(opts.promptVersion);
    this.mode = this.llm ? 'llm' : 'hard-only';
    const u = opts.userDetails;
    this.userDetailsOf = u === undefined ? () => scenario.userDetails : typeof u === 'function' ? u : () => u;
    this.extraSmu = opts.extraSmuAllowed ?? 1;
    this.threshold = opts.checkTimeThresholdSeconds ?? 1;
    this.pre = opts.preEventToleranceSeconds ?? 10;
    this.post = opts.postEventToleranceSeconds ?? 25;
    this.warnOnly = opts.timeCheckWarnOnly ?? false;
  }

  /** Judges turn `turn` from its slice (sliceTurns) of completed events, ENV events included. */
  async judgeTurn(turn: number, slice: readonly CompletedEvent[]): Promise<TurnVerdict> {
    for (const e of slice) if (e.type === 'ENV' && e.id) this.envTimes.set(e.id, e.time);
    const writes = slice.filter((e) => e.write && e.type !== 'ENV' && e.type !== 'USER');
    const oracle = this.scenario.oracleByTurn[turn];
    if (!oracle || oracle.length === 0) {
      return { turn, success: true, failure_reason: '', agent_event_id_to_oracle_event_id: {}, record: null };
    }
    const graph = this.scenario.oracleGraphByTurn[turn] ?? {};
    const judged = writes.map((event) => ({ event, tool: this.agentTool(event) }));
    const base = this.all.length;
    this.all.push(...judged);

    const summaries = () => ({
      agent_events: judged.map((j) => summarizeEvent(j.event.id, j.tool, j.event.args)),
      oracle_events: oracle.map((o) => summarizeEvent(o.id, oracleTool(o), this.oracleArgs(o))),
    });

    const countFailure = this.countCheck(judged.map((j) => j.tool), oracle.map(oracleTool));
    if (countFailure) {
      const record: JudgmentRecord = {
        turn,
        success: false,
        failure_reason: countFailure,
        ...summaries(),
        match_details: null,
        id_mapping: null,
      };
      return { turn, success: false, failure_reason: countFailure, agent_event_id_to_oracle_event_id: {}, record };
    }

    const details: MatchDetail[] = [];
    let firstFailure: string | null = null;
    for (const o of oracle) {
      this.resolvePlaceholders(o);
      const m = await this.matchOracle(o, graph, judged, base, turn);
      details.push({ oracle_id: o.id, oracle_tool: oracleTool(o), matched: m.matched, reason: m.reason, judge_output: m.judgeOutput });
      if (!m.matched && firstFailure === null) firstFailure = m.reason;
    }
    const mapping = Object.fromEntries(this.agentIdToOracle);
    const success = firstFailure === null;
    const record: JudgmentRecord = {
      turn,
      success,
      failure_reason: firstFailure,
      ...summaries(),
      match_details: details,
      id_mapping: Object.keys(mapping).length ? mapping : null,
    };
    return { turn, success, failure_reason: firstFailure ?? '', agent_event_id_to_oracle_event_id: mapping, record };
  }

  private agentTool(e: CompletedEvent): string {
    const cls = this.scenario.appNameToClass[e.app];
    return `${cls && cls !== e.app ? cls : e.app}__${e.fn}`;
  }

  private oracleArgs(o: ScenarioEventModel): Record<string, unknown> {
    return this.resolvedArgs.get(o.id) ?? o.action?.args ?? {};
  }

  private countCheck(agentTools: string[], oracleTools: string[]): string | null {
    const agent = countTools(agentTools);
    const oracle = countTools(oracleTools);
    const a = agent.get(REPLY_TOOL) ?? 0;
    const o = oracle.get(REPLY_TOOL) ?? 0;
    if (!(o <= a && a <= o + this.extraSmu)) {
      return `SMU count mismatch: agent=${a}, oracle=${o}, allowed_extra=${this.extraSmu}`;
    }
    agent.delete(REPLY_TOOL);
    oracle.delete(REPLY_TOOL);
    const same = agent.size === oracle.size && [...agent].every(([k, v]) => oracle.get(k) === v);
    return same ? null : `Tool count mismatch: agent=${dictRepr(agent)}, oracle=${dictRepr(oracle)}`;
  }

  private resolvePlaceholders(o: ScenarioEventModel): void {
    const args = o.action?.args;
    if (!args || Object.keys(args).length === 0) return;
    const lookup: ReturnLookup = (id) => {
      const idx = this.oracleToAgentIdx.get(id);
      if (idx !== undefined) return { found: true, value: this.all[idx]!.event.ret };
      if (this.envReturnValues.has(id)) return { found: true, value: this.envReturnValues.get(id) };
      return { found: false };
    };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      out[k] = typeof v === 'string' && v.includes('{{') ? resolvePlaceholder(v, lookup).value : v;
    }
    this.resolvedArgs.set(o.id, out);
  }

  private async matchOracle(
    o: ScenarioEventModel,
    graph: Record<string, string[]>,
    judged: JudgedEvent[],
    base: number,
    turn: number,
  ): Promise<{ matched: boolean; reason: string; judgeOutput: string }> {
    const tool = oracleTool(o);
    const parents = graph[o.id] ?? [];
    const failures: string[] = [];
    let lastJudgeOutput = '';
    for (let i = 0; i < judged.length; i++) {
      const g = base + i;
      if (this.agentIdxToOracle.has(g)) continue;
      const { event, tool: agentTool } = judged[i]!;
      const cmp = await this.mildCompare(agentTool, event.args, o, turn);
      if (cmp.judgeOutput) lastJudgeOutput = cmp.judgeOutput;
      if (cmp.ok === null) {
        failures.push(`${event.id}: inconclusive (${cmp.rationale})`);
        continue;
      }
      if (!cmp.ok) {
        if (agentTool === tool) failures.push(`${event.id}: ${cmp.rationale}`);
        continue;
      }
      const badParent = parents.find((p) => {
        const pg = this.oracleToAgentIdx.get(p);
        return pg === undefined || pg >= g;
      });
      if (badParent !== undefined) {
        failures.push(`${event.id}: causality violation (parent ${badParent} not matched before idx ${g})`);
        continue;
      }
      const timing = this.timeCheck(event, o, parents);
      if (timing) {
        failures.push(`${event.id}: ${timing}`);
        continue;
      }
      this.agentIdxToOracle.set(g, o.id);
      this.oracleToAgentIdx.set(o.id, g);
      this.agentIdToOracle.set(event.id, o.id);
      return { matched: true, reason: '', judgeOutput: lastJudgeOutput };
    }
    const detail = failures.length ? failures.join('; ') : 'no candidates';
    return { matched: false, reason: `Cannot match ${tool} (${o.id}): ${detail}`, judgeOutput: lastJudgeOutput };
  }

  /** Tool name, hard checks, then soft checks on the llm_checker args the oracle fills. */
  private async mildCompare(agentTool: string, agentArgs: Record<string, unknown>, o: ScenarioEventModel, turn: number) {
    const tool = oracleTool(o);
    if (agentTool !== tool) {
      return { ok: false as boolean | null, rationale: `tool name mismatch: agent=${agentTool}, oracle=${tool}`, judgeOutput: '' };
    }
    const oracleArgs = this.oracleArgs(o);
    const hard = hardCompare(tool, agentArgs, oracleArgs, this.tolerance());
    if (!hard.ok) return { ok: false as boolean | null, rationale: hard.rationale, judgeOutput: '' };
    const soft = softCheckersFor(tool);
    if (soft.length === 0) return { ok: true as boolean | null, rationale: '', judgeOutput: '' };
    const selected = Object.entries(argCheckersFor(tool))
      .filter(([arg, c]) => c === 'llm_checker' && pyTruthy(oracleArgs[arg]))
      .map(([arg]) => arg);
    if (selected.length === 0) return { ok: true as boolean | null, rationale: '', judgeOutput: '' };
    const pick = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([k]) => selected.includes(k)));
    return softCompare(pick(agentArgs), pick(oracleArgs), soft, {
      llm: this.llm,
      tool,
      tasks: this.scenario.tasksByTurn.slice(0, turn + 1),
      userDetails: this.userDetails,
      oracleEventTime: o.eventTime,
      startTime: this.scenario.startTime,
      lastResponses: this.lastResponses,
      prompts: this.prompts,
    });
  }

  private tolerance(): string[] {
    if (!this.userDetails) return [];
    const name = pyStrip(`${this.userDetails.first_name} ${this.userDetails.last_name}`);
    return name ? [name] : [];
  }

  /** null when the time window holds or does not apply; otherwise the failure text. */
  private timeCheck(a: CompletedEvent, o: ScenarioEventModel, parents: string[]): string | null {
    const rt = o.relativeTime;
    if (rt === null) return null;
    let ref = this.scenario.startTime;
    let hasParent = false;
    for (const p of parents) {
      const idx = this.oracleToAgentIdx.get(p);
      if (idx !== undefined) {
        hasParent = true;
        ref = Math.max(ref, this.all[idx]!.event.time);
      }
    }
    for (const dep of o.dependencies) {
      const t = this.envTimes.get(dep);
      if (t !== undefined) {
        hasParent = true;
        ref = Math.max(ref, t);
      }
    }
    if (!hasParent && o.dependencies.length > 0) hasParent = true; // USER / cross-turn parents → start time
    if (!hasParent || rt <= this.threshold) return null;
    const d = a.time - ref;
    if (d >= rt - this.pre && d <= rt + this.post) return null;
    if (this.warnOnly) return null;
    return `time check failed (agent_relative=${pyFormat0f(d)}s, oracle_relative=${pyFormat0f(rt)}s)`;
  }
}
