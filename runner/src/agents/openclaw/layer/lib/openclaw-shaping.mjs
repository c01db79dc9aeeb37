// Loaded into OpenClaw's gateway process (node --import) by bin/agent-serve: the request shaping
// the reference's OpenClaw launcher applies to chat-completions calls, where it changes what the
// model receives (facts of gaia2-cli/containers/openclaw/launch.mjs; docs/agents.md "OpenClaw"):
//   - openai-compat: `stream: true` becomes `stream: false`, and the JSON answer is handed to
//     OpenClaw as the event stream it asked for (text beside tool calls left out, as there);
//   - a thinking level other than off: `reasoning: {effort: LEVEL}` is added when absent
//     (openrouter: `reasoning: {enabled: true}`, and its stream is kept).
// The reference tells openrouter by its host name; here the run's model gateway stands in front
// of every provider, so it is told by PROVIDER. Anthropic, Responses and Gemini calls pass as they are.
//
// And one of ours: bin/agent-serve warms OpenClaw up before it says ready with a run on a session
// of its own whose message carries GAIA2_OC_WARMUP (a random word); that run's model call is
// answered here, with a refusal, and never leaves the process (no request, no tokens).
const provider = (process.env.GAIA2_OC_PROVIDER || '').toLowerCase();
const effort = (process.env.GAIA2_OC_THINKING || '').toLowerCase();
const chatCompletions = provider === 'openai-compat' || provider === 'openai-completions' || provider === 'openrouter';

/** The body OpenClaw would send, shaped as the reference's launcher sends it; null: unchanged. */
export function shapeBody(body, isOpenRouter) {
  let changed = false;
  const out = { ...body };
  if (out.stream && !isOpenRouter) {
    out.stream = false;
    changed = true;
  }
  const thinking = effort && effort !== 'off' && effort !== 'none';
  if (isOpenRouter && thinking) {
    out.reasoning = { enabled: true };
    changed = true;
  } else if (thinking && !out.reasoning) {
    out.reasoning = { effort };
    changed = true;
  }
  return changed ? out : null;
}

const chunk = (meta, choices) => `data: ${JSON.stringify({ ...meta, choices })}\n\n`;

/** A chat completion (JSON) as the chunk stream OpenClaw reads. */
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

const warmup = process.env.GAIA2_OC_WARMUP || '';
/** The refusal a warm-up run's model call gets. */
export const WARMUP_REFUSAL = { error: { type: 'invalid_request_error', message: 'gaia2 warm-up: no model call' } };

{
  const original = globalThis.fetch;
  globalThis.fetch = async function shapedFetch(url, init) {
    if (warmup && typeof init?.body === 'string' && init.body.includes(warmup))
      return new Response(JSON.stringify(WARMUP_REFUSAL), { status: 400, headers: { 'content-type': 'application/json' } });
    if (!chatCompletions) return original.call(this, url, init);
    const href = typeof url === 'string' ? url : (url?.url ?? String(url));
    const method = String(init?.method ?? (typeof url === 'object' ? url?.method : '') ?? '').toUpperCase();
    if (method !== 'POST' || !href.includes('/chat/completions') || typeof init?.body !== 'string') return original.call(this, url, init);
    let body;
    try {
      body = JSON.parse(init.body);
    } catch {
      return original.call(this, url, init);
    }
    const shaped = shapeBody(body, provider === 'openrouter');
    const res = await original.call(this, url, shaped ? { ...init, body: JSON.stringify(shaped) } : init);
    if (!shaped || shaped.stream !== false || body.stream !== true || !res.ok) return res;
    const type = res.headers.get('content-type') || '';
    const text = await res.text();
    if (type.includes('text/event-stream') || text.trimStart().startsWith('data:')) return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    try {
      const headers = new Headers(res.headers);
      headers.set('content-type', 'text/event-stream');
      headers.delete('content-length');
      return new Response(completionToEvents(JSON.parse(text)), { status: res.status, statusText: res.statusText, headers });
    } catch {
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
  };
}
