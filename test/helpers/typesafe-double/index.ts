// A stand-in for TypeSafe's System One service (the Jev judge's backend) on real HTTP: POST
// <base>/systemone with a bearer key and {model, state, questions}; it answers each "noul"
// question with a probability as {model, answers: {<key>: {type: "noul", noul: p}}}, the
// shape the reference's adapter reads. Each call takes the next script entry (a probability,
// an HTTP failure, or a raw body); `respond` computes the probability from the request
// instead (a scorer that reads the candidate). Every request is recorded.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOutsideEphemeral } from '../listen-port.js';

export interface TypesafeRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (the raw text when it is not JSON). */
  body: any;
}

export type TypesafeScriptItem = number | { status: number } | { raw: string };

export interface TypesafeDoubleOptions {
  script?: TypesafeScriptItem[];
  /** Probability for a request once the script is used up (or always, before the script, when it returns a number). */
  respond?: (req: TypesafeRequest) => number | undefined;
  /** The key the service accepts; other keys get 401. */
  apiKey?: string;
  /** The model id the service reports having answered with. */
  answeredModel?: string;
  host?: string;
}

export interface TypesafeDouble {
  /** Base URL to give as the judge's base_url (ends in /v1). */
  url: string;
  urlFor(hostname: string): string;
  requests: TypesafeRequest[];
  close(): Promise<void>;
}

export async function startTypesafeDouble(opts: TypesafeDoubleOptions = {}): Promise<TypesafeDouble> {
  const script = [...(opts.script ?? [])];
  const requests: TypesafeRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* recorded as text */
      }
      const path = (req.url ?? '').split('?')[0]!;
      const rec: TypesafeRequest = { path, headers: req.headers, body };
      requests.push(rec);
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (req.method !== 'POST' || path !== '/v1/systemone') return send(404, { error: { message: 'not found' } });
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) return send(401, { error: { message: 'invalid api key' } });
      if (!body || typeof body !== 'object' || typeof body.model !== 'string' || !body.questions || body.state === undefined) {
        return send(422, { error: { message: 'model, state and questions are required' } });
      }
      const computed = opts.respond?.(rec);
      const item: TypesafeScriptItem | undefined = computed ?? script.shift();
      if (item === undefined) return send(400, { error: { message: 'script exhausted' } });
      if (typeof item === 'object' && 'status' in item) return send(item.status, { error: { message: `scripted ${item.status}` } });
      if (typeof item === 'object' && 'raw' in item) return send(200, item.raw);
      const answers: Record<string, unknown> = {};
      for (const [key, q] of Object.entries(body.questions as Record<string, { type?: string }>)) {
        if (q?.type === 'noul') answers[key] = { type: 'noul', noul: item };
      }
      send(200, { model: opts.answeredModel ?? `${body.model}-20260917`, answers });
    });
  });
  await listenOutsideEphemeral(server, opts.host ?? '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    urlFor: (hostname) => `http://${hostname}:${port}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
