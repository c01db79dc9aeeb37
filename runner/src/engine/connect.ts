// The one place that turns the configured backend into a UnitBackend: sessions, `clean` and
// `doctor` call this; the backend's provider (engine/registry.ts) knows how to connect.
import type { BackendSettings } from '../plan/backend.js';
import type { ConnectOptions } from './index.js';
import { backendProvider } from './registry.js';
import type { UnitBackend } from './types.js';

export function connectBackend(backend: BackendSettings, opts: ConnectOptions = {}): Promise<UnitBackend> {
  return backendProvider(backend.kind).connect(backend, opts);
}
