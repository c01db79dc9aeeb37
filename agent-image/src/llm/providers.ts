// createModel: one LlmConfig → an AI SDK model wired to the tracing, retrying fetch.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { LlmConfigError, type LlmConfig, type ProviderName } from './config.js';
import { toProviderError, type ProviderError } from './errors.js';
import { makeRedactor, type Redactor } from './redact.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { thinkingOptions, type ApiFamily } from './thinking.js';
import { TraceWriter, type AppAgentTag } from './trace.js';
import { createTracingFetch } from './tracing-fetch.js';
import { withExtraBody, type ExtraBody } from './extra-body.js';

export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';

export interface CreateModelOptions extends LlmConfig {
  retry?: Partial<RetryPolicy>;
  /** Underlying fetch; the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Stamped on every trace line (an app agent's calls). */
  traceTag?: AppAgentTag;
  /** Fields merged into every request body (the judge's extra_body; extra-body.ts). */
  extraBody?: ExtraBody;
}

export interface CallOptions {
  maxOutputTokens?: number;
  providerOptions?: Record<string, Record<string, any>>;
  /** Retries happen in the tracing fetch, where each attempt is recorded. */
  maxRetries: 0;
}

export interface LlmModel {
  model: LanguageModel;
  /** Spread into generateText/streamText. */
  callOptions: CallOptions;
  provider: ProviderName;
  modelId: string;
  api: ApiFamily;
  trace: TraceWriter;
  redact: Redactor;
  /** Any error thrown by an AI SDK call with this model, as a safe, typed ProviderError. */
  toError(err: unknown): ProviderError;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Anthropic's SDK wants the /v1 prefix in its base URL; the reference passes the bare origin. */
function anthropicBase(url: string): string {
  const u = trimSlash(url);
  return /\/v1$/.test(u) ? u : `${u}/v1`;
}

function requireKey(cfg: LlmConfig): string {
  if (!cfg.apiKey) throw new LlmConfigError(`no API key for provider "${cfg.provider}" (set API_KEY)`);
  return cfg.apiKey;
}

function build(cfg: CreateModelOptions, fetch: typeof globalThis.fetch): { model: LanguageModel; api: ApiFamily } {
  const { model, baseUrl } = cfg;
  switch (cfg.provider) {
    case 'anthropic':
      return {
        api: 'anthropic',
        model: createAnthropic({ apiKey: requireKey(cfg), baseURL: baseUrl ? anthropicBase(baseUrl) : undefined, fetch })(model),
      };
    case 'openai':
      return {
        api: 'openai-responses',
        model: createOpenAI({ apiKey: requireKey(cfg), baseURL: baseUrl ? trimSlash(baseUrl) : undefined, fetch }).responses(model),
      };
    case 'google':
    case 'gemini':
      // Google's OpenAI-compatible endpoint (…/v1beta/openai), as the reference configures Gemini.
      if (baseUrl && /\/openai\/?$/.test(baseUrl)) {
        const p = createOpenAICompatible({ name: 'compat', apiKey: requireKey(cfg), baseURL: trimSlash(baseUrl), fetch, includeUsage: true });
        return { api: 'compat', model: p.chatModel(model) };
      }
      return {
        api: 'google',
        model: createGoogleGenerativeAI({ apiKey: requireKey(cfg), baseURL: baseUrl ? trimSlash(baseUrl) : undefined, fetch })(model),
      };
    case 'openai-compat':
    case 'openai-completions': {
      if (!baseUrl) throw new LlmConfigError(`provider "${cfg.provider}" needs BASE_URL (the chat-completions endpoint's base, e.g. http://host:8000/v1)`);
      // Local servers (vLLM, Ollama) often take no key.
      const p = createOpenAICompatible({ name: 'compat', apiKey: cfg.apiKey, baseURL: trimSlash(baseUrl), fetch, includeUsage: true });
      return { api: 'compat', model: p.chatModel(model) };
    }
    case 'openrouter': {
      const p = createOpenAICompatible({
        name: 'openrouter',
        apiKey: requireKey(cfg),
        baseURL: trimSlash(baseUrl ?? OPENROUTER_BASE_URL),
        fetch,
        includeUsage: true,
      });
      return { api: 'openrouter', model: p.chatModel(model) };
    }
  }
}

export function createModel(cfg: CreateModelOptions): LlmModel {
  if (!cfg.model) throw new LlmConfigError('model is required');
  const redact = makeRedactor([cfg.apiKey]);
  const trace = new TraceWriter(cfg.traceFile, redact, cfg.traceTag);
  const tracing = createTracingFetch({
    provider: cfg.provider,
    trace,
    redact,
    retry: { ...DEFAULT_RETRY, ...cfg.retry },
    fetch: cfg.fetch,
  });
  const fetch = cfg.extraBody ? withExtraBody(tracing, cfg.extraBody) : tracing;
  const { model, api } = build(cfg, fetch);
  const providerOptions = thinkingOptions(api, cfg.thinking, cfg.model);
  return {
    model,
    callOptions: {
      maxRetries: 0,
      ...(cfg.maxTokens ? { maxOutputTokens: cfg.maxTokens } : {}),
      ...(Object.keys(providerOptions).length > 0 ? { providerOptions } : {}),
    },
    provider: cfg.provider,
    modelId: cfg.model,
    api,
    trace,
    redact,
    toError: (err) => toProviderError(err, cfg.provider, redact),
  };
}
