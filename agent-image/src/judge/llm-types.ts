// What llm.ts (the judge's side) and llm-provider.ts (the lazily loaded provider bundle) both
// speak: the judge model's settings and a completion as plain data.
import type { CreateModelOptions, Thinking } from '../llm/index.js';

export type JudgeLlmConfig = Omit<CreateModelOptions, 'thinking'> & { thinking?: Thinking };

export type JudgeErrorKind = 'judge_error' | 'provider_error';

export type ProviderCompletion =
  | { ok: true; text: string | null }
  | { ok: false; kind: JudgeErrorKind; message: string; reason?: string };

export interface ProviderJudgeLlm {
  complete(system: string, user: string): Promise<ProviderCompletion>;
}
