// What one client has received of an answer. When the provider's connection breaks after bytes
// went out, the gateway asks again; the new answer's bytes are checked against what the client
// already holds, and only what comes after them is written on, so the client sees one whole
// answer — or, at the first byte that differs, the gateway knows the answer cannot be completed
// (docs/gateway.md, "A drop mid-answer").
import type { ServerResponse } from 'node:http';

export class ClientStream {
  private readonly chunks: Buffer[] = [];
  private joined: Buffer | null = null;
  private sent = 0;
  /** Bytes of the current answer checked against (or written to) the client so far. */
  private matched = 0;
  /** Where the first resumed answer took over (bytes the client had when it broke); null: never resumed. */
  private resumedAt: number | null = null;
  headersSent = false;
  status = 0;

  constructor(private readonly res: ServerResponse) {}

  /** Bytes the client has received. */
  get bytes(): number {
    return this.sent;
  }

  /** Bytes of the current answer that matched so far (where a difference was found). */
  get position(): number {
    return this.matched;
  }

  /** Whether the current answer has covered everything the client already has. */
  get caughtUp(): boolean {
    return this.matched >= this.sent;
  }

  get resumedAfter(): number | null {
    return this.resumedAt;
  }

  start(status: number, headers: Record<string, string | string[]>): void {
    this.res.writeHead(status, headers);
    this.headersSent = true;
    this.status = status;
  }

  /** A repeated request's answer begins: its first `bytes` bytes must be what the client has. */
  repeat(): void {
    this.matched = 0;
    this.resumedAt ??= this.sent;
  }

  /**
   * One chunk of the current answer: the part the client already has is compared, the rest is
   * written on. False at the first byte that differs (nothing of this chunk is written then).
   */
  async take(chunk: Buffer): Promise<boolean> {
    let c = chunk;
    if (this.matched < this.sent) {
      const n = Math.min(c.length, this.sent - this.matched);
      const had = (this.joined ??= Buffer.concat(this.chunks));
      const same = c.subarray(0, n);
      if (!same.equals(had.subarray(this.matched, this.matched + n))) {
        for (let k = 0; k < n && same[k] === had[this.matched + k]; k++) this.matched++;
        return false;
      }
      this.matched += n;
      c = c.subarray(n);
      if (!c.length) return true;
    }
    this.chunks.push(c);
    this.joined = null;
    this.sent += c.length;
    this.matched = this.sent;
    if (!this.res.write(c)) await drained(this.res);
    return true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
