// The API-server double in its lightweight mode for the Kubernetes scale bench, as a child
// process (so the bench measures the runner's memory alone). Each Pod is an in-process stand-in
// for our adapter that behaves like an oracle run as the runner sees it: /health connected,
// POST /files taken, /status running for UNIT_MS after the files, then the complete status of
// a real run; GET /artifacts serves that real run's files (bench/fixtures/k8s-unit, copied from
// a Kubernetes-backend oracle run); POST /shutdown ends the "container".
// Prints one JSON line {url, token, ca} when it listens.
import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import { join } from 'node:path';
import { FakeRuntime, type FakeAppFactory } from '../../test/helpers/k8s-api-double/runtime/fake.js';
import { startDouble } from '../../test/helpers/k8s-api-double/server.js';

const UNIT_MS = Number(process.env.BENCH_UNIT_MS ?? 2000);
const dir = join(import.meta.dirname, '..', 'fixtures', 'k8s-unit');
const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));
const complete = readFileSync(join(dir, 'daemon_status.json'), 'utf8');

const adapterApp: FakeAppFactory = () => {
  let delivered = 0;
  let exit: (code: number) => void = () => {};
  const exited = new Promise<number>((r) => (exit = r));
  const send = (res: http.ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  return {
    exited,
    handler: (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (path === '/health') return send(res, JSON.stringify({ ok: true, connected: delivered > 0 }));
        if (path === '/files') {
          delivered = Date.now();
          return send(res, JSON.stringify({ ok: true, written: (JSON.parse(Buffer.concat(chunks).toString()) as { files: unknown[] }).files.length }));
        }
        if (path === '/status') return send(res, delivered && Date.now() - delivered >= UNIT_MS ? complete : JSON.stringify({ status: 'running', turn: 0, nb_turns: 1, num_events: 1 }));
        if (path === '/artifacts') return send(res, JSON.stringify({ files, missing: [], unreadable: [] }));
        if (path === '/shutdown') {
          res.on('finish', () => exit(0));
          return send(res, '{"ok":true}');
        }
        res.writeHead(404).end('{}');
      });
    },
  };
};

const d = await startDouble({ runtime: new FakeRuntime(adapterApp) });
process.stdout.write(JSON.stringify({ url: d.url, token: d.token, ca: d.ca }) + '\n');
const stop = () => void d.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
