// OpenClaw's way to the model, through a proxy of bin/agent-serve on a loopback port (docs/agents.md
// "OpenClaw"): OpenClaw's provider has the proxy as its base URL, and the proxy sends each request
// on to the run's BASE_URL. Two things happen on the way; the rest passes as it is, streams too.
//
// 1. The request shaping the reference's OpenClaw launcher applies to chat-completions calls, where
//    it changes what the model receives (facts of gaia2-cli/containers/openclaw/launch.mjs):
//    openai-compat sends `stream: false` instead of `stream: true`, and its JSON answer is handed to
//    OpenClaw as the event stream it asked for (text beside tool calls left out, as there); a
//    thinking level other than off adds `reasoning: {effort: LEVEL}` when absent (openrouter:
//    `reasoning: {enabled: true}`, and its stream is kept). The reference tells openrouter by its
//    host name; the run's model gateway stands in front of every provider here, so PROVIDER does.
//    (The reference wraps the process's fetch; OpenClaw 2026.9 sends model calls through undici
//    with dispatchers of its own, so only a proxy reaches them in every release.)
// 2. The warm-up run of agent-serve (a message carrying a random word) is answered here with a
//    refusal: it never leaves the container, no model sees it, no token is billed.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';

/** The body OpenClaw sends, shaped as the reference's launcher sends it; null: unchanged. */
export function shapeBody(body, { openrouter, effort }) {
  let changed = false;
  const out = { ...body };
  if (out.stream && !openrouter) {
    out.stream = false;
    changed = true;
  }
  const thinking = effort && effort !== 'off' && effort !== 'none';
  if (openrouter && thinking) {
    out.reasoning = { enabled: true };
    changed = true;
  } else if (thinking && !out.reasoning) {
    out.reasoning = { effort };
    changed = true;
  }
  return changed ? out : null;
}

const chunk = (meta, choices) => `data: ${JSON.stringify({ ...meta, choices })}\n\n`;

/** A chat completion (JSON) as the chunk stream OpenClaw asked for. */
export function completionToEvents(json) {
  const meta = { id: json.id || `chatcmpl-${Date.now()}`, object: 'chat.completion.chunk', model: json.model || '', created: json.created || Math.floor(Date.now() / 1000) };
  let out = '';
  for (const choice of json.choices || []) {
    const msg = choice.message || {};
    const index = choice.index || 0;
    const calls = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
    out += chunk(meta, [{ index, finish_reason: null, delta: { role: msg.role || 'assistant', content: '' } }]);
    if (msg.reasoning) out += chunk(meta, [{ index, finish_reason: null, delta: { reasoning: msg.reasoning } }]);
    // Text beside tool calls would end OpenClaw's turn before the calls run: left out, as the reference does.
    if (msg.content && calls.length === 0) out += chunk(meta, [{ index, finish_reason: null, delta: { content: msg.content } }]);
    calls.forEach((c, i) => {
      out += chunk(meta, [{ index, finish_reason: null, delta: { tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.function?.name } }] } }]);
      out += chunk(meta, [{ index, finish_reason: null, delta: { tool_calls: [{ index: i, function: { arguments: c.function?.arguments ?? '' } }] } }]);
    });
    out += chunk(meta, [{ index, finish_reason: choice.finish_reason || 'stop', delta: {} }]);
  }
  if (json.usage) out += `data: ${JSON.stringify({ ...meta, choices: [], usage: json.usage })}\n\n`;
  return `${out}data: [DONE]\n\n`;
}

/** What a warm-up run's model call gets. */
export const WARMUP_REFUSAL = { error: { type: 'invalid_request_error', message: 'gaia2 warm-up: no model call' } };

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);
const DROP_BACK = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive']);

async function readAll(req) {
  const parts = [];
  for await (const c of req) parts.push(c);
  return Buffer.concat(parts);
}

/**
 * Starts the proxy on 127.0.0.1 (a free port). `upstream`: the run's base URL (its origin gets
 * the request's path as it is); `provider`: PROVIDER; `effort`: $THINKING; `warmup`: the warm-up's word.
 * Resolves {url, close}: `url` is the base URL for OpenClaw (the upstream's path on the proxy).
 */
export async function startModelProxy({ upstream, provider, effort, warmup, log }) {
  const up = new URL(upstream);
  const chatCompletions = ['openai-compat', 'openai-completions', 'openrouter'].includes(provider);
  const server = createServer(async (req, res) => {
    const ctl = new AbortController();
    res.on('close', () => ctl.abort());
    try {
      let body = await readAll(req);
      if (warmup && body.includes(warmup)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(WARMUP_REFUSAL));
        return;
      }
      let wanted = null;
      if (chatCompletions && req.method === 'POST' && /\/chat\/completions(?:\?|$)/.test(req.url ?? '')) {
        try {
          const parsed = JSON.parse(body.toString('utf8'));
          const shaped = shapeBody(parsed, { openrouter: provider === 'openrouter', effort });
          if (shaped) {
            body = Buffer.from(JSON.stringify(shaped));
            if (parsed.stream === true && shaped.stream === false) wanted = 'events';
          }
        } catch {
          /* not JSON: as it is */
        }
      }
      const headers = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = v;
      const answer = await fetch(new URL(req.url ?? '/', up.origin), {
        method: req.method,
        headers,
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
        signal: ctl.signal,
      });
      const back = {};
      answer.headers.forEach((v, k) => {
        if (!DROP_BACK.has(k)) back[k] = v;
      });
      if (wanted === 'events' && answer.ok) {
        const text = await answer.text();
        let events = null;
        if (!text.trimStart().startsWith('data:')) {
          try {
            events = completionToEvents(JSON.parse(text));
          } catch {
            /* not a completion: as it is */
          }
        }
        if (events !== null) back['content-type'] = 'text/event-stream';
        res.writeHead(answer.status, back);
        res.end(events ?? text);
        return;
      }
      res.writeHead(answer.status, back);
      if (!answer.body) res.end();
      else Readable.fromWeb(answer.body).on('error', () => res.destroy()).pipe(res);
    } catch (e) {
      if (res.headersSent) res.destroy();
      else {
        log?.(`model proxy: ${req.method} ${req.url}: ${e.message}`);
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `the model endpoint could not be reached: ${e.message}` } }));
      }
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const path = up.pathname.replace(/\/+$/, '');
  return { url: `http://127.0.0.1:${port}${path}`, close: () => new Promise((r) => server.close(() => r())) };
}
