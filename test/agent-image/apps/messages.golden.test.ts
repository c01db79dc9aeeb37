import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('messages golden transcript', () => {
  it('reproduces messages-1.json step by step', async () => {
    await replayTranscript(loadTranscript('messages-1.json'), { setSteps: [19] });
  });
});
