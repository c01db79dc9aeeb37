// Python difflib's SequenceMatcher.ratio and get_close_matches, on code points. Click uses
// get_close_matches for "Did you mean" suggestions and messaging's lookup-user-id uses ratio,
// so both must score exactly like Python (including the autojunk rule for long strings).

function matchedChars(a: string[], b: string[]): number {
  const b2j = new Map<string, number[]>();
  b.forEach((ch, j) => {
    const list = b2j.get(ch);
    if (list) list.push(j);
    else b2j.set(ch, [j]);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [ch, idx] of [...b2j]) if (idx.length > ntest) b2j.delete(ch);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let best = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > best) {
          besti = i - k + 1;
          bestj = j - k + 1;
          best = k;
        }
      }
      j2len = next;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      best++;
    }
    while (besti + best < ahi && bestj + best < bhi && a[besti + best] === b[bestj + best]) best++;
    return [besti, bestj, best];
  };
  let total = 0;
  const queue: Array<[number, number, number, number]> = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    total += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return total;
}

/** SequenceMatcher(None, a, b).ratio() */
export function sequenceRatio(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const len = x.length + y.length;
  return len === 0 ? 1 : (2 * matchedChars(x, y)) / len;
}

/** difflib.get_close_matches(word, possibilities, n, cutoff): best first, ties by larger string. */
export function getCloseMatches(word: string, possibilities: Iterable<string>, n = 3, cutoff = 0.6): string[] {
  const scored: Array<[number, string]> = [];
  for (const p of possibilities) {
    const r = sequenceRatio(p, word); // Python sets seq2 = word
    if (r >= cutoff) scored.push([r, p]);
  }
  scored.sort((l, r) => (r[0] - l[0]) || (l[1] < r[1] ? 1 : l[1] > r[1] ? -1 : 0));
  return scored.slice(0, n).map(([, p]) => p);
}
