import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('contacts golden transcript', () => {
  it('reproduces contacts-1.json step by step', async () => {
    await replayTranscript(loadTranscript('contacts-1.json'));
  });
});
