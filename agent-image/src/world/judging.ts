// What the daemon needs from the judge (agent-image/src/judge/), per turn. The daemon keeps
// its log as the judge's CompletedEvents so slicing, judging and id remapping refer to the
// same ids.
import { SEND_MESSAGE_TO_USER } from '../contract/events.js';
import type { CompletedEvent, TurnVerdict } from '../judge/index.js';
import type { JudgeMode } from '../contract/status.js';

export interface TurnJudge {
  readonly mode: JudgeMode;
  readonly envReturnValues: Map<string, unknown>;
  judgeTurn(turn: number, slice: readonly CompletedEvent[]): Promise<TurnVerdict>;
}

export const isReplyEvent = (e: CompletedEvent): boolean => e.type === 'AGENT' && e.fn === SEND_MESSAGE_TO_USER;
