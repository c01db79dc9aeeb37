// The shell tool of each third-party agent, as its model must call it: names and argument
// shapes read from the `tools` list each program sent (Claude Code 2.1.332, Codex 0.169.0,
// Gemini CLI 0.61.0, OpenClaw, OpenCode 1.18.33, Cline 3.0.65; docs/agents.md).
import type { AgentShell } from './shell-driver.js';
import type { FakeFormat } from './script.js';

/** Claude Code: `Bash {command, timeout?, description?, run_in_background?}` (Anthropic Messages). */
export const CLAUDE_CODE_SHELL: AgentShell = {
  format: 'anthropic',
  tool: 'Bash',
  args: (command) => ({ command, description: 'Run a command of the Gaia2 apps' }),
};

/**
 * Codex: `exec_command {cmd, yield_time_ms?, …}` (OpenAI Responses). A command still running
 * when `yield_time_ms` (default 10 s, at most 30 s) is up comes back as a session to poll,
 * so a waiting command asks for the longest yield.
 */
export const CODEX_SHELL: AgentShell = {
  format: 'openai-responses',
  tool: 'exec_command',
  args: (cmd) => ({ cmd, yield_time_ms: 30_000 }),
};

/** Gemini CLI: `run_shell_command {command, description?, …}` (Gemini API). */
export const GEMINI_CLI_SHELL: AgentShell = {
  format: 'gemini',
  tool: 'run_shell_command',
  args: (command) => ({ command }),
};

/** OpenCode: `bash {command, description, timeout?, workdir?}`, in whichever wire format its provider speaks. */
export const opencodeShell = (format: FakeFormat): AgentShell => ({ format, tool: 'bash', args: (command) => ({ command, description: 'Run a command of the Gaia2 apps' }) });

/** GitHub Copilot CLI: `bash {command, description, shellId?, …}` (1.0.102), called as OpenCode's is. */
export const copilotShell = opencodeShell;

/**
 * OpenClaw: `exec {command, yieldMs?, background?, timeout?, …}`, in whichever wire format its
 * provider speaks. A command still running after `yieldMs` (default 10 s) goes on in the
 * background, so a waiting command asks for a long one.
 */
export const openclawShell = (format: FakeFormat): AgentShell => ({ format, tool: 'exec', args: (command) => ({ command, yieldMs: 240_000 }) });

/** Qwen Code: `run_shell_command {command, is_background, description?, …}`, in whichever wire format its provider speaks. */
export const qwenCodeShell = (format: FakeFormat): AgentShell => ({ format, tool: 'run_shell_command', args: (command) => ({ command, is_background: false }) });

/**
 * Cline: `run_commands {commands: [...]}` (3.0.65), one command a call, in whichever wire format
 * its provider speaks. It sends each command's output back as JSON, `[{query, result, success}]`.
 */
export const clineShell = (format: FakeFormat): AgentShell => ({
  format,
  tool: 'run_commands',
  args: (command) => ({ commands: [command] }),
  output: (result) => {
    try {
      const runs = JSON.parse(result) as Array<{ result?: unknown }>;
      return Array.isArray(runs) ? runs.map((r) => String(r.result ?? '')).join('') : result;
    } catch {
      return result; // not Cline's JSON (an error message of its own): as it came
    }
  },
});
