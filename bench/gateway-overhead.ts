// The model gateway's cost, as ratios against a direct connection measured in the same run,
// interleaved (direct, gateway, direct, …) so machine load hits both alike:
//   latency     = time to the last byte of one streaming answer (an Anthropic SSE stream of 60
//                 events, 2 ms apart, as a provider streams tokens), median over N requests;
//   first byte  = time to the first byte, median (printed in ms: the gateway's added delay);
//   throughput  = requests per second with 16 clients in parallel, each sending R requests.
// Both paths use the same client (fetch) and the same provider double on 127.0.0.1.
// Goal (issue N): gateway / direct ≤ 1.05 on the streaming latency.
// Run: npm run bench gateway-overhead   (BENCH_N=60 for more samples)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NO_LIMITS } from '../runner/src/config/gateway.js';
import { kindOf } from '../runner/src/gateway/api-kinds.js';
import { startGateway } from '../runner/src/gateway/server.js';

const N = Number(process.env.BENCH_N ?? 30);
const CLIENTS = 16;
const R = Number(process.env.BENCH_R ?? 5);
const EVENTS = 60;
const GAP_MS = 2;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const events = [
  `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 1200, output_tokens: 1 } } })}\n\n`,
  ...Array.from({ length: EVENTS - 2 }, (_, i) => `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `token ${i} ` } })}\n\n`),
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: EVENTS } })}\n\n`,
];

const provider = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const next = () => {
      if (i === events.length) return res.end();
      res.write(events[i++]!);
      setTimeout(next, GAP_MS);
    };
    next();
  });
});
await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()));
const direct = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
const gw = await startGateway({
  upstreams: [{ id: 'anthropic', provider: 'anthropic', spec: kindOf('anthropic')!, base: direct, key: 'sk-bench' }],
  plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 3, retryBudgetSeconds: 60 },
  prices: null,
});
const token = gw.tokens.issue({ runId: 'bench', container: 'c', role: 'agent', upstream: 'anthropic', dir: null, scenario: 's', runIndex: null, recordKey: 's' });
const body = JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'x'.repeat(4000) }] });

async function once(base: string, key: string): Promise<{ first: number; last: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/messages`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body });
  const reader = res.body!.getReader();
  let first = 0;
  for (;;) {
    const { done } = await reader.read();
    if (!first) first = performance.now() - t0;
    if (done) break;
  }
  return { first, last: performance.now() - t0 };
}

const viaGateway = `${gw.baseUrl('anthropic')}/v1`;
const lat = { direct: [] as number[], gateway: [] as number[] };
const ttfb = { direct: [] as number[], gateway: [] as number[] };
for (let i = -3; i < N; i++) {
  const d = await once(direct, 'sk-bench');
  const g = await once(viaGateway, token);
  if (i < 0) continue; // warm-up: connections, JIT
  lat.direct.push(d.last);
  lat.gateway.push(g.last);
  ttfb.direct.push(d.first);
  ttfb.gateway.push(g.first);
}

async function throughput(base: string, key: string): Promise<number> {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let i = 0; i < R; i++) await once(base, key);
  }));
  return (CLIENTS * R) / ((performance.now() - t0) / 1000);
}
const tp = { direct: [] as number[], gateway: [] as number[] };
for (let i = 0; i < 3; i++) {
  tp.direct.push(await throughput(direct, 'sk-bench'));
  tp.gateway.push(await throughput(viaGateway, token));
}

const ratio = median(lat.gateway) / median(lat.direct);
console.log(`streaming answer, ${EVENTS} events ${GAP_MS} ms apart, ${N} requests each way (interleaved)`);
console.log(`  latency to last byte: direct ${median(lat.direct).toFixed(1)} ms, gateway ${median(lat.gateway).toFixed(1)} ms → ratio ${ratio.toFixed(3)} (goal ≤ 1.05) ${ratio <= 1.05 ? 'OK' : 'OVER'}`);
console.log(`  time to first byte:   direct ${median(ttfb.direct).toFixed(1)} ms, gateway ${median(ttfb.gateway).toFixed(1)} ms (+${(median(ttfb.gateway) - median(ttfb.direct)).toFixed(1)} ms)`);
console.log(`  throughput, ${CLIENTS} clients × ${R}: direct ${median(tp.direct).toFixed(1)} req/s, gateway ${median(tp.gateway).toFixed(1)} req/s → ratio ${(median(tp.gateway) / median(tp.direct)).toFixed(3)}`);
await gw.close();
provider.closeAllConnections();
provider.close();
