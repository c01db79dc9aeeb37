// The gateway's counts while a run runs: the progress line and `model_gateway.json` in the
// output directory (read by the viewer, so `serve` shows them live) follow them about once a
// second, whenever they change, and take their final values when the run ends.
import { join } from 'node:path';
import { writeJsonAtomic } from '../fsutil/atomic.js';
import type { GatewayStats } from '../gateway/index.js';
import type { Progress } from '../progress/index.js';
import { GATEWAY_COUNTS_FILE, type GatewayCounts } from '../trace/traffic-lines.js';
import { trafficCounts } from './gateway-result.js';

export interface GatewayWatch {
  /** Writes the final counts (running: false) and stops. */
  stop(): Promise<void>;
}

export function gatewayCounts(s: GatewayStats, running: boolean): GatewayCounts {
  const t = trafficCounts(s);
  return { queued: t.queued, throttled: t.throttled, retried: t.retried, gave_up: s.gave_up, requests: s.requests, spent_tokens: s.spent.tokens, spent_usd: s.spent.usd, over_budget: s.over_budget, running };
}

export function watchGateway(stats: () => GatewayStats, o: { outputDir: string | null; progress: Progress; everyMs?: number; log?: (l: string) => void }): GatewayWatch {
  let last = '';
  let writing: Promise<void> = Promise.resolve();
  const publish = (running: boolean) => {
    const c = gatewayCounts(stats(), running);
    const text = JSON.stringify(c);
    if (text === last) return;
    last = text;
    o.progress.traffic?.({ queued: c.queued, throttled: c.throttled, retried: c.retried });
    const dir = o.outputDir;
    if (dir) writing = writing.then(() => writeJsonAtomic(join(dir, GATEWAY_COUNTS_FILE), c)).catch((e: unknown) => o.log?.(`cannot write ${GATEWAY_COUNTS_FILE}: ${(e as Error).message}`));
  };
  publish(true);
  const timer = setInterval(() => publish(true), o.everyMs ?? 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      publish(false);
      await writing;
    },
  };
}
