// OpenClaw, the real program: the openclaw package from npm with its dependencies, run with
// the world image's Node 22 (2026.7.35 is the newest release that accepts Node 22; later ones
// want Node 24). One turn is one embedded run, `openclaw agent --local`, on a session id kept
// across turns; `exec` is its only tool. Every provider of the reference's matrix is declared
// as one custom provider in ~/.openclaw/openclaw.json with the API kind it speaks.
import type { AgentAdapter } from './adapter.js';
import { KIT } from './launcher-kit.js';

const LAUNCHER = `#!/bin/bash
# One turn of OpenClaw (gaia2-runner openclaw adapter; docs/agents.md).
set -euo pipefail
provider="\${PROVIDER:-anthropic}"
base="\${BASE_URL:-}"
base="\${base%/}"
case "$provider" in
  anthropic) api=anthropic-messages; key="\${ANTHROPIC_API_KEY:-\${API_KEY:-}}"; base="\${base:-https://api.anthropic.com}"; base="\${base%/v1}" ;;
  openai) api=openai-responses; key="\${OPENAI_API_KEY:-\${API_KEY:-}}"; base="\${base:-https://api.openai.com/v1}" ;;
  google|gemini) api=google-generative-ai; key="\${GEMINI_API_KEY:-\${GOOGLE_API_KEY:-\${API_KEY:-}}}"; base="\${base:-https://generativelanguage.googleapis.com/v1beta}" ;;
  openrouter) api=openai-completions; key="\${OPENROUTER_API_KEY:-\${API_KEY:-}}"; base="\${base:-https://openrouter.ai/api/v1}" ;;
  openai-compat|openai-completions)
    api=openai-completions; key="\${OPENAI_COMPAT_API_KEY:-\${API_KEY:-}}"
    [ -n "$base" ] || { echo "openclaw: PROVIDER=$provider needs BASE_URL (the chat-completions endpoint's base)" >&2; exit 2; } ;;
  *) echo "openclaw speaks anthropic, openai, openai-compat, google and openrouter, not PROVIDER=$provider" >&2; exit 2 ;;
esac
[ -n "\${MODEL:-}" ] || { echo "openclaw: MODEL is not set" >&2; exit 2; }
reasoning=true
[ "\${THINKING:-}" = off ] && reasoning=false
export GAIA2_OPENCLAW_KEY="$key"
# Nothing but the model endpoint: no update check, plugins, mDNS, channels, cron or respawn.
export OPENCLAW_NO_AUTO_UPDATE=1 OPENCLAW_DISABLE_BONJOUR=1 OPENCLAW_SKIP_CHANNELS=1 OPENCLAW_SKIP_CRON=1 \\
  OPENCLAW_NO_RESPAWN=1 OPENCLAW_NO_ONBOARD=1 OPENCLAW_SKIP_GMAIL_WATCHER=1 OPENCLAW_SKIP_CANVAS_HOST=1
mkdir -p "$HOME/.openclaw"
GAIA2_OC_API="$api" GAIA2_OC_BASE="$base" GAIA2_OC_REASONING="$reasoning" node -e '
  const e = process.env;
  const model = { id: e.MODEL, name: e.MODEL, reasoning: e.GAIA2_OC_REASONING === "true", input: ["text"],
    contextWindow: 200000, maxTokens: Number(e.MAX_TOKENS) || 16384 };
  const config = {
    models: { providers: { gaia2: { baseUrl: e.GAIA2_OC_BASE, apiKey: "\${GAIA2_OPENCLAW_KEY}", api: e.GAIA2_OC_API, models: [model] } } },
    agents: { defaults: { skipBootstrap: true, model: { primary: "gaia2/" + e.MODEL }, workspace: e.GAIA2_WORK_DIR,
      envelopeTimestamp: "off", envelopeElapsed: "off" } },
    tools: { allow: ["exec"], exec: { security: "full", ask: "off" } },
    update: { checkOnStart: false, auto: { enabled: false } },
    // No plugins: the model providers and exec are built in, and loading plugins is most of the start-up of a turn.
    plugins: { enabled: false },
  };
  require("fs").writeFileSync(e.HOME + "/.openclaw/openclaw.json", JSON.stringify(config, null, 2));
'
# OpenClaw reads AGENTS.md of its workspace as instructions.
${KIT} instructions exec > "$GAIA2_WORK_DIR/AGENTS.md"

session="$GAIA2_SESSION_DIR/openclaw-session-id"
[ -s "$session" ] || cat /proc/sys/kernel/random/uuid > "$session"
args=(agent --local --json --session-id "$(cat "$session")" --message-file "$GAIA2_MESSAGE_FILE")
[ -n "\${THINKING:-}" ] && args+=(--thinking "$THINKING")
out="$GAIA2_TRACE_DIR/turn-$GAIA2_TURN.openclaw.json"
rc=0
node "$GAIA2_AGENT_HOME/pkg/node_modules/openclaw/openclaw.mjs" "\${args[@]}" > "$out" || rc=$?
if [ "$rc" -ne 0 ] || [ "$(${KIT} field "$out" meta.aborted)" = "true" ]; then
  echo "openclaw exited with code $rc: $(${KIT} field "$out" error.message error meta.error.message 2>/dev/null || true)" >&2
  exit 1
fi
${KIT} field "$out" meta.finalAssistantVisibleText payloads.0.text
`;

export const openclaw: AgentAdapter = {
  name: 'openclaw',
  summary: 'OpenClaw, the embedded agent (openclaw agent --local), exec as its only tool',
  package: {
    name: 'openclaw',
    version: '2026.7.35',
    install: 'install',
  },
  providers: ['anthropic', 'openai', 'openai-compat', 'google', 'openrouter'],
  thinking: true,
  launcher: LAUNCHER,
};
