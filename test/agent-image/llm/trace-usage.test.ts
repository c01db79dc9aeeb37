import { describe, expect, it } from 'vitest';
import { usageOf } from '../../../agent-image/src/llm/trace-usage.js';

describe('usageOf (token use of one raw response body)', () => {
  it('Anthropic JSON: cache reads and writes count as input and are reported apart', () => {
    const body = JSON.stringify({ content: [], stop_reason: 'end_turn', usage: { input_tokens: 20, cache_read_input_tokens: 900, cache_creation_input_tokens: 80, output_tokens: 4 } });
    expect(usageOf(body)).toEqual({ input_tokens: 1000, output_tokens: 4, cache_read_tokens: 900, cache_write_tokens: 80 });
  });

  it('Anthropic SSE: input from message_start, output from the last message_delta', () => {
    const sse = [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: 12, output_tokens: 1 } } })}`,
      `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: {}, usage: { output_tokens: 33 } })}`,
    ].join('\n\n');
    expect(usageOf(sse)).toEqual({ input_tokens: 12, output_tokens: 33, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it('OpenAI chat SSE (usage chunk last), Responses SSE (completed event), Gemini JSON', () => {
    const chat = `data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":40}}}\n\ndata: [DONE]\n\n`;
    expect(usageOf(chat)).toEqual({ input_tokens: 50, output_tokens: 5, cache_read_tokens: 40, cache_write_tokens: 0 });
    const responses = `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { usage: { input_tokens: 7, output_tokens: 3 } } })}\n\n`;
    expect(usageOf(responses)).toEqual({ input_tokens: 7, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0 });
    const gemini = JSON.stringify({ candidates: [], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, thoughtsTokenCount: 5 } });
    expect(usageOf(gemini)).toEqual({ input_tokens: 9, output_tokens: 7, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it('Llama API JSON: the metrics list is its usage', () => {
    const llama = JSON.stringify({ completion_message: { content: { type: 'text', text: 'ok' } }, metrics: [{ metric: 'num_completion_tokens', value: 12, unit: 'tokens' }, { metric: 'num_prompt_tokens', value: 480, unit: 'tokens' }, { metric: 'num_total_tokens', value: 492, unit: 'tokens' }] });
    expect(usageOf(llama)).toEqual({ input_tokens: 480, output_tokens: 12, cache_read_tokens: 0, cache_write_tokens: 0 });
  });

  it('bodies without usage give null', () => {
    expect(usageOf('{"error":{"message":"nope"}}')).toBeNull();
    expect(usageOf('not json')).toBeNull();
    expect(usageOf('')).toBeNull();
  });
});
