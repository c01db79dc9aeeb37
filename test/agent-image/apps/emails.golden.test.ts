import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('emails golden transcript', () => {
  it('reproduces emails-1.json step by step', async () => {
    await replayTranscript(loadTranscript('emails-1.json'));
  });
});
