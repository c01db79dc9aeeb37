import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('city golden transcript', () => {
  it('reproduces city-1.json step by step', async () => {
    await replayTranscript(loadTranscript('city-1.json'));
  });
});
