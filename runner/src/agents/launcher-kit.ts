// What every third-party layer shares: the kit in runner/src/agents/kit/ (real files, installed
// in each layer as /opt/gaia2-agent/lib/ and run with the world image's Node):
//   gaia2-kit.mjs     for bash launchers: instructions, a JSON field, the $THINKING word
//   instructions.mjs  the Gaia2 instructions every agent gets (this project's own text)
//   serve-kit.mjs     the serve contract's side of a bridge (bin/agent-serve)
//   json-rpc.mjs      JSON-RPC over a program's stdio (ACP, Codex's app-server)
//   acp-client.mjs    the client side of the Agent Client Protocol on json-rpc.mjs (Gemini CLI's --acp)
//   acp-bridge.mjs    a bridge's session, turns and exit on acp-client.mjs (gemini-cli, opencode, acp)
//   acp-steps.mjs     an ACP program's session/update notifications as steps (acp-steps.jsonl)

/** The kit's directory, relative to the gaia2-runner package directory. */
export const KIT_DIR = 'runner/src/agents/kit';

/** Where the kit goes, relative to the layer's home. */
export const KIT_LAYER_DIR = 'lib';

/** The bash kit's path relative to the layer's home. */
export const KIT_FILE = `${KIT_LAYER_DIR}/gaia2-kit.mjs`;

/** How a bash launcher calls the kit. */
export const KIT = `node "$GAIA2_AGENT_HOME/${KIT_FILE}"`;
