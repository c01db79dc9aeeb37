// What the Docker Engine API backends can do, declared once: the engine classes carry these and
// the registry (engine/registry.ts) shows them; the run's preflight checks a plan against them.
import type { EngineCapabilities } from './types.js';

/** An engine on this machine: its units can share its network and reach its loopback (relays). */
export const LOCAL_ENGINE_CAPABILITIES: EngineCapabilities = {
  hostNetwork: true,
  hostServices: true,
  dryRun: false,
  filesAtCreate: true,
  gatewayBesideUnits: false,
  capAdd: true,
};

/** An engine on another machine: no shared network; this machine's services through tunnels. */
export const REMOTE_ENGINE_CAPABILITIES: EngineCapabilities = { ...LOCAL_ENGINE_CAPABILITIES, hostNetwork: false };
