import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('rent-a-flat golden transcript', () => {
  it('reproduces rent-a-flat-1.json step by step', async () => {
    await replayTranscript(loadTranscript('rent-a-flat-1.json'));
  });
});
