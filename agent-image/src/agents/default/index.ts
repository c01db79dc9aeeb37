// The default runtime: an LLM agent playing Gaia2 scenarios through the app CLIs.
export { runDefaultAgent, buildTools, failureReply, type AgentHost, type AgentOutcome } from './runtime.js';
export { AgentSession, type RunResult, type RunHooks, type SessionOptions, type StepInfo, type StopReason } from './session.js';
export { agentOptionsFromEnv, AGENT_ENV, DEFAULT_AGENT_OPTIONS, type AgentOptions } from './options.js';
export { buildSystemPrompt, type PromptInput, type ToolMode } from './prompt.js';
export { createShellTool, runShellCommand, shellEnv, SHELL_TOOL_NAME, type ShellToolOptions } from './shell-tool.js';
export { createFunctionTools, createTimeTool, argvFor, functionName, TIME_TOOL_NAME, type CliRunner, type CliRunResult } from './function-tools.js';
export { formatOutcome, truncateMiddle } from './tool-output.js';
