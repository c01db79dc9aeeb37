// The one capability check: what a backend cannot do is refused before the run, naming the
// backend and the option; what it can do passes without asking the backend anything.
import { describe, expect, it } from 'vitest';
import { checkRunNeeds } from '../../../runner/src/engine/preflight.js';
import type { EngineCapabilities, EngineDescription } from '../../../runner/src/engine/index.js';
import { LOCAL_ENGINE_CAPABILITIES } from '../../../runner/src/engine/capabilities.js';
import { ConfigError } from '../../../runner/src/plan/errors.js';

function backend(capabilities: EngineCapabilities, d: Partial<EngineDescription> = {}) {
  const asked: string[] = [];
  return {
    asked,
    capabilities,
    describe: async (): Promise<EngineDescription> => (asked.push('describe'), { kind: 'podman', version: null, apiVersion: null, endpoint: 'tcp://10.0.0.9:2375', remote: true, ...d }),
  };
}

const LOOPBACK = { BASE_URL: 'http://127.0.0.1:8000/v1' };

describe('checkRunNeeds', () => {
  it('a backend that can do everything passes host networking and loopback services without being asked', async () => {
    const b = backend({ ...LOCAL_ENGINE_CAPABILITIES, hostNetwork: true, hostServices: true });
    await checkRunNeeds(b, { network: 'host', env: LOOPBACK });
    expect(b.asked).toEqual([]);
  });

  it('host networking on a backend without it is a ConfigError naming the backend and the option', async () => {
    const b = backend({ ...LOCAL_ENGINE_CAPABILITIES, hostNetwork: false, hostServices: true });
    await expect(checkRunNeeds(b, { network: 'bridge', env: LOOPBACK })).resolves.toBeUndefined();
    const e = await checkRunNeeds(b, { network: 'host', env: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toBe(
      'network = "host" (--network host) is not possible on the remote podman backend at tcp://10.0.0.9:2375: its units do not share this machine\'s network; use network = "bridge"',
    );
  });

  it('a loopback service on a backend whose units cannot reach this machine names the variable and its option', async () => {
    const b = backend({ ...LOCAL_ENGINE_CAPABILITIES, hostNetwork: false, hostServices: false }, { kind: 'kubernetes', endpoint: 'https://k8s:6443 (namespace default)' });
    await expect(checkRunNeeds(b, { network: 'bridge', env: LOOPBACK })).rejects.toThrow(
      /^BASE_URL points at the runner's own machine \(http:\/\/127\.0\.0\.1:8000\), which units of the kubernetes backend cannot reach: set \[agent\]\.base_url/,
    );
    await expect(checkRunNeeds(b, { network: 'bridge', env: { BASE_URL: 'https://llm.example.com/v1' } })).resolves.toBeUndefined();
  });
});
