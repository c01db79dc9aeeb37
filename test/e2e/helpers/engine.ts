// One engine connection per e2e file, opened before its tests and closed after them.
import { afterAll, beforeAll } from 'vitest';
import { connectEngine, type UnitBackend } from '../../../runner/src/engine/index.js';

export function useEngine(): () => UnitBackend {
  let engine: UnitBackend | null = null;
  beforeAll(async () => {
    engine = await connectEngine();
  });
  afterAll(async () => {
    await engine?.close();
  });
  return () => {
    if (!engine) throw new Error('engine not connected yet (use it inside a test)');
    return engine;
  };
}
