// The viewer's run page takes its header (model, provider, agent, image, language, judge
// prompts, expected count, splits) from the typed run record, whatever layout wrote the file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunRecord } from '../../../../runner/src/record/index.js';
import { buildRun } from '../../../../runner/src/viewer/build/run.js';
import { NO_RUN_FACTS, readRunFacts } from '../../../../runner/src/viewer/build/run-facts.js';
import { currentRecord, layoutOneFile, referenceFile } from '../../record/layouts.js';
import { writeRun } from '../synthetic.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'viewer-facts-'));
const FACTS = {
  model: 'claude-sonnet-4', provider: 'anthropic', agent: 'claude-code 2.1.3', image: 'localhost/gaia2-claude-code:latest', language: 'spa_Latn',
  judgePrompts: 'omnilingual-gaia2', startedAt: '2026-05-10T12:00:43.123Z', expected: 160, splits: ['search'],
};

describe('the run page header', () => {
  it('reads the record the runner wrote', async () => {
    const dir = tmp();
    await writeRunRecord(dir, currentRecord());
    expect(readRunFacts(dir)).toEqual(FACTS);
  });

  it('reads an earlier layout the same, and a reference record as far as it goes', () => {
    const old = tmp();
    writeFileSync(join(old, 'run_config.json'), JSON.stringify(layoutOneFile()));
    expect(readRunFacts(old)).toEqual(FACTS);
    const ref = tmp();
    writeFileSync(join(ref, 'run_config.json'), JSON.stringify(referenceFile()));
    expect(readRunFacts(ref)).toEqual({ model: 'gpt-5', provider: 'openai', agent: 'openclaw', image: 'ghcr.io/meta/gaia2-oc:latest', language: '', judgePrompts: '', startedAt: '2026-05-10T12:00:43.123456+00:00', expected: 160, splits: ['search'] });
    expect(readRunFacts(tmp())).toEqual(NO_RUN_FACTS);
  });

  it("index.html's subtitle is built from them", async () => {
    const dir = tmp();
    writeRun(dir, [{ id: 'search/s1', status: 'pass' }]);
    await writeRunRecord(dir, currentRecord());
    const r = buildRun(dir, { incremental: false, threads: 1 });
    expect(r.expected).toBe(160);
    expect(r.facts).toEqual(FACTS);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    for (const part of ['claude-sonnet-4', 'anthropic', 'claude-code 2.1.3', 'gaia2-claude-code:latest', 'language spa_Latn', 'judge prompts omnilingual-gaia2']) expect(index).toContain(part);
  });
});
