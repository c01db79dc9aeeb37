// The judge: the reference's per-turn, per-event matching (docs/judge.md), turn slicing of
// an event log, and an offline replay of the daemon's judging.
//
//   new Judge(scenario: LoadedScenario, opts?: JudgeOptions)
//     .judgeTurn(turn, slice: CompletedEvent[]): Promise<TurnVerdict>   // verdict + id mapping + record
//     .envReturnValues: Map<envEventId, ret>                            // fill after each ENV action
//     .mode: 'llm' | 'hard-only'
//   sliceTurns(events) / turnSlice(events, k)       // the reference daemon's turn split
//   completedEventFromLine(line, seq)                // events.jsonl line → CompletedEvent
//   judgeEventLog(scenario, lines, opts?)            // whole log → EventLogVerdict
//   createJudgeLlm(cfg): JudgeLlm                    // soft-check engine over agent-image/src/llm
//   createJudgeBackend(cfg): JudgeLlm                // the same, or the TypeSafe Jev service (provider "typesafe")
//   JudgeError {kind: 'judge_error'|'provider_error'} // thrown by judgeTurn on infra failures
export { Judge, REPLY_TOOL, type JudgeOptions, type TurnVerdict } from './judge.js';
export { judgeEventLog, type EventLogVerdict } from './eventlog.js';
export {
  completedEventFromLine,
  sliceTurns,
  turnSlice,
  eventTypeOf,
  simTimeSeconds,
  agentEventId,
  type CompletedEvent,
} from './events.js';
export { createJudgeLlm, JudgeError, type JudgeLlm, type JudgeLlmConfig, type JudgeErrorKind } from './llm.js';
export { createJudgeBackend, isTypesafeProvider, type JudgeBackendConfig } from './backend.js';
export { TYPESAFE_PROVIDER, TYPESAFE_KEY_ENV, TYPESAFE_DEFAULT_BASE_URL, TYPESAFE_OPTION_KEYS, parseTypesafeOptions, TypesafeConfigError } from './typesafe.js';
export { PROMPT_VERSIONS, parsePromptVersion, promptSet, UnknownPromptVersionError, type PromptVersion, type PromptSet } from './prompt-sets.js';
export type { JudgmentRecord, MatchDetail, JudgedEventSummary } from './record.js';
export { pyStr, pyRepr } from './pystr.js';
export { normpath, normalizeStr, normalizeArg } from './normalize.js';
