// A child process of bench/gateway-overhead.ts: `provider` (a streaming Anthropic double) or
// `gateway` (the model gateway in front of it), each in its own process as in a real run (the
// gateway lives in the runner, the clients in containers, the provider elsewhere). Prints one
// JSON line with what the parent needs, then serves until killed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NO_LIMITS } from '../../runner/src/config/gateway.js';
import { kindOf } from '../../runner/src/gateway/api-kinds.js';
import { startGateway } from '../../runner/src/gateway/server.js';

const [role, arg] = process.argv.slice(2);
const EVENTS = 60;
const GAP_MS = 2;

if (role === 'provider') {
  const events = [
    `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 1200, output_tokens: 1 } } })}\n\n`,
    ...Array.from({ length: EVENTS - 2 }, (_, i) => `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `token ${i} ` } })}\n\n`),
    `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: EVENTS } })}\n\n`,
  ];
  const server = createServer((req, res) => {
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
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, events: EVENTS, gapMs: GAP_MS })));
} else if (role === 'gateway') {
  const gw = await startGateway({
    upstreams: [{ id: 'anthropic', provider: 'anthropic', spec: kindOf('anthropic')!, base: arg!, key: 'sk-bench' }],
    plan: { limits: { default: NO_LIMITS, byKey: {} }, retryAttempts: 3, retryBudgetSeconds: 60 },
    prices: null,
  });
  const token = gw.tokens.issue({ runId: 'bench', container: 'c', role: 'agent', upstream: 'anthropic', dir: null, scenario: 's', runIndex: null, recordKey: 's' });
  console.log(JSON.stringify({ url: `${gw.baseUrl('anthropic')}/v1`, token }));
}
