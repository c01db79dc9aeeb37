// The report header's facts come from the typed run record (record/): the same values whether
// the file was written now or by an earlier layout, and never from the flat copy of a current file.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunRecord } from '../../../runner/src/record/index.js';
import { metaLines, readReportMeta } from '../../../runner/src/report/meta.js';
import { currentRecord, layoutOneFile, referenceFile } from '../record/layouts.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'report-meta-'));

describe('readReportMeta', () => {
  it("takes the header from the record's sections", async () => {
    const dir = tmp();
    await writeRunRecord(dir, currentRecord());
    // an edited flat copy changes nothing: it is derived, not read
    const file = join(dir, 'run_config.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), model: 'flat-model', judge_model: 'flat-judge' }));
    expect(readReportMeta(dir)).toMatchObject({
      agent: 'claude-code', model: 'claude-sonnet-4', provider: 'anthropic',
      judge: 'gpt-4.1 (openai), prompts omnilingual-gaia2, extra body {"reasoning_effort":"low"}',
      dataset: 'meta-agents-research-environments/gaia2-cli', language: 'spa_Latn', revision: 'f00dfeed', pass_at: 3,
      started_at: '2026-05-10T12:00:43.123Z', image: 'localhost/gaia2-claude-code:latest (sha256:0123456789ab…)', runner_version: '0.1.0',
      errors_as_failures: true, agent_identity: { name: 'claude-code', version: '2.1.3', source: 'recorded' }, setting: 'standard',
    });
  });

  it('an earlier layout gives the same header', async () => {
    const now = tmp();
    await writeRunRecord(now, currentRecord());
    const old = tmp();
    writeFileSync(join(old, 'run_config.json'), JSON.stringify(layoutOneFile()));
    expect(readReportMeta(old)).toEqual(readReportMeta(now));
  });

  it("a reference runner's record, at a pass@N root's run_1", () => {
    const root = tmp();
    mkdirSync(join(root, 'run_1'));
    writeFileSync(join(root, 'run_1', 'run_config.json'), JSON.stringify(referenceFile()));
    const m = readReportMeta(root);
    expect(m).toMatchObject({ model: 'gpt-5', provider: 'openai', judge: 'gpt-4.1 (openai)', dataset: '/data/gaia2-cli/search', pass_at: 1, agent_identity: { name: 'openclaw', source: 'image' } });
    expect(metaLines(m)).toContain('Model: gpt-5 (openai)');
  });

  it('no record, no header facts', () => {
    expect(readReportMeta(tmp())).toBeNull();
  });
});
