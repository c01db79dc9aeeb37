import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('chats golden transcript', () => {
  it('reproduces chats-1.json step by step', async () => {
    await replayTranscript(loadTranscript('chats-1.json'), { setSteps: [16] });
  });
});
