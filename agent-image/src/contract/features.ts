// What an image can do beyond the reference contract, announced in an image label so the
// runner uses the faster paths only with images that have them (reference images have no
// such label and get the reference behaviour).

export const IMAGE_FEATURES_LABEL = 'gaia2.features';

export const IMAGE_FEATURES = {
  /** GET /artifacts serves every artifact file in one answer (token required). */
  artifactsRoute: 'artifacts-route',
  /** POST /shutdown ends the container (token required). */
  shutdownRoute: 'shutdown-route',
  /** The scenario may be put in after start; the daemon waits for GAIA2_SCENARIO_READY. */
  scenarioAfterStart: 'scenario-after-start',
  /** The Noise phase (GAIA2_NOISE: tool augmentation, background ENV events, noise.jsonl). */
  noise: 'noise',
  /** POST /files writes files in order (token required): the way in without an archive API. */
  filesRoute: 'files-route',
  /** PUT /files?path=…&mode=…: one file per request, its raw bytes as the body (no base64, no JSON). */
  filesStream: 'files-stream',
  /** GET /artifacts?format=tar: the artifact files as one tar stream (no base64, no JSON). */
  artifactsTar: 'artifacts-tar',
  /** GET /carry: a universe chain's carry as one tar stream; GAIA2_CARRY_HOME puts a carried home in before the agent starts. */
  carryRoute: 'carry-route',
  /** GAIA2_SEAL_ALLOW installs the agent user's egress filter (needs NET_ADMIN; docs/contract.md). */
  sealedNetwork: 'sealed-network',
} as const;

export type ImageFeature = (typeof IMAGE_FEATURES)[keyof typeof IMAGE_FEATURES];

/** The label value our image carries. */
export const OUR_IMAGE_FEATURES = Object.values(IMAGE_FEATURES).join(',');

export function parseImageFeatures(labels: Record<string, string> | null | undefined): Set<string> {
  const raw = labels?.[IMAGE_FEATURES_LABEL] ?? '';
  return new Set(raw.split(',').map((f) => f.trim()).filter(Boolean));
}
