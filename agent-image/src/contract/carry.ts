// What a universe chain carries from one scenario's unit to the next (docs/protocol.md,
// "Universe chains"): the one filter of the state dir and of the agent's home, shared by the
// host (which reads a finished unit through its backend) and the image (so a carry handed out
// from inside a unit leaves out the same files).

/**
 * Files of the state dir that are the run's own record, not an app's state: they are the run's
 * artifacts (contract ARTIFACT_FILES) or its bookkeeping, and the next world writes its own.
 * (Only the state dir's top-level `<state name>.json` files are app states at all.)
 */
const RUN_OWN = new Set(['daemon_status.json', 'user_details.json', 'app_class_map.json']);

/** A path relative to the state dir that is a carried app state. */
export const isCarriedStateFile = (rel: string): boolean => !rel.includes('/') && rel.endsWith('.json') && !RUN_OWN.has(rel);

/** The cloud drive's folder in the state dir (the world's default drive root), carried whole. */
export const CARRIED_DRIVE_DIR = 'filesystem';

/**
 * Paths of the home never carried: keys and tokens an agent's runtime or its tools may have
 * written (the next unit gets its own), and the runner's per-run session and turn files.
 */
const NOT_CARRIED: readonly RegExp[] = [
  /^\.gaia2(\/|$)/,
  // the image's links to the app CLIs, made by the image for every unit
  /^bin(\/|$)/,
  /(^|\/)\.env(\.[^/]*)?$/,
  /(^|\/)\.netrc$/,
  /(^|\/)\.npmrc$/,
  /(^|\/)\.ssh(\/|$)/,
  /(^|\/)\.git-credentials$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)auth(-profiles)?\.json$/,
  /(^|\/)[^/]*credentials[^/]*$/i,
  /(^|\/)oauth_creds\.json$/,
  /(^|\/)[^/]*\.(key|pem)$/,
];

/** A path relative to the agent's home that is carried. */
export const isCarriedHomePath = (rel: string): boolean => !NOT_CARRIED.some((re) => re.test(rel));
