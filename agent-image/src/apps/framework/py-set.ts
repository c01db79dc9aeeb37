// The iteration order of a Python set of strings, as CPython 3.11 produces it with
// PYTHONHASHSEED=0 (how the reference transcripts were recorded; docs/apps.md, "Lists from
// Python sets"). The reference prints some lists straight from a set (calendar get-all-tags,
// participant_ids of conversations it creates); with hash randomisation off that order is
// fixed, so we reproduce it instead of picking our own.
//
// Model: str hash = SipHash-1-3 with a zero key over the string's internal bytes (1, 2 or 4
// bytes per code point, little-endian, by the widest code point; -1 becomes -2), an open
// addressing table of 8 slots to start, 10 linear probes then perturbed jumps
// (i = i*5 + 1 + (perturb >>= 5)), and a rebuild to the smallest power of two above 4 × used
// once fill × 5 ≥ mask × 3 (entries re-placed in old table order).

const M64 = (1n << 64n) - 1n;
const rotl = (x: bigint, b: bigint): bigint => ((x << b) | (x >> (64n - b))) & M64;

function sipRound(v: bigint[]): void {
  // Two half rounds with rotations (13, 16) and (17, 21), as SipHash defines them.
  v[0] = (v[0]! + v[1]!) & M64;
  v[2] = (v[2]! + v[3]!) & M64;
  v[1] = rotl(v[1]!, 13n) ^ v[0]!;
  v[3] = rotl(v[3]!, 16n) ^ v[2]!;
  v[0] = rotl(v[0]!, 32n);
  v[2] = (v[2]! + v[1]!) & M64;
  v[0] = (v[0]! + v[3]!) & M64;
  v[1] = rotl(v[1]!, 17n) ^ v[2]!;
  v[3] = rotl(v[3]!, 21n) ^ v[0]!;
  v[2] = rotl(v[2]!, 32n);
}

/** SipHash-1-3 with k0 = k1 = 0 (CPython's variant: the final value is v0^v1^v2^v3). */
function siphash13(bytes: Uint8Array): bigint {
  const v = [0x736f6d6570736575n, 0x646f72616e646f6dn, 0x6c7967656e657261n, 0x7465646279746573n];
  const word = (at: number, n: number): bigint => {
    let w = 0n;
    for (let k = n - 1; k >= 0; k--) w = (w << 8n) | BigInt(bytes[at + k]!);
    return w;
  };
  let i = 0;
  for (; i + 8 <= bytes.length; i += 8) {
    const m = word(i, 8);
    v[3] ^= m;
    sipRound(v);
    v[0] ^= m;
  }
  const b = ((BigInt(bytes.length) << 56n) | word(i, bytes.length - i)) & M64;
  v[3] ^= b;
  sipRound(v);
  v[0] ^= b;
  v[2] ^= 0xffn;
  sipRound(v);
  sipRound(v);
  sipRound(v);
  return (v[0] ^ v[1] ^ v[2] ^ v[3]) & M64;
}

/** The bytes CPython hashes for a str: its compact representation (latin-1, UCS-2 or UCS-4). */
function internalBytes(s: string): Uint8Array {
  const points = Array.from(s, (c) => c.codePointAt(0)!);
  const max = points.reduce((a, b) => Math.max(a, b), 0);
  const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  const out = new Uint8Array(points.length * width);
  points.forEach((p, k) => {
    for (let j = 0; j < width; j++) out[k * width + j] = (p >>> (8 * j)) & 0xff;
  });
  return out;
}

/** hash(s) as an unsigned 64-bit pattern (what the table indexes with). */
export function pyStrHash(s: string): bigint {
  if (s.length === 0) return 0n;
  const h = siphash13(internalBytes(s));
  return h === M64 ? M64 - 1n : h; // -1 is reserved for errors: CPython uses -2
}

const LINEAR_PROBES = 9;

/** Slot for a new key: the first empty slot on the key's probe sequence. */
function freeSlot(table: Array<string | undefined>, hash: bigint): number {
  const mask = BigInt(table.length - 1);
  let perturb = hash;
  let i = hash & mask;
  for (;;) {
    const probes = i + BigInt(LINEAR_PROBES) <= mask ? LINEAR_PROBES : 0;
    for (let j = 0; j <= probes; j++) {
      const at = Number(i) + j;
      if (table[at] === undefined) return at;
    }
    perturb >>= 5n;
    i = (i * 5n + 1n + perturb) & mask;
  }
}

/** list(set(items)) for strings: the order of a set built by adding `items` one by one. */
export function pySetOrder(items: Iterable<string>): string[] {
  let table: Array<string | undefined> = new Array(8).fill(undefined);
  const hashes = new Map<string, bigint>();
  let used = 0;
  for (const s of items) {
    if (hashes.has(s)) continue;
    const h = pyStrHash(s);
    hashes.set(s, h);
    table[freeSlot(table, h)] = s;
    used++;
    // No deletions here, so fill == used.
    if (used * 5 >= (table.length - 1) * 3) {
      let size = 8;
      while (size <= used * 4) size <<= 1;
      const old = table;
      table = new Array(size).fill(undefined);
      for (const k of old) if (k !== undefined) table[freeSlot(table, hashes.get(k)!)] = k;
    }
  }
  return table.filter((k): k is string => k !== undefined);
}
