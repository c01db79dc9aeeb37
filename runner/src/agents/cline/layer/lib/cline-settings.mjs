// Cline's settings and environment for a scenario run (gaia2-runner cline adapter; installed as
// /opt/gaia2-agent/lib/cline-settings.mjs). Facts of Cline 3.0.65 it relies on: its state lives
// under CLINE_DIR (data/settings/providers.json for the provider, global-settings.json for the
// rest), so the separate `cline auth` step is not needed: the file it would write is written
// here. A provider entry without `apiKey` makes Cline read the key from its provider's variable
// (OPENAI_API_KEY for openai-compatible) when a request is made: the key stays out of every file
// and argument. `disabledTools` keeps a tool out of its requests.

/** Cline's shell tool, the only tool it is given. */
export const SHELL_TOOL = 'run_commands';

/**
 * How each PROVIDER is spoken: Cline's provider id, the variable it reads the key from (the first
 * of its provider's `apiKeyEnv`), where our key may come from, and the path its base URL ends with
 * (Cline's own defaults: api.anthropic.com/v1, generativelanguage.googleapis.com/v1beta).
 */
const PROVIDERS = {
  'openai-compat': { id: 'openai-compatible', keyVariable: 'OPENAI_API_KEY', key: ['OPENAI_API_KEY'] },
  openai: { id: 'openai-native', keyVariable: 'OPENAI_API_KEY', key: ['OPENAI_API_KEY'], base: 'https://api.openai.com/v1' },
  anthropic: { id: 'anthropic', keyVariable: 'ANTHROPIC_API_KEY', key: ['ANTHROPIC_API_KEY'], base: 'https://api.anthropic.com', suffix: '/v1' },
  google: { id: 'gemini', keyVariable: 'GEMINI_API_KEY', key: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], base: 'https://generativelanguage.googleapis.com', suffix: '/v1beta' },
  openrouter: { id: 'openrouter', keyVariable: 'OPENROUTER_API_KEY', key: ['OPENROUTER_API_KEY'], base: 'https://openrouter.ai/api/v1' },
};
PROVIDERS.gemini = PROVIDERS.google;

export const PROVIDER_IDS = Object.keys(PROVIDERS);

/**
 * Every other tool Cline 3.0.65 offers (read from the `tools` of its requests), and the ones it
 * adds only for some models or settings (skills, web search, image generation, apply_patch,
 * submit_and_exit): all of them out, so the app CLIs through run_commands are the agent's only
 * way into the world.
 */
export const OTHER_TOOLS = [
  'read_files', 'search_codebase', 'fetch_web_content', 'editor', 'apply_patch', 'ask_question',
  'spawn_agent', 'skills', 'web_search', 'image_generation', 'submit_and_exit',
  'team_spawn_teammate', 'team_shutdown_teammate', 'team_status', 'team_task', 'team_run_task',
  'team_cancel_run', 'team_list_runs', 'team_await_runs', 'team_send_message', 'team_broadcast',
  'team_read_mailbox', 'team_mission_log', 'team_cleanup', 'team_create_outcome',
  'team_attach_outcome_fragment', 'team_review_outcome_fragment', 'team_finalize_outcome',
  'team_list_outcomes',
];

/**
 * The provider-run tools ("model tools") Cline 3.0.65 adds to a request when the provider offers
 * them, out of disabledTools' reach: web_search (anthropic, openai-native, gemini) is switched
 * off under `tools` of its global settings, the one model tool that key takes (another name there
 * makes Cline drop the whole file). openai-native's image_generation has no switch (docs/agents.md).
 */
const MODEL_TOOLS_OFF = { web_search: { enabled: false } };

function providerOf(env) {
  const provider = env.PROVIDER || 'openai-compat';
  const p = PROVIDERS[provider];
  if (!p) throw new Error(`cline speaks ${PROVIDER_IDS.join(', ')}: PROVIDER ${provider} is none of them`);
  return p;
}

/** The base URL Cline's provider wants: anthropic's ends in /v1, google's in /v1beta (either may come without). */
export function baseUrl(provider, given) {
  const p = PROVIDERS[provider];
  const url = (given || p.base || '').replace(/\/+$/, '');
  return p.suffix ? url.replace(/\/(v1beta|v1)$/, '') + p.suffix : url;
}

/** The model of the run. */
export const clineModel = (env) => env.MODEL || 'gaia2-model';

/** data/settings/providers.json: one provider, on BASE_URL, with MODEL, and no key. */
export function clineProviders(env) {
  const p = providerOf(env);
  const settings = { provider: p.id, model: clineModel(env), baseUrl: baseUrl(env.PROVIDER || 'openai-compat', env.BASE_URL) };
  return { version: 1, lastUsedProvider: p.id, modes: {}, providers: { [p.id]: { settings, updatedAt: '2025-01-01T00:00:00.000Z', tokenSource: 'manual' } } };
}

/** data/settings/global-settings.json: the shell alone, no telemetry (its key is telemetryOptOut), no update. */
export function clineGlobalSettings() {
  return { disabledTools: OTHER_TOOLS, tools: MODEL_TOOLS_OFF, toolAutoApprove: true, telemetryOptOut: true, autoUpdateEnabled: false };
}

/** Variables of other providers Cline would otherwise see (a key or base URL for a provider it is not to use). */
const OTHER_PROVIDER_VARIABLES = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENROUTER_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'];

/** The program's environment: ours without other providers' keys, the key under its provider's variable, Cline's state in CLINE_DIR. */
export function clineEnv(env, clineDir) {
  const p = providerOf(env);
  const key = [...p.key, 'API_KEY'].map((k) => env[k]).find(Boolean) || '';
  const e = { ...env };
  for (const k of OTHER_PROVIDER_VARIABLES) delete e[k];
  // In ACP mode Cline 3.0.65 asks the client to sign in (Cline's account, ClinePass or ChatGPT)
  // before a session unless CLINE_API_KEY is set; CLINE_PROVIDER and CLINE_API_KEY then name the
  // provider and key of its sessions (its acpAgent's buildConfig), beside providers.json's model
  // and base URL. The key is the same per-run gateway token, in one more variable of its own.
  return { ...e, [p.keyVariable]: key, CLINE_PROVIDER: p.id, CLINE_API_KEY: key, CLINE_DIR: clineDir, NO_COLOR: '1' };
}
