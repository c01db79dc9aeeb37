import { describe, it } from 'vitest';
import { loadTranscript, replayTranscript } from './golden.js';

// `info` prints real file-system times; the recording replaced them by placeholders (README rule 3).
const maskTimes = (text: string): string =>
  text
    .replace(/"created": \d+\.\d+(e[+-]\d+)?/g, '"created": "<FILE_CTIME>"')
    .replace(/"modified": \d+\.\d+(e[+-]\d+)?/g, '"modified": "<FILE_MTIME>"');

describe('cloud-drive golden transcript', () => {
  it('reproduces cloud-drive-1.json step by step', async () => {
    await replayTranscript(loadTranscript('cloud-drive-1.json'), { normalise: maskTimes });
  });
});
