// The local backend's registration: the Docker Engine API engine found by discovery or
// DOCKER_HOST (engine/index.ts), which may be on another machine. No settings table.
import type { BackendProvider } from './backend-provider.js';
import { LOCAL_ENGINE_CAPABILITIES } from './capabilities.js';

export const LOCAL_BACKEND: BackendProvider<'local'> = {
  kind: 'local',
  title: 'the local engine',
  capabilities: LOCAL_ENGINE_CAPABILITIES,
  table: null,
  resolve: () => ({ kind: 'local' }),
  summary: (_settings, network) => `Network: ${network}`,
  doctorHint(_settings, env) {
    if (env.DOCKER_HOST && !env.DOCKER_HOST.startsWith('unix://')) return 'check DOCKER_HOST and its TLS/SSH settings, and that the engine host answers (docs/engines.md)';
    return 'start one: npm run setup-engine (podman), or set DOCKER_HOST (docs/engines.md)';
  },
  async connect(_settings, opts) {
    const { connectEngine } = await import('./index.js');
    return connectEngine(opts);
  },
};
