// An upstream-shaped config (the reference runner's template, test/fixtures/upstream-configs)
// names the reference's OpenClaw image, localhost/gaia2-oc:latest, which this engine does not
// hold. `gaia2-runner run-config` — the real CLI, on each engine — must say what that image is
// and the two ways on (the reference's make target; `--agent openclaw` here), not offer to build
// our world image under the reference's name, and start nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectE2eEngine, eachEngine, engineEnv } from './helpers/engines.js';

const root = join(import.meta.dirname, '..', '..');
const CONFIG = join(root, 'test/fixtures/upstream-configs/template_openclaw_openai_compat.toml');
const REFERENCE_OC = 'localhost/gaia2-oc:latest';

describe.each(eachEngine())('run-config naming the reference OpenClaw image (%s)', (_kind, e) => {
  it('says what the image is and the two ways on, and runs nothing', async () => {
    const engine = await connectE2eEngine(e);
    try {
      // The premise: were the reference's image here, the config would run it.
      expect(await engine.images!.exists(REFERENCE_OC), `${REFERENCE_OC} must be absent from the ${e.kind} engine for this test`).toBe(false);
    } finally {
      await engine.close();
    }
    const out = mkdtempSync(join(tmpdir(), 'gaia2-ref-image-'));
    const r = spawnSync(process.execPath, [join(root, 'bin/gaia2-runner.mjs'), 'run-config', '--config', CONFIG], {
      cwd: root,
      env: { ...engineEnv(e), GAIA2_TEST_SCENARIO: join(root, 'examples/scenarios/search/search_email_flight_code.json'), GAIA2_TEST_OUT: out, OPENAI_COMPAT_API_KEY: 'sk-unused' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    // An image the engine lacks is an engine-side error (exit 3), as for any missing image.
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toContain(
      [
        'gaia2-runner: image localhost/gaia2-oc:latest not found in the engine.',
        "That name is the reference's OpenClaw image (gaia2-cli/containers/openclaw/Dockerfile in github.com/facebookresearch/meta-agents-research-environments). gaia2-runner does not build it: its build-image makes this runner's world image, which under that name would be driven and recorded as OpenClaw.",
        'Two ways on:',
        "  1. build it from the reference's repository: cd gaia2-cli && make gaia2-oc (it builds the gaia2-cli base image first and tags localhost/gaia2-oc:latest);",
        '  2. run OpenClaw here, installed by this runner on its world image: --agent openclaw --image localhost/gaia2-agent:latest (in a TOML config: [agent] name = "openclaw" and image = "localhost/gaia2-agent:latest", or no image line; docs/agents.md).',
      ].join('\n'),
    );
    expect(r.stderr + r.stdout).not.toContain('build-image --tag');
    // Nothing ran: the config's output directory was never made.
    expect(existsSync(join(out, 'template'))).toBe(false);
  });
});
