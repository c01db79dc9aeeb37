// The simulated clock as every process on the agent's side reads it (docs/contract.md, "The
// agent's clock"). The world daemon owns the clock and publishes it as a small binary file that
// readers map into memory: the preload library (agent-image/native/gaia2-clock.c, loaded into
// every dynamically linked program through /etc/ld.so.preload) and the exec helper for static
// binaries (agent-image/native/simclock-exec.c) turn the process's own time calls into reads of
// it. The clock is a line through one anchor, so a reader needs no other input than its own
// CLOCK_MONOTONIC, which every process of the container shares with the daemon:
//
//   sim_ns(now) = sim_ns + (monotonic_now_ns − mono_ns) × rate
//
// Layout (64 bytes, little endian). A writer makes `seq` odd, writes the fields, then makes it
// even again; a reader retries while `seq` is odd or changed under it (a seqlock).
//
//   off  size  field
//     0     4  magic "G2CK"
//     4     4  version (u32) = 1
//     8     8  seq (u64)
//    16     8  mono_ns (i64): CLOCK_MONOTONIC at the anchor
//    24     8  sim_ns (i64): simulated Unix time at the anchor, nanoseconds
//    32     8  rate (f64): simulated ns per monotonic ns; 0 while the clock is held
//    40     8  real_minus_mono_ns (i64): CLOCK_REALTIME − CLOCK_MONOTONIC when written (lets a
//             reader convert the kernel's real file times without reading the real clock)
//    48     4  agent_uid (u32): processes whose real uid is this one read simulated time
//    52    12  reserved (zero)

export const SIM_CLOCK_FILE = '/run/gaia2/clock';
/** Overrides the file's path for the daemon and both readers (host-side tests; in the image it is unset). */
export const SIM_CLOCK_FILE_ENV = 'GAIA2_CLOCK_FILE';
export const SIM_CLOCK_SIZE = 64;
export const SIM_CLOCK_MAGIC = 'G2CK';
export const SIM_CLOCK_VERSION = 1;
/** The agent user's uid in the image (agent-image/setup.sh creates it with this uid). */
export const AGENT_UID = 1000;

/** A process started with this variable set to 1 keeps the real clock (our own runtimes' bookkeeping). */
export const REAL_CLOCK_ENV = 'GAIA2_REAL_CLOCK';

/** Installed in the image: the preload library and the exec helper for static programs. */
export const SIM_CLOCK_TOOLS = {
  preload: '/usr/local/lib/gaia2/libgaia2clock.so',
  exec: '/usr/local/lib/gaia2/simclock-exec',
} as const;

export const SIM_CLOCK_OFFSETS = {
  magic: 0,
  version: 4,
  seq: 8,
  monoNs: 16,
  simNs: 24,
  rate: 32,
  realMinusMonoNs: 40,
  agentUid: 48,
} as const;

export interface SimClockAnchor {
  /** CLOCK_MONOTONIC at the anchor, ns. */
  monoNs: bigint;
  /** Simulated Unix time at the anchor, ns. */
  simNs: bigint;
  /** Simulated ns per monotonic ns (0: held). */
  rate: number;
  /** CLOCK_REALTIME − CLOCK_MONOTONIC, ns. */
  realMinusMonoNs: bigint;
  agentUid: number;
}

/** The file's bytes for an anchor, with the given (even) sequence number. */
export function encodeSimClock(a: SimClockAnchor, seq: bigint): Buffer {
  const b = Buffer.alloc(SIM_CLOCK_SIZE);
  b.write(SIM_CLOCK_MAGIC, SIM_CLOCK_OFFSETS.magic, 'latin1');
  b.writeUInt32LE(SIM_CLOCK_VERSION, SIM_CLOCK_OFFSETS.version);
  b.writeBigUInt64LE(seq, SIM_CLOCK_OFFSETS.seq);
  b.writeBigInt64LE(a.monoNs, SIM_CLOCK_OFFSETS.monoNs);
  b.writeBigInt64LE(a.simNs, SIM_CLOCK_OFFSETS.simNs);
  b.writeDoubleLE(a.rate, SIM_CLOCK_OFFSETS.rate);
  b.writeBigInt64LE(a.realMinusMonoNs, SIM_CLOCK_OFFSETS.realMinusMonoNs);
  b.writeUInt32LE(a.agentUid >>> 0, SIM_CLOCK_OFFSETS.agentUid);
  return b;
}

/** Reads the file's bytes (null when the magic or version is wrong, or a write is under way). */
export function decodeSimClock(b: Buffer): (SimClockAnchor & { seq: bigint }) | null {
  if (b.length < SIM_CLOCK_SIZE || b.toString('latin1', 0, 4) !== SIM_CLOCK_MAGIC) return null;
  if (b.readUInt32LE(SIM_CLOCK_OFFSETS.version) !== SIM_CLOCK_VERSION) return null;
  const seq = b.readBigUInt64LE(SIM_CLOCK_OFFSETS.seq);
  if (seq % 2n === 1n) return null;
  return {
    seq,
    monoNs: b.readBigInt64LE(SIM_CLOCK_OFFSETS.monoNs),
    simNs: b.readBigInt64LE(SIM_CLOCK_OFFSETS.simNs),
    rate: b.readDoubleLE(SIM_CLOCK_OFFSETS.rate),
    realMinusMonoNs: b.readBigInt64LE(SIM_CLOCK_OFFSETS.realMinusMonoNs),
    agentUid: b.readUInt32LE(SIM_CLOCK_OFFSETS.agentUid),
  };
}

/** Simulated Unix time in ns for a monotonic reading, as every reader computes it. */
export function simNsAt(a: SimClockAnchor, monoNowNs: bigint): bigint {
  if (a.rate === 0) return a.simNs;
  return a.simNs + BigInt(Math.round(Number(monoNowNs - a.monoNs) * a.rate));
}

/**
 * GAIA2_CLOCK_CPU_WAIT: `exclude` keeps the time the run's processes wait for a CPU off the
 * simulated clock (the image's default), `count` lets it count, as the reference's clock does.
 */
export const CLOCK_CPU_WAIT_MODES = ['exclude', 'count'] as const;
export type ClockCpuWait = (typeof CLOCK_CPU_WAIT_MODES)[number];
