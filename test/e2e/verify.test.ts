// `verify` on a real run: two oracle runs on the e2e engine, then `gaia2-runner verify` from the
// CLI passes on the untouched directory and names the one run whose events.jsonl was edited.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { runCli as cli } from './helpers/cli.js';
import { eachEngine } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const SAMPLES = ['execution/exec_shopping_bottle_order.json', 'search/search_cab_cheapest_airport.json'];

describe.each(eachEngine())('verify on %s (real containers)', (_kind, e) => {
  it('passes on an untouched oracle run and names the run whose artifact was edited', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gaia2-verify-e2e-'));
    const data = join(base, 'data');
    for (const s of SAMPLES) {
      mkdirSync(join(data, s.split('/')[0]!), { recursive: true });
      copyFileSync(join(root, 'examples/scenarios', s), join(data, s));
    }
    const out = join(base, 'out');
    const run = await cli(e, ['run-dataset', '--image', image, '--agent', 'oracle', '--timeout', '120', '-d', data, '--output-dir', out, '-j', '2']);
    expect(run.code, run.out + run.err).toBe(0);
    expect(existsSync(join(out, 'digests.json'))).toBe(true);
    // the seal pins the image the engine ran and the dataset the record names
    const sealed = JSON.parse(readFileSync(join(out, 'digests.json'), 'utf8'));
    const record = JSON.parse(readFileSync(join(out, 'run_config.json'), 'utf8'));
    expect(sealed.image_id).toMatch(/[0-9a-f]{12}/);
    expect(sealed.image_id).toBe(record.image_id);
    expect(sealed.dataset_sha256).toBe(record.dataset_sha256);
    expect(Object.keys(sealed.runs).sort()).toEqual(['execution/exec_shopping_bottle_order', 'search/search_cab_cheapest_airport']);
    expect(sealed.runs['search/search_cab_cheapest_airport']).toMatchObject({ verdict: 'pass', files: { 'events.jsonl': expect.stringMatching(/^[0-9a-f]{64}$/) } });

    const ok = await cli(e, ['verify', out]);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toMatch(/verified: 2 run\(s\), every digest matches, 2 verdict\(s\) re-judged offline and unchanged/);

    // One agent action dropped from the record would be a different run: append a stray line.
    appendFileSync(join(out, 'search', 'search_cab_cheapest_airport', 'events.jsonl'), '\n');
    const bad = await cli(e, ['verify', out]);
    expect(bad.code, bad.out + bad.err).toBe(1);
    expect(bad.out).toContain('DIFFERS search/search_cab_cheapest_airport: artifact events.jsonl changed');
    expect(bad.out).not.toContain('exec_shopping_bottle_order');
    expect(bad.out).toMatch(/verify FAILED: .* in 1 of 2 run\(s\)/);
  }, 150_000);
});
