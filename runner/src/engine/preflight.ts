// The capability check of a run's needs, shared by every backend's `preflight`: host
// networking and services on this machine's loopback are refused here, before any unit, and
// nowhere else.
import { ConfigError } from '../plan/errors.js';
import { checkNoLoopback } from './loopback-refusal.js';
import type { RunNeeds, UnitBackend } from './types.js';

export async function checkRunNeeds(backend: Pick<UnitBackend, 'capabilities' | 'describe'>, needs: RunNeeds): Promise<void> {
  const { hostNetwork, hostServices } = backend.capabilities;
  if (hostNetwork && hostServices) return;
  const d = await backend.describe();
  if (needs.network === 'host' && !hostNetwork)
    throw new ConfigError(
      `network = "host" (--network host) is not possible on the ${d.remote ? 'remote ' : ''}${d.kind} backend at ${d.endpoint}: its units do not share this machine's network; use network = "bridge"`,
    );
  if (!hostServices) checkNoLoopback(needs.env, `units of the ${d.kind} backend`);
}
