// One conversation with the model, across all runs (turns) of a scenario. A run feeds in the
// new input, then alternates model calls and tool executions until the model answers in
// plain text, the step limit is hit, or the provider fails. Messages that arrive mid-run
// (steering) are added between steps, so they never start another run.
import { generateText, stepCountIs, streamText, type LanguageModelUsage, type ModelMessage, type ToolSet } from 'ai';
import type { LlmModel } from '../../llm/index.js';
import type { ProviderError } from '../../llm/index.js';
import { withCacheBreakpoints } from './cache.js';
import { elideOldToolResults } from './context.js';

export type StopReason = 'replied' | 'step_limit' | 'context_length' | 'provider_error' | 'aborted';

export interface RunResult {
  text: string;
  stopReason: StopReason;
  steps: number;
  error?: ProviderError;
}

export interface StepInfo {
  step: number;
  /** All input tokens of the call, cached ones included. */
  inputTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
  toolCalls: string[];
}

export interface SessionOptions {
  llm: LlmModel;
  tools: ToolSet;
  /** Model calls per run before it is stopped. */
  maxSteps: number;
  /** Stream responses (SSE) instead of one JSON body per call. */
  stream: boolean;
}

export interface RunHooks {
  /** Messages that arrived since the last call (steering); they join before the next model call. */
  drainInbox?: () => string[];
  onStep?: (info: StepInfo) => void;
  signal?: AbortSignal;
}

interface StepOutcome {
  text: string;
  finishReason: string;
  toolCalls: string[];
  messages: ModelMessage[];
  usage: LanguageModelUsage;
}

export class AgentSession {
  readonly history: ModelMessage[] = [];

  constructor(private readonly opts: SessionOptions) {}

  /** Plays one run, started by `input`. */
  async run(input: string, system: string, hooks: RunHooks = {}): Promise<RunResult> {
    const { signal, onStep } = hooks;
    const drainInbox = hooks.drainInbox ?? (() => []);
    this.history.push({ role: 'user', content: input });
    let compacted = false;
    let steps = 0;
    while (steps < this.opts.maxSteps) {
      for (const text of drainInbox()) this.history.push({ role: 'user', content: text });
      if (signal?.aborted) return { text: '', stopReason: 'aborted', steps };
      let out: StepOutcome;
      try {
        out = await this.step(system, signal);
      } catch (err) {
        if (signal?.aborted) return { text: '', stopReason: 'aborted', steps };
        const error = this.opts.llm.toError(err);
        if (error.reason === 'context_length' && !compacted && elideOldToolResults(this.history) > 0) {
          compacted = true;
          continue;
        }
        return { text: '', stopReason: error.reason === 'context_length' ? 'context_length' : 'provider_error', steps, error };
      }
      steps += 1;
      this.history.push(...out.messages);
      onStep?.({
        step: steps,
        inputTokens: out.usage.inputTokens ?? 0,
        cacheReadTokens: out.usage.inputTokenDetails?.cacheReadTokens ?? 0,
        outputTokens: out.usage.outputTokens ?? 0,
        toolCalls: out.toolCalls,
      });
      if (out.toolCalls.length > 0) continue;
      // A message that came in while the model was answering still belongs to this run.
      const late = drainInbox();
      if (late.length > 0) {
        for (const text of late) this.history.push({ role: 'user', content: text });
        continue;
      }
      return { text: out.text, stopReason: 'replied', steps };
    }
    return { text: '', stopReason: 'step_limit', steps };
  }

  private async step(system: string, signal?: AbortSignal): Promise<StepOutcome> {
    const { llm, tools } = this.opts;
    const params = {
      model: llm.model,
      ...llm.callOptions,
      ...withCacheBreakpoints(llm.api, system, this.history),
      tools,
      stopWhen: stepCountIs(1),
      abortSignal: signal,
    };
    try {
      if (!this.opts.stream) {
        const r = await generateText(params);
        return {
          text: r.text,
          finishReason: r.finishReason,
          toolCalls: r.toolCalls.map((c) => c.toolName),
          messages: r.response.messages,
          usage: r.usage,
        };
      }
      const r = streamText(params);
      // Errors surface as stream parts; rethrow the first so the caller can type it.
      for await (const part of r.fullStream) {
        if (part.type === 'error') throw part.error;
      }
      const [text, finishReason, toolCalls, response, usage] = await Promise.all([r.text, r.finishReason, r.toolCalls, r.response, r.usage]);
      return {
        text,
        finishReason,
        toolCalls: toolCalls.map((c) => c.toolName),
        messages: response.messages,
        usage,
      };
    } finally {
      await llm.trace.flush();
    }
  }
}
