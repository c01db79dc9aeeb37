// The host's date as a program could write it into a request: the check that no agent is told
// the real day (issue R) must catch "Today's date is 2026-11-27", "<current_date>…", "Friday,
// November 27, 2026", "27 Nov 2026", "11/27/2026" alike.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const pad = (n: number) => String(n).padStart(2, '0');

/** Patterns matching the calendar days of `moments` (UTC and the host's zone) in the common renderings. */
export function dateRenderings(moments: Date[]): RegExp[] {
  const days = new Map<string, { y: number; m: number; d: number }>();
  for (const t of moments) {
    for (const [y, m, d] of [
      [t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()],
      [t.getFullYear(), t.getMonth(), t.getDate()],
    ] as const) days.set(`${y}-${m}-${d}`, { y, m, d });
  }
  return [...days.values()].flatMap(({ y, m, d }) => {
    const long = MONTHS[m]!;
    const month = `(?:${long}|${long.slice(0, 3)}\\.?)`;
    return [
      new RegExp(`(?<!\\d)${y}[-/.]${pad(m + 1)}[-/.]${pad(d)}(?!\\d)`),
      new RegExp(`\\b0?${m + 1}/0?${d}/${y}\\b`),
      new RegExp(`\\b${month} 0?${d}(?:st|nd|rd|th)?,? ${y}\\b`, 'i'),
      new RegExp(`\\b0?${d}(?:st|nd|rd|th)? (?:of )?${month},? ${y}\\b`, 'i'),
    ];
  });
}
