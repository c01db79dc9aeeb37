// Claude Code (Anthropic), the real program: the native linux-x64 build from npm (one
// self-contained binary; the @anthropic-ai/claude-code wrapper only picks that platform
// package). One turn is one `claude -p` run: Bash is its only tool, the session is resumed
// with --resume on later turns, and the JSON result's `result` is the reply.
import type { AgentAdapter } from './adapter.js';
import { KIT } from './launcher-kit.js';

const LAUNCHER = `#!/bin/bash
# One turn of Claude Code (gaia2-runner claude-code adapter; docs/agents.md).
set -euo pipefail
case "\${PROVIDER:-anthropic}" in
  anthropic) ;;
  *) echo "claude-code speaks the Anthropic Messages API only: PROVIDER must be anthropic, not \${PROVIDER}" >&2; exit 2 ;;
esac
export ANTHROPIC_API_KEY="\${ANTHROPIC_API_KEY:-\${API_KEY:-}}"
if [ -n "\${BASE_URL:-}" ]; then u="\${BASE_URL%/}"; export ANTHROPIC_BASE_URL="\${u%/v1}"; fi
# Nothing but the model endpoint: no telemetry, error reports, update checks or side traffic.
export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 DISABLE_UPDATES=1 \\
  DISABLE_BUG_COMMAND=1 DISABLE_FEEDBACK_COMMAND=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \\
  CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1 CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1

# Agent2Agent: one expert-agent command runs a whole app-agent conversation; Bash's own limit
# (2 min by default, 10 at most) would cut it, so with app agents it allows 30 minutes.
if [ -n "\${GAIA2_APP_AGENTS:-}" ]; then export BASH_DEFAULT_TIMEOUT_MS=1800000 BASH_MAX_TIMEOUT_MS=1800000; fi

args=(-p --output-format json --tools Bash --allowedTools Bash --permission-mode bypassPermissions)
[ -n "\${MODEL:-}" ] && args+=(--model "$MODEL")
case "\${THINKING:-}" in
  off) export MAX_THINKING_TOKENS=0 ;;
  low|medium|high) export MAX_THINKING_TOKENS="$(${KIT} thinking 2048 8192 24576)"; args+=(--effort "$THINKING") ;;
esac

session="$GAIA2_SESSION_DIR/claude-session-id"
if [ -s "$session" ]; then
  args+=(--resume "$(cat "$session")")
else
  id="$(cat /proc/sys/kernel/random/uuid)"
  echo "$id" > "$session"
  args+=(--session-id "$id")
fi
args+=(--append-system-prompt "$(${KIT} instructions Bash)")

out="$GAIA2_TRACE_DIR/turn-$GAIA2_TURN.claude.json"
rc=0
"$GAIA2_AGENT_HOME/pkg/claude" "\${args[@]}" < "$GAIA2_MESSAGE_FILE" > "$out" || rc=$?
if [ "$(${KIT} field "$out" is_error)" = "true" ] || [ "$rc" -ne 0 ]; then
  echo "claude exited with code $rc: $(${KIT} field "$out" result api_error_status subtype)" >&2
  exit 1
fi
${KIT} field "$out" result
`;

export const claudeCode: AgentAdapter = {
  name: 'claude-code',
  summary: 'Claude Code (Anthropic), the native linux-x64 build, Bash as its tool',
  package: {
    name: '@anthropic-ai/claude-code-linux-x64',
    version: '2.1.332',
    install: 'pack',
  },
  providers: ['anthropic'],
  thinking: true,
  launcher: LAUNCHER,
};
