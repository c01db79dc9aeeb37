import { jsonSchema, tool } from 'ai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeFormat } from '../../helpers/fake-llm/index.js';
import type { ProviderName } from '../../../agent-image/src/llm/index.js';

export const SECRET = 'sk-test-SECRET-abcdef123456';

/** Which wire format each provider speaks (and the base URL suffix it needs, if any). */
export const PROVIDER_FORMATS: Array<{ provider: ProviderName; format: FakeFormat; baseSuffix?: string }> = [
  { provider: 'anthropic', format: 'anthropic' },
  { provider: 'openai', format: 'openai-responses' },
  { provider: 'openai-compat', format: 'openai-chat' },
  { provider: 'google', format: 'gemini' },
  { provider: 'gemini', format: 'openai-chat', baseSuffix: '/openai' },
  { provider: 'openrouter', format: 'openai-chat' },
];

export function tempTraceFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'llm-trace-')), 'trace.jsonl');
}

export function readTrace(file: string): any[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** A tool the scripted model calls in tests: echoes a definition of the word. */
export const lookup = tool({
  description: 'Look a word up',
  inputSchema: jsonSchema<{ word: string }>({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }),
  execute: async ({ word }) => `definition of ${word}`,
});
