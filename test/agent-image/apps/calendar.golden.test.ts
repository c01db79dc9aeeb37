import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

describe('calendar golden transcript', () => {
  it('reproduces calendar-1.json step by step', async () => {
    await replayTranscript(loadTranscript('calendar-1.json'), { setSteps: [10] });
  });
});
