// Which files of a run go in at create and which through the adapter after start
// (run/scenario-run.ts splitDelivery): the adapter's uploads are plain files, so a carried
// drive's folders and links under /var/gaia2/ are not sent that way, and never at create
// either when the image takes files late (a Kubernetes Pod has no files at create).
import { describe, expect, it } from 'vitest';
import { splitDelivery } from '../../../runner/src/run/scenario-run.js';
import { CONTAINER_PATHS } from '@gaia2/contract';

const drive = '/var/gaia2/state/filesystem';
const extra = [
  { path: drive, content: '', dir: true, mode: 0o755 },
  { path: `${drive}/Documents`, content: '', dir: true, mode: 0o755 },
  { path: `${drive}/Documents/plan.txt`, content: 'step 2', mode: 0o644 },
  { path: `${drive}/link`, content: '', linkname: 'Documents' },
  { path: '/home/agent/notes.txt', content: 'n', mode: 0o644 },
];

describe('splitDelivery', () => {
  it('sends the drive’s plain files late, before the ready marker; its folders and links not at all', () => {
    const d = splitDelivery('{}', extra, true);
    expect(d.late.map((f) => f.path)).toEqual([CONTAINER_PATHS.scenario, `${drive}/Documents/plan.txt`, CONTAINER_PATHS.scenarioReady]);
    expect(d.create.map((f) => f.path)).toEqual(['/home/agent/notes.txt']);
  });

  it('puts everything in at create for an image that takes no late files', () => {
    const d = splitDelivery('{}', extra, false);
    expect(d.late).toEqual([]);
    expect(d.create.map((f) => f.path)).toEqual([CONTAINER_PATHS.scenario, ...extra.map((f) => f.path)]);
  });
});
