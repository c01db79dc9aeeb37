// OpenCode's configuration and environment for a scenario run (gaia2-runner opencode adapter;
// installed as /opt/gaia2-agent/lib/opencode-config.mjs). Facts of OpenCode 1.18.33 it relies on:
// the AI SDK provider packages (@ai-sdk/openai-compatible, anthropic, openai, google) are bundled
// in its binary, so a provider entry with `npm` naming one of them installs nothing; a provider
// of our own id keeps models.dev's catalogue out of it; `{env:NAME}` in the config is read from
// the environment when the config loads, so the key stays out of every file and argument.

/** How each PROVIDER is spoken: the AI SDK package, and the path its base URL must end with. */
const PROVIDERS = {
  'openai-compat': { npm: '@ai-sdk/openai-compatible', key: ['OPENAI_API_KEY'] },
  openrouter: { npm: '@ai-sdk/openai-compatible', key: ['OPENROUTER_API_KEY'], base: 'https://openrouter.ai/api/v1' },
  openai: { npm: '@ai-sdk/openai', key: ['OPENAI_API_KEY'], base: 'https://api.openai.com/v1' },
  anthropic: { npm: '@ai-sdk/anthropic', key: ['ANTHROPIC_API_KEY'], base: 'https://api.anthropic.com', suffix: '/v1' },
  google: { npm: '@ai-sdk/google', key: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], base: 'https://generativelanguage.googleapis.com', suffix: '/v1beta' },
};
PROVIDERS.gemini = PROVIDERS.google;

export const PROVIDER_IDS = Object.keys(PROVIDERS);

/** The variable OpenCode reads the key from (`{env:…}` in the config). */
export const KEY_VARIABLE = 'GAIA2_OPENCODE_KEY';

/** The base URL the AI SDK package wants: anthropic's ends in /v1, google's in /v1beta (either may come without). */
export function baseUrl(provider, given) {
  const p = PROVIDERS[provider];
  const url = (given || p.base || '').replace(/\/+$/, '');
  if (!p.suffix) return url;
  return url.replace(/\/(v1beta|v1)$/, '') + p.suffix;
}

/** THINKING as the AI SDK package's own option of the model ({} when off or unset). */
export function thinkingOptions(provider, level) {
  const l = (level || '').trim().toLowerCase();
  const at = ['low', 'medium', 'high'].indexOf(l);
  const budget = [2048, 8192, 24576][at];
  const npm = PROVIDERS[provider].npm;
  if (npm === '@ai-sdk/anthropic') return at < 0 ? {} : { thinking: { type: 'enabled', budgetTokens: budget } };
  if (npm === '@ai-sdk/google') return l === 'off' ? { thinkingConfig: { thinkingBudget: 0 } } : at < 0 ? {} : { thinkingConfig: { thinkingBudget: budget, includeThoughts: true } };
  return at < 0 ? {} : { reasoningEffort: l };
}

/** opencode.json for the run, from the launcher variables (docs/agents.md, "The launcher contract"). */
export function opencodeConfig(env) {
  const provider = env.PROVIDER || 'openai-compat';
  if (!PROVIDERS[provider]) throw new Error(`opencode speaks ${PROVIDER_IDS.join(', ')}: PROVIDER ${provider} is none of them`);
  const model = env.MODEL || 'gaia2-model';
  const output = Number(env.MAX_TOKENS) > 0 ? Number(env.MAX_TOKENS) : 32_000;
  return {
    $schema: 'https://opencode.ai/config.json',
    model: `gaia2/${model}`,
    small_model: `gaia2/${model}`,
    enabled_providers: ['gaia2'],
    provider: {
      gaia2: {
        npm: PROVIDERS[provider].npm,
        name: `gaia2 (${provider})`,
        options: { baseURL: baseUrl(provider, env.BASE_URL), apiKey: `{env:${KEY_VARIABLE}}` },
        models: { [model]: { name: model, tool_call: true, reasoning: true, limit: { context: 200_000, output }, options: thinkingOptions(provider, env.THINKING) } },
      },
    },
    // bash only: the app CLIs through it are the agent's only way into the world (OpenCode 1.18
    // offers no tool at all when the others are listed one by one as false, so `*` says it).
    // The container is the sandbox: bash runs without asking; every other tool is denied.
    permission: { '*': 'deny', bash: 'allow' },
    tools: { '*': false, bash: true },
    autoupdate: false,
    share: 'disabled',
    snapshot: false,
    lsp: false,
    formatter: false,
    mcp: {},
    plugin: [],
  };
}

/** The program's environment: ours, the key under KEY_VARIABLE, the config whole, and OpenCode's own switches for what phones home. */
export function opencodeEnv(env, config) {
  const provider = env.PROVIDER || 'openai-compat';
  const key = [...PROVIDERS[provider].key, 'API_KEY'].map((k) => env[k]).find(Boolean) || '';
  return {
    ...env,
    [KEY_VARIABLE]: key,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    // models.dev's catalogue (fetched at start-up and hourly), the update check, sharing.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    // Language servers it would download, default plugins, Claude Code's files and skills from elsewhere.
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
    OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER: '1',
    NO_COLOR: '1',
    // Agent2Agent: one expert-agent command runs a whole app-agent conversation and prints only at
    // its end; OpenCode's bash tool ends a command after its default timeout (minutes), so with
    // app agents a command may run 30 min.
    ...(env.GAIA2_APP_AGENTS ? { OPENCODE_EXPERIMENTAL_BASH_DEFAULT_TIMEOUT_MS: String(30 * 60_000) } : {}),
  };
}
