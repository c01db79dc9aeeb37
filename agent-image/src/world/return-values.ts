// Return values of completed scenario events, for the placeholders of later actions (ENV
// events, the in-process oracle): ENV events record theirs when they run, oracle events the
// matched agent line's when a judged turn maps them. ENV values also go to the judge, which
// resolves the oracle's placeholders with them.
import type { ReturnLookup } from '../scenario/index.js';
import type { TurnJudge } from './judging.js';

export class ReturnValues {
  private readonly values = new Map<string, unknown>();

  constructor(private readonly judge: TurnJudge | null) {}

  set(id: string, value: unknown): void {
    this.values.set(id, value);
    if (id.startsWith('Event-ENV-')) this.judge?.envReturnValues.set(id, value);
  }

  readonly lookup: ReturnLookup = (id) =>
    this.values.has(id) ? { found: true, value: this.values.get(id) } : { found: false };
}
