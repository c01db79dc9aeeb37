import { describe, expect, it } from 'vitest';
import { formatEventLine } from '../../../agent-image/src/contract/pyjson.js';
import { runCli } from '../../../agent-image/src/apps/index.js';
import { loadTranscript, replayTranscript, setupWorld } from './golden.js';

// Step 9 (`info`) prints real file-system times that the recording replaced by placeholders;
// it is read-only, so the rest replays unchanged without it and it is checked on its own.
const INFO_STEP = 9;

describe('cloud-drive golden transcript', () => {
  const t = loadTranscript('cloud-drive-1.json');

  it('reproduces cloud-drive-1.json step by step (all but the info step)', async () => {
    expect(t.steps[INFO_STEP]!.argv[1]).toBe('info');
    await replayTranscript({ ...t, steps: t.steps.filter((_, i) => i !== INFO_STEP) });
  });

  it('reproduces the info step once the file times are replaced by the placeholders', async () => {
    const step = t.steps[INFO_STEP]!;
    const { stateDir } = await setupWorld(t);
    const r = await runCli(step.argv, { stateDir, simTime: t.clock });
    const mask = (s: string): string =>
      s.replace(/"created": \d+\.\d+(e[+-]\d+)?/, '"created": "<FILE_CTIME>"').replace(/"modified": \d+\.\d+(e[+-]\d+)?/, '"modified": "<FILE_MTIME>"');
    expect(r.exitCode).toBe(0);
    expect(mask(r.stdout)).toBe(step.stdout);
    expect(r.events.map((e) => mask(formatEventLine(e)))).toEqual(step.events);
  });
});
