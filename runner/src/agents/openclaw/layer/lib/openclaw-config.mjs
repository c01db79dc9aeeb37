// OpenClaw's configuration as the reference's OpenClaw image sets it (gaia2-cli/containers/openclaw:
// its openclaw_config.py and Dockerfile; docs/agents.md "OpenClaw"), built from the launcher's
// variables. Facts taken from there: the provider definitions (a provider's built-in definition
// when there is no base URL; with one, a provider of that id with the reference's context window
// and max tokens), run timeout 1200 s, model idle timeout 300 s, plugins on, queue mode "steer",
// exec the only tool, the workspace /home/agent with its empty persona files.
//
// What our runs need differently: the base URL is the run's model gateway and the key is a
// per-container token, given by reference to a variable (never written to a file); the gateway
// listens on a port of our choosing with a token of our own; nothing but the model endpoint is
// contacted. Newer OpenClaw releases renamed some of these keys (2026.9: OpenClaw migrates the
// old ones at start-up, and its migration of messages.messagePrefix turns on the WhatsApp channel
// and installs its plugin from npm): the keys are written in the shape the running release reads.

/** The reference's per-provider model limits, used when a base URL makes the provider custom. */
export const MODEL_LIMITS = {
  anthropic: { contextWindow: 200_000, maxTokens: 64_000 },
  openai: { contextWindow: 272_000, maxTokens: 128_000 },
  google: { contextWindow: 1_048_576, maxTokens: 65_536 },
  compatible: { contextWindow: 262_144, maxTokens: 65_535 },
};

/** The reference's other settings. */
export const REFERENCE = {
  version: '2026.4.1',
  timeoutSeconds: 1200,
  idleTimeoutSeconds: 300,
  queueMode: 'steer',
  sessionKey: 'agent:main:main',
  thinkingDefault: 'low',
  openrouterBaseUrl: 'https://openrouter.ai/api/v1',
};

/** The queue modes OpenClaw knows for a message that arrives during a run. */
export const QUEUE_MODES = ['steer', 'followup', 'collect', 'steer-backlog', 'interrupt', 'queue'];

/** The variable the provider's key is read from by OpenClaw (a `${VAR}` reference in the config). */
export const KEY_VAR = 'GAIA2_OPENCLAW_KEY';

const trimSlash = (u) => (u ?? '').trim().replace(/\/+$/, '');
const first = (...values) => values.find((v) => typeof v === 'string' && v.trim() !== '')?.trim() ?? '';

/** "2026.9.6" → [2026, 9, 6]. */
const parts = (v) => String(v).split(/[.-]/).slice(0, 3).map((x) => Number.parseInt(x, 10) || 0);
/** a ≥ b, as release versions. */
export function atLeast(a, b) {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return true;
}

/** The first release whose configuration keys differ from the reference's (see the header). */
export const RENAMED_KEYS_SINCE = '2026.9.0';

function customModel(model, limits, extra = {}) {
  return { id: model, name: model, ...extra, reasoning: true, input: ['text', 'image'], ...limits };
}

/**
 * The provider of the run: its OpenClaw id, the model reference, the custom provider definition
 * (null: OpenClaw's built-in one) and the key. Throws with a message naming the variable at fault.
 */
export function providerSetup(env) {
  let provider = first(env.PROVIDER, 'anthropic').toLowerCase();
  if (provider === 'gemini') provider = 'google';
  const model = first(env.MODEL);
  if (!model) throw new Error('openclaw: MODEL is not set');
  const base = trimSlash(env.BASE_URL);
  // MAX_TOKENS and [agent].context_window (GAIA2_AGENT_CONTEXT_WINDOW) over the reference's limits.
  const limits = (l) => ({
    ...l,
    ...(Number(env.MAX_TOKENS) > 0 ? { maxTokens: Number(env.MAX_TOKENS) } : {}),
    ...(Number(env.GAIA2_AGENT_CONTEXT_WINDOW) > 0 ? { contextWindow: Number(env.GAIA2_AGENT_CONTEXT_WINDOW) } : {}),
  });
  const key = { ref: `\${${KEY_VAR}}` };
  let custom = null;
  let value = '';
  switch (provider) {
    case 'anthropic':
      value = first(env.ANTHROPIC_API_KEY, env.API_KEY);
      // OpenClaw appends /v1/messages itself.
      if (base) custom = { baseUrl: base.replace(/\/v1$/, ''), api: 'anthropic-messages', models: [customModel(model, limits(MODEL_LIMITS.anthropic))] };
      break;
    case 'openai':
      value = first(env.OPENAI_API_KEY, env.API_KEY);
      if (base) custom = { baseUrl: base, api: 'openai-responses', models: [customModel(model, limits(MODEL_LIMITS.openai))] };
      break;
    case 'google':
      value = first(env.GEMINI_API_KEY, env.GOOGLE_API_KEY, env.API_KEY);
      if (base) custom = { baseUrl: base, api: 'google-generative-ai', authHeader: true, models: [customModel(model, limits(MODEL_LIMITS.google))] };
      break;
    case 'openrouter':
    case 'openai-compat':
    case 'openai-completions': {
      value = provider === 'openrouter' ? first(env.OPENROUTER_API_KEY, env.API_KEY) : first(env.API_KEY, env.OPENAI_COMPAT_API_KEY, env.OPENAI_COMPLETIONS_API_KEY);
      const url = provider === 'openrouter' ? base || trimSlash(env.OPENROUTER_BASE_URL) || REFERENCE.openrouterBaseUrl : base;
      if (!url) throw new Error(`openclaw: PROVIDER=${provider} needs BASE_URL (the chat-completions endpoint's base)`);
      const zero = { cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
      custom = { baseUrl: url, api: 'openai-completions', authHeader: true, models: [customModel(model, { ...limits(MODEL_LIMITS.compatible), ...zero }, { api: 'openai-completions' })] };
      break;
    }
    default:
      throw new Error(`openclaw speaks anthropic, openai, openai-compat, google and openrouter, not PROVIDER=${provider}`);
  }
  if (custom) custom = { ...custom, apiKey: key.ref };
  return { provider, model, ref: `${provider}/${model}`, custom, key: value };
}

/**
 * Variables by which OpenClaw 2026.9 detects a web-search provider from its catalog of external
 * plugins at start-up (the catalog's `envVars`). Finding one, it installs that plugin from npm as
 * a state migration before the gateway starts: OPENROUTER_API_KEY alone brings in the Perplexity
 * plugin, which cannot be installed in a sealed container, so the gateway exited (78, "requires
 * state migration") on every start with openrouter. The agent gets no web search anyway (`exec`
 * is its only tool); with a custom provider the key reaches OpenClaw by reference, so none of
 * these is passed to the gateway.
 */
export const WEB_SEARCH_KEY_VARS = ['BRAVE_API_KEY', 'EXA_API_KEY', 'FIRECRAWL_API_KEY', 'PARALLEL_API_KEY', 'PERPLEXITY_API_KEY', 'OPENROUTER_API_KEY', 'SEARXNG_BASE_URL', 'TAVILY_API_KEY'];

/** The run's environment for the gateway: without the web-search variables when the key goes by reference (a provider entry of ours). */
export function gatewayBaseEnv(env, setup) {
  if (!setup.custom) return { ...env };
  const out = { ...env };
  for (const name of WEB_SEARCH_KEY_VARS) delete out[name];
  return out;
}

/** The variables of the key for OpenClaw: ours by reference from a custom provider, the provider's own for a built-in one. */
export function keyEnv(setup) {
  const env = { [KEY_VAR]: setup.key };
  if (!setup.custom) {
    const own = { anthropic: ['ANTHROPIC_API_KEY'], openai: ['OPENAI_API_KEY'], google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] }[setup.provider] ?? [];
    for (const name of own) env[name] = setup.key;
  }
  return env;
}

/**
 * Provider ids under which 2026.9 rewrites a configured model it deems retired, in the config
 * at start-up and in every model reference: anthropic (claude-sonnet-4-5 becomes
 * claude-sonnet-4-6, older Claude models the newest of their family) and openai (gpt-4o, gpt-5.1
 * … become gpt-5.5). A run must call the model it was asked for, so on those releases the custom
 * provider of such an id is named `gaia2-<id>`: the same API and definition, no rewrite.
 */
const REWRITTEN_PROVIDER_IDS = new Set(['anthropic', 'openai']);

/** The id the custom provider is written under for this release (see REWRITTEN_PROVIDER_IDS). */
export function providerId(setup, version) {
  return setup.custom && atLeast(version, RENAMED_KEYS_SINCE) && REWRITTEN_PROVIDER_IDS.has(setup.provider) ? `gaia2-${setup.provider}` : setup.provider;
}

/**
 * ~/.openclaw/openclaw.json. `o`: version (the running release), port and token (the gateway's),
 * hooksToken, workspace, thinking ($THINKING), queueMode, now (ISO time of the setup record).
 */
export function openclawConfig(setup, o) {
  const renamed = atLeast(o.version, RENAMED_KEYS_SINCE);
  const provider = setup.custom ? { ...setup.custom } : null;
  const id = providerId(setup, o.version);
  if (provider && renamed) provider.timeoutSeconds = REFERENCE.idleTimeoutSeconds;
  const defaults = {
    skipBootstrap: true,
    thinkingDefault: first(o.thinking, REFERENCE.thinkingDefault),
    timeoutSeconds: REFERENCE.timeoutSeconds,
    model: { primary: `${id}/${setup.model}` },
    workspace: o.workspace,
    maxConcurrent: 4,
    subagents: { maxConcurrent: 8 },
    heartbeat: { every: '24h' },
    ...(renamed ? {} : { envelopeTimestamp: 'off', envelopeElapsed: 'off', llm: { idleTimeoutSeconds: REFERENCE.idleTimeoutSeconds } }),
  };
  // 2026.9 unpacks its web dashboard's assets (≈ 1,600 files) into the state directory at start-up;
  // nothing here opens it (the bridge speaks the WebSocket protocol as a backend client).
  const gateway = { bind: 'loopback', mode: 'local', port: o.port, auth: { mode: 'token', token: o.token }, controlUi: renamed ? { enabled: false } : { allowInsecureAuth: true } };
  // Nothing but the model endpoint: 2026.9 refreshes a remote model catalog (catalog.openclaw.ai) at start-up.
  const models = { ...(provider ? { providers: { [id]: provider } } : {}), ...(renamed ? { catalogRefresh: { enabled: false } } : {}) };
  return {
    models,
    agents: { defaults },
    tools: {
      allow: ['exec'],
      // 2026.9 hides a run's tools behind tool_search/tool_describe/tool_call by default; the
      // reference's release has no such surface and offers exec itself.
      // and for the models its catalog prefers it (OpenAI's), replaces every tool with a code-mode
      // pair (exec/wait, exec taking code): off, as in the reference's release.
      ...(renamed ? { toolSearch: false, codeMode: false } : {}),
      exec: renamed ? { mode: 'full', safeBins: [] } : { security: 'full', ask: 'off', safeBins: [] },
      elevated: { enabled: false },
    },
    channels: { defaults: { [renamed ? 'heartbeatVisibility' : 'heartbeat']: { showOk: true, showAlerts: true } } },
    commands: { native: 'auto', nativeSkills: 'auto' },
    // 2026.9 tells the main session about every other session created (here: agent-serve's
    // warm-up, an "untrusted data" block in the agent's first request); the reference's release
    // has no such notice.
    ...(renamed ? { session: { notifyOnCreate: false } } : {}),
    plugins: { entries: {} },
    messages: {
      ...(renamed ? {} : { messagePrefix: 'none' }),
      ackReactionScope: 'group-mentions',
      queue: { mode: o.queueMode || REFERENCE.queueMode },
    },
    hooks: { enabled: true, token: o.hooksToken, path: '/hooks' },
    gateway,
    // Nothing but the model endpoint: no update check (ours; the reference's image had no route out but its proxy).
    update: { checkOnStart: false, auto: { enabled: false } },
    wizard: { lastRunAt: o.now, lastRunVersion: o.version, lastRunCommand: 'doctor', lastRunMode: 'local' },
    meta: { lastTouchedVersion: o.version, lastTouchedAt: o.now },
  };
}

/**
 * ~/.openclaw/exec-approvals.json: every command runs, nothing asks (as the reference's). Null
 * for releases that keep the exec policy in the config (tools.exec.mode) and take that file as a
 * legacy one to migrate (2026.9 refuses to start when it cannot move it).
 */
export function execApprovals(version) {
  if (atLeast(version, RENAMED_KEYS_SINCE)) return null;
  return {
    version: 1,
    defaults: { security: 'full', ask: 'off', askFallback: 'full' },
    agents: { main: { security: 'full', ask: 'off', askFallback: 'full' } },
  };
}

/** The workspace's files besides AGENTS.md: the persona files left empty, and the heartbeat's note. */
export const WORKSPACE_FILES = {
  'SOUL.md': '',
  'TOOLS.md': '',
  'IDENTITY.md': '',
  'USER.md': '',
  'HEARTBEAT.md': 'Act on the environment notifications among the System messages above.\nIf none needs anything done, reply HEARTBEAT_OK.\n',
};
