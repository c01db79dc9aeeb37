// Qwen Code's settings and environment for a scenario run (gaia2-runner qwen-code adapter;
// installed as /opt/gaia2-agent/lib/qwen-settings.mjs). Facts of Qwen Code 0.24.4 it relies on:
// a provider is a `modelProviders` entry under an auth type (openai: chat completions through
// the openai SDK; openai-responses; anthropic: @anthropic-ai/sdk; gemini: @google/genai), chosen
// by `security.auth.selectedType` and `model.name`; the entry's `envKey` names the variable it
// reads the key from when a request is made, so the key stays out of every file and argument.

/** How each PROVIDER is spoken: Qwen Code's auth type, the default base URL, where the key may come from. */
const PROVIDERS = {
  'openai-compat': { auth: 'openai', key: ['OPENAI_API_KEY'] },
  openrouter: { auth: 'openai', key: ['OPENROUTER_API_KEY'], base: 'https://openrouter.ai/api/v1' },
  openai: { auth: 'openai-responses', key: ['OPENAI_API_KEY'], base: 'https://api.openai.com/v1' },
  // The SDKs add the version to the path themselves: their base URL is the host's root.
  anthropic: { auth: 'anthropic', key: ['ANTHROPIC_API_KEY'], base: 'https://api.anthropic.com', strip: /\/v1$/ },
  google: { auth: 'gemini', key: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], base: 'https://generativelanguage.googleapis.com', strip: /\/(v1beta|v1)$/ },
};
PROVIDERS.gemini = PROVIDERS.google;

export const PROVIDER_IDS = Object.keys(PROVIDERS);

/** The variable Qwen Code reads the key from (`envKey` of the provider's entry). */
export const KEY_VARIABLE = 'GAIA2_QWEN_KEY';

/** Qwen Code's shell tool, the only tool it is given. */
export const SHELL_TOOL = 'run_shell_command';

/**
 * Every other tool of Qwen Code 0.24.4 (its ToolNames; the omni_* media tools are registered only
 * when asked for). `tools.core` alone still left the control tools (agent, skill, plan mode,
 * worktrees, goals, ask_user_question, …) in its requests: `tools.disabled` keeps them out of its
 * registry, web_fetch and web_search above all.
 */
export const OTHER_TOOLS = [
  'exec', 'edit', 'write_file', 'read_file', 'zoom_image', 'grep_search', 'glob', 'todo_write',
  'save_memory', 'agent', 'skill', 'exit_plan_mode', 'enter_plan_mode', 'web_fetch', 'web_search',
  'image_gen', 'list_directory', 'lsp', 'ask_user_question', 'cron_create', 'cron_list',
  'cron_delete', 'loop_wakeup', 'create_sub_session', 'list_agents', 'task_stop', 'task_create',
  'task_update', 'task_list', 'team_create', 'team_delete', 'team_plan_approval',
  'request_shutdown', 'send_message', 'structured_output', 'monitor', 'notebook_edit', 'tool_call',
  'tool_search', 'read_mcp_resource', 'enter_worktree', 'exit_worktree', 'workflow', 'artifact',
  'record_artifact', 'record_source', 'report_findings', 'get_goal', 'update_goal', 'propose_goal',
  'display_image',
];

/** The base URL the provider's SDK wants. */
export function baseUrl(provider, given) {
  const p = PROVIDERS[provider];
  const url = (given || p.base || '').replace(/\/+$/, '');
  return p.strip ? url.replace(p.strip, '') : url;
}

/** THINKING as Qwen Code's own reasoning effort (each provider maps it onto its API); undefined when unset. */
export function reasoningEffort(level) {
  const l = (level || '').trim().toLowerCase();
  if (l === 'off') return 'none';
  return ['low', 'medium', 'high'].includes(l) ? l : undefined;
}

/** ~/.qwen/settings.json for the run, from the launcher variables (docs/agents.md, "The launcher contract"). */
export function qwenSettings(env) {
  const provider = env.PROVIDER || 'openai-compat';
  const p = PROVIDERS[provider];
  if (!p) throw new Error(`qwen-code speaks ${PROVIDER_IDS.join(', ')}: PROVIDER ${provider} is none of them`);
  const model = env.MODEL || 'gaia2-model';
  const generationConfig = { contextWindowSize: 200_000, ...(Number(env.MAX_TOKENS) > 0 ? { samplingParams: { max_tokens: Number(env.MAX_TOKENS) } } : {}) };
  // Agent2Agent: one expert-agent command runs a whole app-agent conversation and prints only at
  // its end, so with app agents a shell command may run 30 min.
  const shellTimeout = env.GAIA2_APP_AGENTS ? 30 * 60_000 : undefined;
  const effort = reasoningEffort(env.THINKING);
  return {
    security: { auth: { selectedType: p.auth }, folderTrust: { enabled: false } },
    model: { name: model, ...(effort ? { reasoningEffort: effort } : {}), skipNextSpeakerCheck: true, skipLoopDetection: true },
    modelProviders: { [p.auth]: [{ id: model, name: model, baseUrl: baseUrl(provider, env.BASE_URL), envKey: KEY_VARIABLE, generationConfig }] },
    // The shell alone: the app CLIs through it are the agent's only way into the world. `core`
    // limits what is registered at all; deferred tools (tool_search), web search, cron, artifacts,
    // todos and sub-agents are switched off where they have a switch of their own.
    tools: {
      core: [SHELL_TOOL],
      disabled: OTHER_TOOLS,
      approvalMode: 'yolo',
      toolSearch: { enabled: false },
      webSearch: { enabled: false },
      todoWrite: { enabled: false },
      listDirectory: { enabled: false },
      // A PTY (node-pty, which the layer installs as npm does for a user): what `qwen --acp` uses
      // by default. Its plain-pipe fallback settles a command on the child's exit, before the
      // pipe is read, so a command that ends at once could come back `Output: (empty)`.
      shell: { enableInteractiveShell: true, ...(shellTimeout ? { defaultTimeoutMs: shellTimeout } : {}) },
    },
    // No request of its own beside the agent's turns: no tool-batch labels, follow-up
    // suggestions, memory extraction or dreaming, session recaps.
    experimental: { emitToolUseSummaries: false, cron: false, artifact: false, agentTeam: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    ui: { enableFollowupSuggestions: false, enableSpeculation: false, enableUserFeedback: false },
    skills: { disabledLevels: ['project', 'user', 'extension', 'bundled'] },
    agents: { crossSessionMessaging: false },
    general: { enableAutoUpdate: false, showSessionRecap: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    context: { fileName: 'QWEN.md' },
  };
}

/** Variables that would override the settings' provider (Qwen Code reads them as fallbacks or overrides). */
const PROVIDER_VARIABLES = ['OPENAI_BASE_URL', 'OPENAI_MODEL', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'GEMINI_MODEL', 'GOOGLE_GEMINI_BASE_URL', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_GENAI_USE_GCA'];

/** The program's environment: ours without the provider overrides, the key under KEY_VARIABLE, Qwen Code's own switches. */
export function qwenEnv(env) {
  const provider = env.PROVIDER || 'openai-compat';
  const key = [...PROVIDERS[provider].key, 'API_KEY'].map((k) => env[k]).find(Boolean) || '';
  const e = { ...env };
  for (const k of PROVIDER_VARIABLES) delete e[k];
  return {
    ...e,
    [KEY_VARIABLE]: key,
    // One Node process (no relaunch with --expose-gc); no telemetry, statistics or update check.
    QWEN_CODE_NO_RELAUNCH: 'true',
    QWEN_TELEMETRY_ENABLED: 'false',
    QWEN_USAGE_STATISTICS_ENABLED: 'false',
    NO_COLOR: '1',
  };
}
