// The world's runtime for an agent layer (GAIA2_AGENT=external): the layer's program kept up for
// the whole scenario run when it ships bin/agent-serve (serve-runtime.ts), else one launcher run
// per delivered message (per-turn.ts). docs/agents.md, "The launcher contract" and "Programs
// that stay up".
import { accessSync, constants, mkdirSync } from 'node:fs';
import type { DaemonConnection } from '../client.js';
import { AGENT_LAYER } from '../../contract/agent-layer.js';
import { AGENT_SERVE_PATH } from '../../contract/agent-serve.js';
import { runPerTurnAgent } from './per-turn.js';
import { runServeAgent } from './serve-runtime.js';
import type { ExternalOutcome, ExternalRuntimeOptions, Layout } from './turn-env.js';

export { turnEnv, type ExternalOutcome, type ExternalRuntimeOptions } from './turn-env.js';

export interface LayerRuntimeOptions extends ExternalRuntimeOptions {
  /** The per-turn launcher (default /opt/gaia2-agent/bin/agent). */
  launcher?: string;
  /** The serve program (default /opt/gaia2-agent/bin/agent-serve); used when it is executable. */
  serve?: string;
  layout?: Layout;
  startTimeoutMs?: number;
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export function runExternalAgent(conn: DaemonConnection, o: LayerRuntimeOptions): Promise<ExternalOutcome> {
  const layout = o.layout ?? AGENT_LAYER;
  for (const d of [layout.workDir, layout.sessionDir, layout.turnsDir, layout.traceDir]) mkdirSync(d, { recursive: true });
  const serve = o.serve ?? AGENT_SERVE_PATH;
  if (executable(serve)) return runServeAgent(conn, { ...o, layout, program: serve });
  return runPerTurnAgent(conn, { ...o, layout, launcher: o.launcher ?? AGENT_LAYER.launcher });
}
