// Scripted fake LLM servers for tests: real wire formats on 127.0.0.1, no network.
export { startFakeLlm, type FakeLlm, type FakeLlmOptions, type RecordedRequest } from './server.js';
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
