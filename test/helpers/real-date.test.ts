import { describe, expect, it } from 'vitest';
import { dateRenderings } from './real-date.js';

describe('dateRenderings: the host day in the forms programs write', () => {
  const day = [new Date('2026-11-27T21:00:00Z')];
  const hit = (text: string) => dateRenderings(day).some((r) => r.test(text));

  it('finds the day however it is written', () => {
    for (const t of ["Today's date is 2026-11-27.", '<current_date>2026-11-27</current_date>', 'Friday, November 27, 2026', 'Nov 27, 2026', '27 Nov 2026', '27th of November 2026', '11/27/2026', '2026/11/27', 'ts 2026-11-27T21:00:00Z'])
      expect(hit(t), t).toBe(true);
  });

  it('does not take the simulated day or other numbers for it', () => {
    for (const t of ["Today's date is 2025-10-09.", 'Thursday, October 9, 2025', 'id 12026-11-270', 'November 27, 2025', '1/27/2026']) expect(hit(t), t).toBe(false);
  });
});
