// Gemini CLI (Google), the real program: @google/gemini-cli from npm, a bundled JavaScript CLI
// that needs no dependencies (its optional native PTY falls back to plain pipes), run with
// the world image's Node. One turn is one headless run (message on stdin, JSON output);
// later turns resume the session by id. run_shell_command is its only tool.
import type { AgentAdapter } from './adapter.js';
import { KIT } from './launcher-kit.js';

const LAUNCHER = `#!/bin/bash
# One turn of Gemini CLI (gaia2-runner gemini-cli adapter; docs/agents.md).
set -euo pipefail
case "\${PROVIDER:-google}" in
  google|gemini) ;;
  *) echo "gemini-cli speaks the Gemini API only: PROVIDER must be google (or gemini), not \${PROVIDER}" >&2; exit 2 ;;
esac
export GEMINI_API_KEY="\${GEMINI_API_KEY:-\${GOOGLE_API_KEY:-\${API_KEY:-}}}"
unset GOOGLE_API_KEY GOOGLE_CLOUD_PROJECT GOOGLE_GENAI_USE_VERTEXAI
if [ -n "\${BASE_URL:-}" ]; then u="\${BASE_URL%/}"; u="\${u%/v1beta}"; export GOOGLE_GEMINI_BASE_URL="\${u%/v1}"; fi
# No self-relaunch (a second Node start per turn), no trust prompt for the work directory.
export GEMINI_CLI_NO_RELAUNCH=true GEMINI_CLI_TRUST_WORKSPACE=true NO_COLOR=1

model="\${MODEL:-gemini-2.5-pro}"
thinking=""
case "\${THINKING:-}" in
  off) thinking='{"thinkingBudget":0}' ;;
  low|medium|high)
    case "$model" in
      gemini-[3-9]*) thinking="{\\"thinkingLevel\\":\\"$THINKING\\",\\"includeThoughts\\":true}" ;;
      *) thinking="{\\"thinkingBudget\\":$(${KIT} thinking 2048 8192 24576),\\"includeThoughts\\":true}" ;;
    esac ;;
esac
overrides="[]"
[ -n "$thinking" ] && overrides="[{\\"match\\":{\\"model\\":\\"$model\\"},\\"modelConfig\\":{\\"generateContentConfig\\":{\\"thinkingConfig\\":$thinking}}}]"
# Agent2Agent: one expert-agent command runs a whole app-agent conversation and prints only at
# its end; the shell tool kills a command silent for 300 s, so with app agents it waits 30 min.
shell_timeout=300
[ -n "\${GAIA2_APP_AGENTS:-}" ] && shell_timeout=1800
mkdir -p "$HOME/.gemini"
# API-key auth; no usage statistics, telemetry, update checks or folder trust; the shell tool only.
cat > "$HOME/.gemini/settings.json" <<SETTINGS
{
  "security": { "auth": { "selectedType": "gemini-api-key" }, "folderTrust": { "enabled": false } },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "tools": { "core": ["run_shell_command"], "shell": { "inactivityTimeout": $shell_timeout } },
  "modelConfigs": { "overrides": $overrides }
}
SETTINGS
# Gemini CLI reads GEMINI.md of its working directory as context.
${KIT} instructions run_shell_command > "$GAIA2_WORK_DIR/GEMINI.md"

args=(--output-format json --yolo -m "$model")
session="$GAIA2_SESSION_DIR/gemini-session-id"
[ -s "$session" ] && args+=(--resume "$(cat "$session")")
out="$GAIA2_TRACE_DIR/turn-$GAIA2_TURN.gemini.json"
rc=0
node "$GAIA2_AGENT_HOME/pkg/bundle/gemini.js" "\${args[@]}" < "$GAIA2_MESSAGE_FILE" > "$out" || rc=$?
id="$(${KIT} field "$out" session_id 2>/dev/null || true)"
[ -n "$id" ] && echo "$id" > "$session"
if [ "$rc" -ne 0 ] || [ -n "$(${KIT} field "$out" error.message 2>/dev/null || true)" ]; then
  echo "gemini exited with code $rc: $(${KIT} field "$out" error.message 2>/dev/null || true)" >&2
  exit 1
fi
${KIT} field "$out" response
`;

export const geminiCli: AgentAdapter = {
  name: 'gemini-cli',
  summary: 'Gemini CLI (Google), run_shell_command as its only tool',
  package: {
    name: '@google/gemini-cli',
    version: '0.61.0',
    install: 'pack',
  },
  providers: ['google', 'gemini'],
  thinking: true,
  launcher: LAUNCHER,
};
