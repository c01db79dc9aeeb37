// `gaia2-runner verify`: digests and offline re-judging of a finished run directory.
export { verifyRunDir, type VerifyIssue, type VerifyOutcome } from './check.js';
export { replayFetch, type ReplayFetch } from './replay.js';
