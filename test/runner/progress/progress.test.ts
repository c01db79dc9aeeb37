import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, formatCounts } from '../../../runner/src/progress/index.js';
import { registerSecret, clearSecrets } from '../../../runner/src/secrets/redact.js';

function sink() {
  const s = new PassThrough() as unknown as NodeJS.WriteStream & { text: () => string };
  let buf = '';
  (s as unknown as PassThrough).on('data', (c: Buffer) => (buf += c.toString()));
  s.text = () => buf;
  return s;
}

describe('progress', () => {
  it('plain lines when not a TTY: done/total, P/F/E, rate, ETA', () => {
    let t = 0;
    const s = sink();
    const p = createProgress({ stream: s, tty: false, now: () => t });
    p.start(4);
    t = 1000;
    p.done('search/a', 'pass');
    t = 2000;
    p.done('search/b', 'error', 'health_timeout');
    p.stop();
    const lines = s.text().trim().split('\n');
    expect(lines[0]).toBe('[1/4] search/a PASS P=1 F=0 E=0 rate=100% eta=3s');
    expect(lines[1]).toBe('[2/4] search/b ERROR(health_timeout) P=1 F=0 E=1 rate=100% eta=2s');
  });

  it('rate counts judged runs only; a dash when nothing was judged', () => {
    expect(formatCounts({ done: 1, total: 2, passed: 0, failed: 0, errors: 1 }, 10)).toContain('rate=—');
    expect(formatCounts({ done: 3, total: 3, passed: 1, failed: 2, errors: 0 }, 10)).toBe('P=1 F=2 E=0 rate=33% eta=0s');
  });

  it('a live bar on a terminal, and log lines pass through redaction', () => {
    registerSecret('canary-progress-secret');
    const s = Object.assign(sink(), { isTTY: true, columns: 120, cursorTo() {}, clearLine() {}, moveCursor() {} });
    const p = createProgress({ stream: s, tty: true });
    p.start(2);
    p.log('key is canary-progress-secret');
    p.done('a', 'fail');
    p.stop();
    expect(s.text()).toContain('1/2');
    expect(s.text()).not.toContain('{counts}');
    expect(s.text()).toContain('P=0 F=1 E=0');
    expect(s.text()).not.toContain('canary-progress-secret');
    clearSecrets();
  });
});
