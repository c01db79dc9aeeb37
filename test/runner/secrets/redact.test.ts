import { afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, redactBytes, registerSecret } from '../../../runner/src/secrets/redact.js';

afterEach(() => clearSecrets());

describe('redactBytes', () => {
  it('returns bytes without a secret as the same buffer, untouched (invalid UTF-8 included)', () => {
    registerSecret('sk-canary-123456');
    const raw = Buffer.concat([Buffer.from('{"a": 1}\n'), Buffer.from([0xff, 0xfe])]);
    expect(redactBytes(raw)).toBe(raw);
  });

  it('redacts every occurrence of a secret', () => {
    registerSecret('sk-canary-123456');
    const out = redactBytes(Buffer.from('key=sk-canary-123456 again sk-canary-123456\n'));
    expect(out.toString('utf8')).toBe('key=*** again ***\n');
  });
});
