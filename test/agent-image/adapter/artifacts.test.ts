// GET /artifacts' file reader: paths follow the process's configuration; a missing file and
// an unreadable one are told apart (the runner copies unreadable ones by archive).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactPaths, readArtifacts } from '../../../agent-image/src/adapter/index.js';
import { ARTIFACT_FILES } from '../../../agent-image/src/contract/index.js';

describe('artifact files', () => {
  it('maps the state dir, trace and faketime files to the configured paths', () => {
    const paths = new Map(artifactPaths({ GAIA2_STATE_DIR: '/s', GAIA2_TRACE_FILE: '/t/trace.jsonl', GAIA2_FAKETIME_FILE: '/t/ft.rc' }).map(([p, n]) => [n, p]));
    expect(paths.get('events.jsonl')).toBe('/s/events.jsonl');
    expect(paths.get('daemon_judgments.jsonl')).toBe('/s/judgments.jsonl');
    expect(paths.get('trace.jsonl')).toBe('/t/trace.jsonl');
    expect(paths.get('faketime.rc')).toBe('/t/ft.rc');
    expect(paths.get('eventd.log')).toBe('/tmp/gaia2-eventd.log');
    expect([...paths.keys()].sort()).toEqual(ARTIFACT_FILES.map(([, n]) => n).sort());
    // unconfigured: the contract's paths
    expect(new Map(artifactPaths({}).map(([p, n]) => [n, p])).get('events.jsonl')).toBe('/var/gaia2/state/events.jsonl');
  });

  it('reads present files as base64, lists missing and unreadable ones apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gaia2-artifacts-'));
    writeFileSync(join(dir, 'events.jsonl'), 'line\n');
    mkdirSync(join(dir, 'a-directory'));
    const r = readArtifacts([
      [join(dir, 'events.jsonl'), 'events.jsonl'],
      [join(dir, 'nope.json'), 'daemon_status.json'],
      // reading a directory fails with EISDIR: not "missing"
      [join(dir, 'a-directory'), 'trace.jsonl'],
    ]);
    expect(Buffer.from(r.files['events.jsonl']!, 'base64').toString()).toBe('line\n');
    expect(r.missing).toEqual(['daemon_status.json']);
    expect(r.unreadable).toEqual(['trace.jsonl']);
    chmodSync(dir, 0o755);
  });
});
