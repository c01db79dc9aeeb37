// Reference image names (gaia2-oc, hermes, mini-swe, gaia2-oracle): recognised as the profiles
// recognise them, explained when missing (what the image is, the reference's make target, what
// to run here), and refused by build-image, which would put this runner's world image under them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingReferenceImageMessage, referenceImage, refuseReferenceName } from '../../../runner/src/image/reference-images.js';
import { detectProfile } from '../../../runner/src/env/profiles.js';
import { runCliInProcess } from '../config/in-process-cli.js';

describe('reference image names', () => {
  it('are the reference images the variable profiles are for; ours are not', () => {
    expect(referenceImage('localhost/gaia2-oc:latest')).toMatchObject({ agent: 'OpenClaw', makeTarget: 'gaia2-oc', here: 'openclaw' });
    expect(referenceImage('ghcr.io/Meta/GAIA2-OC:v2')?.agent).toBe('OpenClaw');
    expect(referenceImage('localhost/gaia2-hermes:latest')).toMatchObject({ agent: 'Hermes', makeTarget: 'gaia2-hermes', here: null });
    expect(referenceImage('localhost/gaia2-mini-swe:latest')).toMatchObject({ agent: 'mini-SWE-agent', makeTarget: null });
    expect(referenceImage('localhost/gaia2-oracle:latest')).toMatchObject({ agent: 'oracle', makeTarget: 'gaia2-oracle', here: 'oracle' });
    // each is driven by the reference profile of the same agent
    for (const [image, profile] of [['localhost/gaia2-oc:latest', 'openclaw'], ['localhost/gaia2-hermes:latest', 'hermes'], ['localhost/gaia2-mini-swe:latest', 'mini-swe'], ['localhost/gaia2-oracle:latest', 'oracle']] as const)
      expect(detectProfile(image).name).toBe(profile);
    // this runner's world image and its agent layers are not reference images
    for (const ours of ['localhost/gaia2-agent:latest', 'localhost/gaia2-agent-openclaw:2026.7.35', 'localhost/gaia2-agent-claude-code:2.1.332-dev', 'localhost/my-agent:1'])
      expect(referenceImage(ours)).toBeNull();
  });

  it('missing: say what it is and the two ways on, with the reference tag and a retag when the name differs', () => {
    const oc = missingReferenceImageMessage('ghcr.io/x/gaia2-oc:v2', referenceImage('ghcr.io/x/gaia2-oc:v2')!);
    expect(oc.split('\n')).toEqual([
      'image ghcr.io/x/gaia2-oc:v2 not found in the engine.',
      "That name is the reference's OpenClaw image (gaia2-cli/containers/openclaw/Dockerfile in github.com/facebookresearch/meta-agents-research-environments). gaia2-runner does not build it: its build-image makes this runner's world image, which under that name would be driven and recorded as OpenClaw.",
      'Two ways on:',
      "  1. build it from the reference's repository: cd gaia2-cli && make gaia2-oc (it builds the gaia2-cli base image first and tags localhost/gaia2-oc:latest), then tag it ghcr.io/x/gaia2-oc:v2 (podman tag localhost/gaia2-oc:latest ghcr.io/x/gaia2-oc:v2);",
      '  2. run OpenClaw here, installed by this runner on its world image: --agent openclaw --image localhost/gaia2-agent:latest (in a TOML config: [agent] name = "openclaw" and image = "localhost/gaia2-agent:latest", or no image line; docs/agents.md).',
    ]);
    const hermes = missingReferenceImageMessage('localhost/gaia2-hermes:latest', referenceImage('localhost/gaia2-hermes:latest')!);
    expect(hermes).toContain('cd gaia2-cli && make gaia2-hermes (it builds the gaia2-cli base image first and tags localhost/gaia2-hermes:latest);');
    expect(hermes).not.toContain('podman tag');
    // no Hermes here: the agents this runner has, from its registry
    expect(hermes).toContain('run another agent here (this runner has no Hermes): --agent claude-code | cline | codex | gemini-cli | openclaw | opencode | qwen-code | default --image localhost/gaia2-agent:latest');
    const mini = missingReferenceImageMessage('localhost/gaia2-mini-swe:latest', referenceImage('localhost/gaia2-mini-swe:latest')!);
    expect(mini).toContain("has no such image in gaia2-cli/containers/");
    expect(mini).toContain('1. build it from where your mini-SWE-agent image came from;');
    const oracle = missingReferenceImageMessage('localhost/gaia2-oracle:latest', referenceImage('localhost/gaia2-oracle:latest')!);
    expect(oracle).toContain('2. play the oracle here, on this runner\'s world image: --agent oracle --image localhost/gaia2-agent:latest');
  });

  it('build-image refuses a reference name for --tag and --push, before any engine is reached', async () => {
    expect(() => refuseReferenceName('--tag', 'localhost/gaia2-agent:dev')).not.toThrow();
    expect(() => refuseReferenceName('--tag', 'localhost/gaia2-hermes:latest')).toThrow(/^--tag localhost\/gaia2-hermes:latest: that is the name of the reference's Hermes image/);
    const d = mkdtempSync(join(tmpdir(), 'ref-tag-'));
    // No engine answers here (runCliInProcess points DOCKER_HOST nowhere): a refusal that came
    // after connecting would be an engine error (exit 3), not this usage error.
    const tag = await runCliInProcess(['build-image', '--tag', 'localhost/gaia2-oc:latest'], d);
    expect(tag.code).toBe(2);
    expect(tag.err.split('\n')).toEqual([
      "--tag localhost/gaia2-oc:latest: that is the name of the reference's OpenClaw image (gaia2-cli/containers/openclaw/Dockerfile in github.com/facebookresearch/meta-agents-research-environments).",
      "build-image makes this runner's world image; under that name a run would drive it with OpenClaw's variable profile and record OpenClaw as the agent. Choose another name (the default is localhost/gaia2-agent:latest).",
      'To have the OpenClaw image itself, build it from the reference\'s repository: cd gaia2-cli && make gaia2-oc (it builds the gaia2-cli base image first and tags localhost/gaia2-oc:latest). Or run OpenClaw here, installed by this runner on its world image: --agent openclaw --image localhost/gaia2-agent:latest (in a TOML config: [agent] name = "openclaw" and image = "localhost/gaia2-agent:latest", or no image line; docs/agents.md).',
    ]);
    const push = await runCliInProcess(['build-image', '--push', 'registry.example/team/gaia2-oc:v1'], d);
    expect(push.code).toBe(2);
    expect(push.err).toMatch(/^--push registry.example\/team\/gaia2-oc:v1: that is the name of the reference's OpenClaw image/);
    // an ordinary tag goes on to the engine (none here: an engine error, not the refusal)
    const ours = await runCliInProcess(['build-image', '--tag', 'localhost/gaia2-agent:dev'], d);
    expect(ours.err).not.toContain('that is the name of');
    expect(ours.code).not.toBe(2);
  });
});
