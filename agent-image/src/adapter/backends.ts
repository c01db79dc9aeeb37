// Where the adapter gets its answers: the live daemon, or (after the daemon died) only the
// status file it left, so the runner still reads a terminal status over HTTP.
import type { WorldDaemon } from '../world/daemon.js';
import { readStatusFile } from '../world/status-file.js';
import type { AdapterBackend } from './server.js';
import type { MessageBuffer } from './message-buffer.js';

export function daemonBackend(world: WorldDaemon, buffer: MessageBuffer): AdapterBackend {
  world.onReply((r) => buffer.push({ run_id: r.runId, state: r.state, message: r.content }));
  return {
    status: () => world.status,
    connected: () => world.isConnected,
    hasConnected: () => world.hasConnected,
    info: () => ({ backend: 'gaia2-world', agent: world.agentName, status: world.status.status, ...(world.agentStarting ? { agent_starting: true } : {}) }),
    post: (text, kind) => (world.isConnected ? world.postMessage(text, kind) : null),
  };
}

export function fileBackend(statusFile: string): AdapterBackend {
  return {
    status: () => readStatusFile(statusFile),
    connected: () => false,
    // The daemon is gone; the status file it left says whether an agent had connected.
    hasConnected: () => (readStatusFile(statusFile) as { ever_connected?: unknown } | null)?.ever_connected === true,
    info: () => ({ backend: 'gaia2-world', daemon: 'exited', status: readStatusFile(statusFile)?.status ?? 'waiting' }),
    post: () => null,
  };
}
