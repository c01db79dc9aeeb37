// The reference's own agent images by name (docs/reference-runner.md, "Profiles"): its
// OpenClaw, Hermes and oracle images, built from gaia2-cli/containers/ of
// facebookresearch/meta-agents-research-environments by that directory's Makefile, and the
// mini-SWE-agent image its runner has a profile for. This runner builds none of them: its
// world image under such a name would be driven as that agent's image and recorded as it.
// So a missing one is explained (what it is, how to build it there, what to run here instead)
// and build-image refuses to put our image under such a name.
import { listAdapters } from '../agents/index.js';
import { ConfigError } from '../plan/errors.js';
import { DEFAULT_IMAGE } from '../plan/plan.js';

/** The reference's repository, where its images are built (in its gaia2-cli/ directory). */
export const REFERENCE_REPO = 'github.com/facebookresearch/meta-agents-research-environments';

export interface ReferenceImage {
  /** The image's agent, as a reader knows it. */
  agent: 'OpenClaw' | 'Hermes' | 'mini-SWE-agent' | 'oracle';
  /** The name the reference gives its build (the Makefile's tag), when it has one. */
  referenceTag: string | null;
  /** Its Dockerfile under gaia2-cli/ of the reference's repository; null when that has none. */
  dockerfile: string | null;
  /** The make target in gaia2-cli/ that builds it (after the gaia2-cli base image). */
  makeTarget: string | null;
  /** The `--agent` that plays the same agent here, when there is one. */
  here: string | null;
}

/** What the name says, matched as the profiles are (lower case, anywhere in the name). */
const KNOWN: Array<{ match: (s: string) => boolean; image: ReferenceImage }> = [
  {
    match: (s) => s.includes('gaia2-oc'),
    image: { agent: 'OpenClaw', referenceTag: 'localhost/gaia2-oc:latest', dockerfile: 'gaia2-cli/containers/openclaw/Dockerfile', makeTarget: 'gaia2-oc', here: 'openclaw' },
  },
  {
    match: (s) => s.includes('hermes'),
    image: { agent: 'Hermes', referenceTag: 'localhost/gaia2-hermes:latest', dockerfile: 'gaia2-cli/containers/hermes/Dockerfile', makeTarget: 'gaia2-hermes', here: null },
  },
  {
    match: (s) => s.includes('gaia2-mini') || s.includes('mini-swe') || s.includes('mini_swe'),
    // The reference's runner has this profile, but its repository (checked at commit 1b6b93c)
    // holds no mini-SWE-agent container or make target.
    image: { agent: 'mini-SWE-agent', referenceTag: null, dockerfile: null, makeTarget: null, here: null },
  },
  {
    match: (s) => s.includes('gaia2-oracle'),
    image: { agent: 'oracle', referenceTag: 'localhost/gaia2-oracle:latest', dockerfile: 'gaia2-cli/containers/oracle/Dockerfile', makeTarget: 'gaia2-oracle', here: 'oracle' },
  },
];

/** The reference image an image name stands for (`gaia2-oc`, `hermes`, `mini-swe`, `gaia2-oracle` in it), or null. */
export function referenceImage(image: string): ReferenceImage | null {
  const s = image.toLowerCase();
  return KNOWN.find((k) => k.match(s))?.image ?? null;
}

/** "the reference's OpenClaw image (gaia2-cli/containers/openclaw/Dockerfile in …)". */
function whatItIs(r: ReferenceImage): string {
  if (!r.dockerfile) return `a ${r.agent} image, which the reference's runner drives by its mini-swe profile (the reference's repository, ${REFERENCE_REPO}, has no such image in gaia2-cli/containers/)`;
  return `the reference's ${r.agent} image (${r.dockerfile} in ${REFERENCE_REPO})`;
}

function buildThere(r: ReferenceImage, image: string): string {
  if (!r.makeTarget) return 'build it from where your mini-SWE-agent image came from';
  const retag = r.referenceTag && r.referenceTag !== image ? `, then tag it ${image} (podman tag ${r.referenceTag} ${image})` : '';
  return `build it from the reference's repository: cd gaia2-cli && make ${r.makeTarget} (it builds the gaia2-cli base image first and tags ${r.referenceTag})${retag}`;
}

function runHere(r: ReferenceImage): string {
  const toml = (name: string) => `in a TOML config: [agent] name = "${name}" and image = "${DEFAULT_IMAGE}", or no image line`;
  if (r.here === 'oracle') return `play the oracle here, on this runner's world image: --agent oracle --image ${DEFAULT_IMAGE} (${toml('oracle')})`;
  if (r.here) return `run ${r.agent} here, installed by this runner on its world image: --agent ${r.here} --image ${DEFAULT_IMAGE} (${toml(r.here)}; docs/agents.md)`;
  // acp is left out: it runs a program named by options of its own, not a ready agent.
  const ours = listAdapters().filter((a) => !a.fromOptions).map((a) => a.name);
  return `run another agent here (this runner has no ${r.agent}): --agent ${[...ours, 'default'].join(' | ')} --image ${DEFAULT_IMAGE} (docs/agents.md)`;
}

/** The error for a run whose configured image is a reference image the engine does not hold. */
export function missingReferenceImageMessage(image: string, r: ReferenceImage): string {
  return [
    `image ${image} not found in the engine.`,
    `That name is ${whatItIs(r)}. gaia2-runner does not build it: its build-image makes this runner's world image, which under that name would be driven and recorded as ${r.agent}.`,
    'Two ways on:',
    `  1. ${buildThere(r, image)};`,
    `  2. ${runHere(r)}.`,
  ].join('\n');
}

/** build-image: refuses to put our image under a reference image's name (`flag`: --tag, --push). */
export function refuseReferenceName(flag: string, image: string): void {
  const r = referenceImage(image);
  if (!r) return;
  throw new ConfigError(
    [
      `${flag} ${image}: that is the name of ${whatItIs(r)}.`,
      `build-image makes this runner's world image; under that name a run would drive it with ${r.agent}'s variable profile and record ${r.agent} as the agent. Choose another name (the default is ${DEFAULT_IMAGE}).`,
      `To have the ${r.agent} image itself, ${buildThere(r, image)}. Or ${runHere(r)}.`,
    ].join('\n'),
  );
}
