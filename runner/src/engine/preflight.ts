// The capability check of a run's needs, shared by every backend's `preflight`: host
// networking, services on this machine's loopback and files a unit must get before it starts
// are refused here, before any unit, and nowhere else.
import { UPLOAD_ROOT } from '@gaia2/contract/routes';
import { ConfigError } from '../plan/errors.js';
import { checkNoLoopback } from './loopback-refusal.js';
import type { RunNeeds, UnitBackend } from './types.js';

export async function checkRunNeeds(backend: Pick<UnitBackend, 'capabilities' | 'describe'>, needs: RunNeeds): Promise<void> {
  const { hostNetwork, hostServices, filesAtCreate } = backend.capabilities;
  if (hostNetwork && hostServices && filesAtCreate) return;
  const d = await backend.describe();
  if (needs.network === 'host' && !hostNetwork)
    throw new ConfigError(
      `network = "host" (--network host) is not possible on the ${d.remote ? 'remote ' : ''}${d.kind} backend at ${d.endpoint}: its units do not share this machine's network; use network = "bridge"`,
    );
  if (!hostServices) checkNoLoopback(needs.env, `units of the ${d.kind} backend`);
  // Files under the upload root go in through the adapter once the unit runs; others only at create.
  const early = filesAtCreate ? [] : (needs.files ?? []).filter((f) => !f.path.startsWith(UPLOAD_ROOT));
  if (early.length) {
    const settings = [...new Set(early.map((f) => f.setting))].join(', ');
    throw new ConfigError(
      `the ${d.kind} backend cannot copy files into its units (${early.map((f) => f.path).join(', ')}, asked for by ${settings}); only files under ${UPLOAD_ROOT} reach them, through the adapter: unset ${settings} for this backend`,
    );
  }
}
