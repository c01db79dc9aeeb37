// Removal must never be lost: the engine's "still busy" answers and a request that died with its
// connection are retried; gone already is success; a real refusal is reported.
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { removeQuietly } from '../../../runner/src/engine/docker-container.js';

function container(answers: Array<Error | null>): { c: Docker.Container; calls: () => number } {
  let n = 0;
  const c = {
    id: 'abcdef0123456789',
    remove: async () => {
      const a = answers[Math.min(n++, answers.length - 1)];
      if (a) throw a;
    },
  } as unknown as Docker.Container;
  return { c, calls: () => n };
}
const err = (message: string, extra: Record<string, unknown>) => Object.assign(new Error(message), extra);

describe('removeQuietly', () => {
  it('sends the removal again when its connection dropped (ECONNRESET, socket hang up)', async () => {
    const r = container([err('socket hang up', { code: 'ECONNRESET' }), err('write EPIPE', { code: 'EPIPE' }), null]);
    await removeQuietly(r.c);
    expect(r.calls()).toBe(3);
  });

  it('waits out the engine still cleaning up (409, podman\'s "container state improper"), and gone counts as removed', async () => {
    const r = container([
      err('conflict', { statusCode: 409 }),
      err('server error', { statusCode: 500, json: { message: 'container state improper' } }),
      err('no such container', { statusCode: 404 }),
    ]);
    await removeQuietly(r.c);
    expect(r.calls()).toBe(3);
  });

  it('reports a refusal at once, and gives up on a connection that keeps dropping', async () => {
    const refused = container([err('server error', { statusCode: 500, json: { message: 'disk on fire' } })]);
    await expect(removeQuietly(refused.c)).rejects.toThrow(/removing container abcdef012345: disk on fire/);
    expect(refused.calls()).toBe(1);
    const dropping = container([err('socket hang up', { code: 'ECONNRESET' })]);
    await expect(removeQuietly(dropping.c)).rejects.toThrow(/socket hang up/);
    expect(dropping.calls()).toBe(3);
  });
});
