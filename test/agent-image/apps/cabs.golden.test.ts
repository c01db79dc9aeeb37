import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('cabs golden transcript', () => {
  it('reproduces cabs-1.json step by step', async () => {
    await replayTranscript(loadTranscript('cabs-1.json'));
  });
});
