// Differences from the reference that we keep on purpose (each one listed in docs/apps.md
// under "Deliberate differences"). A rule says when it applies and what we must do instead.
import type { CommandRecord, Outcome } from './corpus.js';

export interface DeliberateRule {
  id: string;
  /** docs/apps.md's wording, short. */
  reason: string;
  /** True when this reference record and our outcome are covered by the rule. */
  covers(ref: CommandRecord, ours: Outcome): boolean;
}

export const DELIBERATE: DeliberateRule[] = [
  {
    id: 'reference-crash',
    reason: 'where the reference crashes with a traceback we print one clear line, exit 1, log nothing',
    covers: (ref, ours) =>
      !!ref.crash && ours.code === 1 && ours.ev.length === 0 && ours.out === '' && ours.err !== '' && !ours.err.startsWith('Traceback'),
  },
  {
    id: 'drive-root',
    reason: 'cloud-drive rm --recursive / (and rmdir /) refuse to delete the drive root; the reference empties it',
    covers: (ref, ours) =>
      ref.argv[0] === 'cloud-drive' &&
      ['rm', 'rmdir'].includes(ref.argv[1] ?? '') &&
      ref.code === 0 &&
      ours.code === 1 &&
      ours.ev.length === 0 &&
      ours.err === 'Cannot remove the drive root',
  },
];

export function deliberateRule(ref: CommandRecord, ours: Outcome): DeliberateRule | undefined {
  return DELIBERATE.find((r) => r.covers(ref, ours));
}
