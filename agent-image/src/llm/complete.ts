// One-shot text completion for the judge's soft checks: deterministic settings, no tools.
import { generateText } from 'ai';
import type { LlmModel } from './providers.js';

export async function completeText(llm: LlmModel, system: string, user: string): Promise<string> {
  try {
    const result = await generateText({
      model: llm.model,
      ...llm.callOptions,
      // Anthropic refuses temperature together with extended thinking.
      ...(llm.callOptions.providerOptions?.anthropic?.thinking ? {} : { temperature: 0 }),
      system,
      prompt: user,
    });
    await llm.trace.flush();
    return result.text;
  } catch (err) {
    await llm.trace.flush();
    throw llm.toError(err);
  }
}
