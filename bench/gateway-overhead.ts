// The model gateway's cost, as ratios against a direct connection measured in the same run,
// interleaved (direct, gateway, direct, …) so machine load hits both alike:
//   latency     = time to the last byte of one streaming answer (an Anthropic SSE stream of 60
//                 events, 2 ms apart, as a provider streams tokens), median over N requests;
//   first byte  = time to the first byte, median (printed in ms: the gateway's added delay);
//   throughput  = requests per second with 16 clients in parallel, each sending R requests.
// Both paths use the same client (fetch) and the same provider double on 127.0.0.1; the
// double and the gateway run in processes of their own, as in a run.
// Goal (issue N): gateway / direct ≤ 1.05 on the streaming latency.
// Run: npm run bench gateway-overhead   (BENCH_N=60 for more samples)
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

const N = Number(process.env.BENCH_N ?? 30);
const CLIENTS = 16;
const R = Number(process.env.BENCH_R ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Provider double and gateway each in a process of their own (bench/lib/gateway-bench-servers.ts).
const children: ChildProcess[] = [];
async function child<T>(...args: string[]): Promise<T> {
  const c = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'lib/gateway-bench-servers.ts'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(c);
  const [line] = await createInterface({ input: c.stdout! })[Symbol.asyncIterator]().next().then((r) => [r.value as string]);
  return JSON.parse(line!) as T;
}
const provider = await child<{ url: string; events: number; gapMs: number }>('provider');
const gateway = await child<{ url: string; token: string }>('gateway', provider.url);
const direct = provider.url;
const token = gateway.token;
const EVENTS = provider.events;
const GAP_MS = provider.gapMs;
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

const viaGateway = gateway.url;
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
for (const c of children) c.kill();
