// Scripted fake LLM servers for tests: real wire formats on 127.0.0.1, no network.
//
//   const fake = await startFakeLlm({ format: 'anthropic', script: [call('shell', { command: 'ls' }), say('done')] });
//   createModel({ provider: 'anthropic', model: 'm', apiKey: 'k', baseUrl: fake.url, thinking: 'off' });
//   … fake.requests[0].body (what the client sent) …
//   await fake.close();
//
// Formats: 'openai-chat' (…/chat/completions), 'openai-responses' (…/responses), 'anthropic'
// (…/messages), 'gemini' (…/models/<m>:generateContent | :streamGenerateContent). Streaming
// (SSE) is answered when the request asks for it. Each HTTP call takes the next script entry:
// a reply (say/call, with optional usage, reasoning, delayMs) or a failure (fail(429, 2) sends
// retry-after: 2 and the format's own error body); `respond` computes each answer from the
// request instead (a model that reads its conversation). From a container, bind host '0.0.0.0' and
// give the agent fake.urlFor('host.containers.internal').
export { startFakeLlm, type FakeBilling, type FakeLlm, type FakeLlmOptions, type RecordedRequest } from './server.js';
export {
  say,
  call,
  fail,
  type FakeFormat,
  type FakeReply,
  type FakeFailure,
  type FakeScriptItem,
  type FakeToolCall,
  type FakeUsage,
} from './script.js';
export { readRequest, type ConversationItem, type ReadRequest } from './conversation.js';
export { shellDriver, shellExchanges, spokenText, type AgentShell, type DriverTurn, type ShellDriver } from './shell-driver.js';
export { CLAUDE_CODE_SHELL, clineShell, CODEX_SHELL, copilotShell, GEMINI_CLI_SHELL, openclawShell, opencodeShell, qwenCodeShell } from './agent-shells.js';
