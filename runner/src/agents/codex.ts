// Codex (OpenAI), the real program: the linux-x64 platform build of @openai/codex from npm
// (a static musl binary). One turn is one `codex exec` (later turns: `codex exec resume
// THREAD`); its shell tool is `exec_command`. Codex ignores OPENAI_BASE_URL for its built-in
// provider, so the launcher writes a config.toml that declares the endpoint as a provider of
// its own (wire_api = "responses") and switches analytics, feedback, OTel export, the
// update check and the plugins' start-up sync off.
import type { AgentAdapter } from './adapter.js';
import { KIT } from './launcher-kit.js';

const LAUNCHER = `#!/bin/bash
# One turn of Codex (gaia2-runner codex adapter; docs/agents.md).
set -euo pipefail
case "\${PROVIDER:-openai}" in
  openai) ;;
  *) echo "codex speaks the OpenAI Responses API only: PROVIDER must be openai, not \${PROVIDER}" >&2; exit 2 ;;
esac
export GAIA2_CODEX_KEY="\${OPENAI_API_KEY:-\${API_KEY:-}}"
export CODEX_HOME="$HOME/.codex"
mkdir -p "$CODEX_HOME"
base="\${BASE_URL:-https://api.openai.com/v1}"
effort=""
case "\${THINKING:-}" in
  off) effort="none" ;;
  low|medium|high) effort="$THINKING" ;;
esac
{
  echo 'model_provider = "gaia2"'
  [ -n "\${MODEL:-}" ] && printf 'model = "%s"\\n' "$MODEL"
  [ -n "$effort" ] && printf 'model_reasoning_effort = "%s"\\n' "$effort"
  echo 'approval_policy = "never"'
  echo 'sandbox_mode = "danger-full-access"'
  echo 'check_for_update_on_startup = false'
  # The plugins feature syncs a curated plugin list at start-up (api.github.com, then chatgpt.com).
  echo '[features]'
  echo 'plugins = false'
  echo '[analytics]'
  echo 'enabled = false'
  echo '[feedback]'
  echo 'enabled = false'
  echo '[otel]'
  echo 'exporter = "none"'
  echo 'metrics_exporter = "none"'
  echo 'trace_exporter = "none"'
  echo '[model_providers.gaia2]'
  echo 'name = "gaia2"'
  printf 'base_url = "%s"\\n' "\${base%/}"
  echo 'env_key = "GAIA2_CODEX_KEY"'
  echo 'wire_api = "responses"'
} > "$CODEX_HOME/config.toml"
# Codex reads AGENTS.md of its working directory as instructions.
${KIT} instructions exec_command > "$GAIA2_WORK_DIR/AGENTS.md"

codex="$GAIA2_AGENT_HOME/pkg/vendor/x86_64-unknown-linux-musl/bin/codex"
events="$GAIA2_TRACE_DIR/turn-$GAIA2_TURN.codex.jsonl"
last="$GAIA2_TRACE_DIR/turn-$GAIA2_TURN.codex.last.txt"
common=(--json --strict-config --skip-git-repo-check -o "$last")
session="$GAIA2_SESSION_DIR/codex-thread-id"
rc=0
if [ -s "$session" ]; then
  "$codex" exec "\${common[@]}" resume "$(cat "$session")" - < "$GAIA2_MESSAGE_FILE" > "$events" || rc=$?
else
  "$codex" exec "\${common[@]}" - < "$GAIA2_MESSAGE_FILE" > "$events" || rc=$?
  thread="$(${KIT} field "$events" thread_id)"
  [ -n "$thread" ] && echo "$thread" > "$session"
fi
if [ "$rc" -ne 0 ] || ! grep -q '"type":"turn.completed"' "$events"; then
  echo "codex exited with code $rc: $(grep -h '"type":"\\(error\\|turn.failed\\)"' "$events" | tail -n 1)" >&2
  exit 1
fi
cat "$last"
`;

export const codex: AgentAdapter = {
  name: 'codex',
  summary: 'Codex (OpenAI), the linux-x64 build, exec_command as its shell tool',
  package: {
    name: '@openai/codex',
    version: '0.169.0',
    install: 'pack',
    spec: (version) => `@openai/codex@${version}-linux-x64`,
  },
  providers: ['openai'],
  thinking: true,
  layerDir: 'runner/src/agents/codex/layer',
  launcher: LAUNCHER,
};
