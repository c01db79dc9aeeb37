// The backend seam (scripts/backend-seam.ts): no code outside runner/src/engine/ asks which
// backend it is. The source passes; a small tree that breaks the seam in each way once is
// caught at each break, and its look-alikes (a dataset target's "local", a comment, code inside
// engine/) are not, so a pass on the source means something.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendKinds, checkBackendSeam, engineClasses } from '../../scripts/backend-seam.js';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = join(import.meta.dirname, '../fixtures/backend-seam');

describe('the backend seam', () => {
  it('the source breaks it nowhere, and the check sees the real backends and engine classes', () => {
    expect(backendKinds(ROOT)).toEqual(['local', 'kubernetes']);
    expect([...engineClasses(ROOT).keys()].sort()).toEqual(['DockerApiEngine', 'KubernetesEngine', 'ManifestWriter', 'RemoteDockerEngine']);
    expect(checkBackendSeam(ROOT)).toEqual([]);
  });

  it('finds each break of the fixture, and nothing else', () => {
    const found = checkBackendSeam(FIXTURE).map((l) => l.replace(/; ask .*$/, '')).sort();
    expect(found).toEqual([
      'backend seam: runner/src/cli/doctor.ts:2: imports runner/src/engine/cloud/index.ts, which holds a concrete engine class',
      "backend seam: runner/src/cli/doctor.ts:4: switches on the backend's kind",
      'backend seam: runner/src/config/summary.ts:5: compares with a backend kind',
      'backend seam: runner/src/gateway/start.ts:2: imports runner/src/engine/cloud/engine.ts, which holds a concrete engine class',
      "backend seam: runner/src/gateway/start.ts:5: compares the backend's kind",
      'backend seam: runner/src/gateway/start.ts:5: compares with a backend kind',
      "backend seam: runner/src/gateway/start.ts:6: tests for a concrete engine class",
    ]);
  });
});
