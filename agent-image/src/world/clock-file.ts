// The simulated clock as a file every process on the agent's side maps (contract/sim-clock.ts,
// docs/contract.md "The agent's clock"): the daemon writes each new anchor of its SimClock
// here. Readers map the file, so it is never replaced after its creation (a rename would leave
// them on the old inode): it is created whole (64 bytes, so no reader maps a short file), then
// every change is three positional writes on the one open descriptor, as a seqlock: `seq` made
// odd, the fields, `seq` made even again. A reader that sees an odd or changed `seq` reads again.
import { chmodSync, closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { AGENT_UID, encodeSimClock, SIM_CLOCK_OFFSETS } from '../contract/sim-clock.js';
import type { ClockAnchor } from './clock.js';

/** CLOCK_REALTIME − CLOCK_MONOTONIC now (Date.now() gives whole milliseconds: enough for file times). */
export const realMinusMonoNs = (): bigint => BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

const FIELDS_AT = SIM_CLOCK_OFFSETS.monoNs;

export class ClockFile {
  private fd: number | null = null;
  private seq = 0n;

  /** `agentUid`: the processes of this real uid read the simulated clock (the image's agent user). */
  constructor(
    readonly path: string,
    private readonly agentUid: number = AGENT_UID,
  ) {}

  /** Publishes an anchor (the first call creates the file). */
  write(a: ClockAnchor): void {
    const bytes = encodeSimClock({ ...a, realMinusMonoNs: realMinusMonoNs(), agentUid: this.agentUid }, this.seq);
    if (this.fd === null) {
      const tmp = `${this.path}.tmp`;
      writeFileSync(tmp, bytes, { mode: 0o644 });
      chmodSync(tmp, 0o644); // whatever the umask
      renameSync(tmp, this.path);
      this.fd = openSync(this.path, 'r+');
      return;
    }
    const seq = Buffer.alloc(8);
    seq.writeBigUInt64LE(++this.seq);
    writeSync(this.fd, seq, 0, 8, SIM_CLOCK_OFFSETS.seq);
    writeSync(this.fd, bytes, FIELDS_AT, bytes.length - FIELDS_AT, FIELDS_AT);
    seq.writeBigUInt64LE(++this.seq);
    writeSync(this.fd, seq, 0, 8, SIM_CLOCK_OFFSETS.seq);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
