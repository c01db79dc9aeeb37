import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('shopping golden transcript', () => {
  it('reproduces shopping-1.json step by step', async () => {
    await replayTranscript(loadTranscript('shopping-1.json'));
  });
});
