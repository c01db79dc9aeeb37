// The one place that turns the configured backend into a UnitBackend: the local engine
// (Docker Engine API, discovered) or a Kubernetes cluster. Sessions, `clean` and `doctor`
// call this; nothing else looks at the backend's kind.
import type { BackendSettings } from '../plan/backend.js';
import { connectEngine, type ConnectOptions } from './index.js';
import type { UnitBackend } from './types.js';

export async function connectBackend(backend: BackendSettings, opts: ConnectOptions = {}): Promise<UnitBackend> {
  if (backend.kind === 'kubernetes') {
    const { connectKubernetes } = await import('./kubernetes/index.js');
    return connectKubernetes(backend, opts.env);
  }
  return connectEngine(opts);
}
