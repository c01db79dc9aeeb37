// Upload through @huggingface/hub to the local Hub double speaking the real create-repo,
// preupload, LFS batch/upload and NDJSON commit protocol; also through the CLI command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission } from '../../../runner/src/submission/index.js';
import { uploadSubmission } from '../../../runner/src/submission/upload.js';
import { startFakeHub, type FakeHub } from '../../helpers/fake-hub/index.js';
import { runCliInProcess } from '../config/in-process-cli.js';
import { finishedRoot } from './phase-root.js';

let hub: FakeHub;
let root: string;
beforeAll(async () => {
  hub = await startFakeHub();
  root = await finishedRoot(() => 'pass', ['standard', 'noise'], 1);
});
afterAll(async () => {
  await hub?.stop();
});

const env = () => ({ HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_test_token_123456' });

describe('submission upload', () => {
  it('creates a private dataset and commits every file; parquet goes through LFS, the rest inline', async () => {
    const s = buildSubmission(root, { split: 'validation' });
    const out = await uploadSubmission(s, { repo: 'my-org/gaia2-traces', public: false, env: env(), title: 'Gaia2 submission' });
    expect(out.commitUrl).toMatch(new RegExp(`^${hub.url}/datasets/my-org/gaia2-traces/commit/[0-9a-f]{40}$`));
    expect(hub.repos.get('my-org/gaia2-traces')).toEqual({ private: true, type: 'dataset' });
    const commit = hub.commits.at(-1)!;
    expect(commit.summary).toBe('Gaia2 submission');
    expect(commit.files.filter((f) => f.via === 'lfs').map((f) => f.path).sort()).toEqual(s.files.filter((f) => f.path.endsWith('.parquet')).map((f) => f.path).sort());
    expect(commit.files.filter((f) => f.via === 'inline').map((f) => f.path).sort()).toEqual(['README.md', 'computed_stats.json']);
    for (const f of s.files) expect(hub.getFile('my-org/gaia2-traces', f.path)?.equals(Buffer.from(f.content))).toBe(true);
    expect(hub.authHeaders.every((h) => h === 'Bearer hf_test_token_123456')).toBe(true);
  });

  it('an existing repo is committed to again; --hf-public creates a public one', async () => {
    const s = buildSubmission(root, { split: 'validation' });
    const before = hub.commits.length;
    await uploadSubmission(s, { repo: 'my-org/gaia2-traces', public: true, env: env(), title: 'again' });
    expect(hub.commits.length).toBe(before + 1);
    expect(hub.repos.get('my-org/gaia2-traces')?.private).toBe(true); // visibility of an existing repo is kept
    await uploadSubmission(s, { repo: 'my-org/public-traces', public: true, env: env(), title: 'public' });
    expect(hub.repos.get('my-org/public-traces')?.private).toBe(false);
  });

  it('without HF_TOKEN: a clear error before any request; a bad repo id is refused', async () => {
    const s = buildSubmission(root, { split: 'validation' });
    const n = hub.requests.length;
    await expect(uploadSubmission(s, { repo: 'my-org/x', public: false, env: { HF_ENDPOINT: hub.url }, title: 't' })).rejects.toThrow(/needs HF_TOKEN/);
    await expect(uploadSubmission(s, { repo: 'not-a-repo', public: false, env: env(), title: 't' })).rejects.toThrow(/--hf-upload must be a Hugging Face dataset id/);
    expect(hub.requests.length).toBe(n);
  });

  it('gaia2-runner submission <root> --hf-upload: exports, uploads, never prints the token', async () => {
    const r = await runCliInProcess(['submission', root, '--hf-upload', 'my-org/cli-traces'], root, env());
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Submission: .*submission — 6 rows, 6 successful; configs: search \(2\), search_noise \(2\), time \(1\), time_noise \(1\)/);
    expect(r.out).toMatch(/Uploaded to Hugging Face dataset my-org\/cli-traces \(private\)/);
    expect(r.out + r.err).not.toContain('hf_test_token_123456');
    expect(hub.getFile('my-org/cli-traces', 'search/validation-00000-of-00001.parquet')).toBeDefined();
  });
});
