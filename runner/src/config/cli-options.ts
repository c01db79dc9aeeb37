// The options of `run`, `run-dataset` and the commands built on them (the flags only, for
// registering commands cheaply; cli-flags.ts turns parsed flags into a RunPlan).
import { Option, type Command } from 'commander';
import { AGENT_TOOL_MODES, CLOCK_CPU_WAIT_MODES, DEFAULT_IMAGE, NETWORK_MODES, NOTIFICATION_MODES, RUN_DEFAULTS, THINKING_LEVELS } from '../plan/plan.js';
import { knownAgentNames } from '../agents/index.js';
import type { NoiseFlags } from './noise.js';
import { addGatewayOptions, type GatewayFlags } from './gateway-flags.js';

export interface AgentFlags extends NoiseFlags, GatewayFlags {
  image: string;
  agent?: string;
  agentVersion?: string;
  agentOption?: string[];
  instructionsFile?: string;
  contextWindow?: string;
  script?: string;
  runtime: string;
  adapterPort: string;
  timeout: string;
  healthTimeout: string;
  activityTimeout: string;
  provider?: string;
  model?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  baseUrl?: string;
  thinking: (typeof THINKING_LEVELS)[number];
  tools?: (typeof AGENT_TOOL_MODES)[number];
  maxTokens?: string;
  judgeModel?: string;
  judgeProvider?: string;
  judgeBaseUrl?: string;
  judgeApiKey?: string;
  judgeApiKeyEnv?: string;
  judgePromptVersion?: string;
  judgeExtraBody?: string;
  idleTimeout?: string;
  stuckLoopMinToolCalls?: string;
  maxCostUsd?: string;
  maxRunTokens?: string;
  totalMaxCostUsd?: string;
  totalMaxTokens?: string;
  engineOutageWait?: string;
  volume?: string[];
  outputDir?: string;
  logLevel: string;
  notificationMode: (typeof NOTIFICATION_MODES)[number];
  timeSpeed?: string;
  clockCpuWait?: (typeof CLOCK_CPU_WAIT_MODES)[number];
  network: (typeof NETWORK_MODES)[number];
  a2aAppProp?: string;
  a2aSeed?: string;
  a2aProvider?: string;
  a2aModel?: string;
  a2aBaseUrl?: string;
  a2aApiKeyEnv?: string;
  enableCaching?: boolean;
  errorsAsFailures?: boolean;
}

export interface DatasetFlags extends AgentFlags {
  dataset: string;
  splits?: string;
  limit?: string;
  concurrency: string;
  output?: string;
  passAt: string;
  retry?: boolean;
  nonRecursive?: boolean;
  subset?: string;
  sequences?: string;
  revision: string;
  refreshDataset?: boolean;
  language?: string;
  shardId?: string;
  numShards?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function addAgentOptions(cmd: Command): Command {
  return addGatewayOptions(cmd)
    .option('-i, --image <image>', 'agent image', DEFAULT_IMAGE)
    .option('--agent <name>', `who plays: oracle (replays the answer), default (our LLM agent), scripted (--script), a third-party agent, or external (the agent layer of --image); known: ${knownAgentNames().join(', ')}`)
    .option('--agent-version <version>', "a third-party agent's package version, or latest: the npm registry's newest, recorded exactly (default: the one the runner pins)")
    .option('--agent-option <key=value>', "an agent layer's option (repeatable; docs/agents.md)", collect)
    .option('--instructions-file <file>', "a third-party agent's instructions: a template with the reference's placeholders {{TOOL_LIST}}, {{MESSAGING_TOOLS}}, {{EXEC_TOOL}} (docs/agents.md)")
    .option('--context-window <tokens>', "a third-party agent's own context-window setting ([agent].context_window; codex, openclaw)")
    .option('--script <file>', 'JSON command list for --agent scripted')
    .option('--runtime <cli>', 'container CLI of the reference runner (podman|docker); recorded in run_config.json', 'podman')
    .option('--adapter-port <port>', 'adapter port inside the container (host networking)', String(RUN_DEFAULTS.adapterPort))
    .option('--timeout <seconds>', 'scenario timeout (raised to duration + 60 s when the scenario declares one)', String(RUN_DEFAULTS.timeout))
    .option('--health-timeout <seconds>', 'wait this long for the agent to be ready', String(RUN_DEFAULTS.healthTimeout))
    .option('--activity-timeout <seconds>', 'stop a run with no progress for this long', String(RUN_DEFAULTS.activityTimeout))
    .option('--provider <name>', 'agent LLM provider (anthropic, openai, google, gemini, openai-compat, openrouter)')
    .option('--model <id>', 'agent model id')
    .option('--api-key <key>', 'agent API key (prefer --api-key-env: argv is visible to other users)')
    .option('--api-key-env <VAR>', 'name of the variable holding the agent API key')
    .option('--base-url <url>', 'agent base URL (127.0.0.1/localhost is rewritten to the host gateway in bridge mode)')
    .addOption(new Option('--thinking <level>', 'reasoning effort').choices(THINKING_LEVELS).default('low'))
    .addOption(new Option('--tools <mode>', 'tool surface of the default agent').choices(AGENT_TOOL_MODES).default('shell'))
    .option('--max-tokens <n>', 'output token limit per model call (default: the provider default)')
    .option('--judge-model <id>', 'judge model (default $GAIA2_JUDGE_MODEL; none = hard checks only)')
    .option('--judge-provider <name>', 'judge provider (default $GAIA2_JUDGE_PROVIDER)')
    .option('--judge-base-url <url>', 'judge base URL (default $GAIA2_JUDGE_BASE_URL)')
    .option('--judge-api-key <key>', 'judge API key (prefer --judge-api-key-env)')
    .option('--judge-api-key-env <VAR>', 'name of the variable holding the judge API key')
    .option('--judge-prompt-version <name>', 'prompt set of the soft checks: default or omnilingual-gaia2 (default $GAIA2_JUDGE_PROMPT_VERSION)')
    .option('--judge-extra-body <json>', 'JSON object merged into every judge request, e.g. \'{"reasoning_effort":"low"}\' (default $GAIA2_JUDGE_EXTRA_BODY)')
    .option('--idle-timeout <seconds>', "the world daemon's idle timeout (> 0; default: the daemon's 300 s)")
    .option('--stuck-loop-min-tool-calls <n>', 'end a run as a failure once the agent made the same tool call with the same result N times in a row (N >= 2; default 0: never)')
    .option('--max-cost-usd <usd>', "budget of each scenario run: the agent's model calls through the gateway stop at this many dollars and the run ends as a failure (budget)")
    .option('--max-run-tokens <n>', "budget of each scenario run in tokens (input + output of the agent's model calls)")
    .option('--total-max-cost-usd <usd>', 'budget of the whole run in dollars: once spent, no new scenario run starts')
    .option('--total-max-tokens <n>', 'budget of the whole run in tokens')
    .option('--engine-outage-wait <seconds>', `wait out a container engine outage this long: queued runs wait, runs it failed start again from scratch (0: never wait; default ${RUN_DEFAULTS.engineOutageWait})`)
    .option('--volume <spec>', 'recorded for compatibility; the engine API copies files instead of bind mounts', collect)
    .option('--output-dir <dir>', 'artifact root (result.json, events, traces, reports)')
    .option('--log-level <level>', 'log level', 'INFO')
    .addOption(new Option('--notification-mode <mode>', 'how environment notifications reach the agent').choices(NOTIFICATION_MODES).default('message'))
    .option('--time-speed <factor>', 'simulated clock speed factor (> 0)')
    .addOption(new Option('--clock-cpu-wait <mode>', "exclude: the time a run waits for a CPU (a busy machine) is kept off the simulated clock (our image's default); count: it counts, as under the reference's clock").choices(CLOCK_CPU_WAIT_MODES))
    .addOption(new Option('--network <mode>', 'bridge (the default, sealed: see docs/config.md "Sealed network"), open (bridge, not sealed) or host (not sealed)').choices(NETWORK_MODES).default('bridge'))
    .option('--a2a-app-prop <x>', "Agent2Agent: fraction (0..1) of each scenario's apps operated by app agents (ARE's --a2a_app_prop)")
    .option('--a2a-seed <n>', "Agent2Agent: seed for the choice of apps (default: each scenario's own seed)")
    .option('--a2a-provider <name>', "Agent2Agent: the app agents' provider (default: the agent's)")
    .option('--a2a-model <id>', "Agent2Agent: the app agents' model (default: the agent's)")
    .option('--a2a-base-url <url>', "Agent2Agent: the app agents' base URL (default: the agent's)")
    .option('--a2a-api-key-env <VAR>', "Agent2Agent: name of the variable holding the app agents' API key")
    .option('--enable-caching', 'reuse finished, judged runs whose scenario, image, agent and judge are identical (result cache; GAIA2_RESULT_CACHE)')
    .option('--errors-as-failures', "the run's report counts runs that ended in errors as failed runs (default: leaves them out of every denominator, as the reference does)")
    .option('--noise', 'Noise phase: tool failures and renamed tools, background environment events (reference defaults)')
    .option('--noise-seed <n>', 'seed of the tool failures and the background events (default 0)')
    .option('--tool-failure-probability <p>', 'chance an app command fails, 0..1 (default 0.1)')
    .option('--env-events-per-minute <n>', 'background events per minute of scenario duration (default 10)');
}

/** `datasetRequired: false` for commands that can take the dataset from a config file instead. */
export function addDatasetOptions(cmd: Command, o: { datasetRequired?: boolean } = {}): Command {
  const dataset = new Option('-d, --dataset <path|org/name>', 'scenario dir, .jsonl, single JSON, or Hugging Face dataset id');
  return addAgentOptions(cmd)
    .addOption(o.datasetRequired === false ? dataset : dataset.makeOptionMandatory())
    .option('--splits <list>', 'comma-separated splits (execution,search,ambiguity,adaptability,time or all)')
    .option('--revision <rev>', 'Hugging Face revision (branch, tag or commit)', 'main')
    .option('--language <code>', 'per-language dataset (Omnilingual-Gaia2), e.g. spa_Latn: Hugging Face configs <code>_<split>, splits without time')
    .option('--refresh-dataset', 'download the Hugging Face dataset again even when cached (records the commit it now points to)')
    .option('--limit <n>', 'run only the first N scenarios (after --subset)')
    .option('-j, --concurrency <n>', 'containers in parallel', '1')
    .option('-o, --output <file>', 'extra copy of results.jsonl (always written to <output-dir>/results.jsonl)')
    .option('--pass-at <n>', 'independent runs per scenario (run_1 … run_N)', '1')
    .option('--retry', 'rerun only runs without a judged result (infrastructure errors, missing)')
    .option('--non-recursive', 'only the top level of a dataset directory')
    .option('--subset <manifest>', 'subset manifest JSON ({"splits": {"<split>": [ids]}})')
    .option('--sequences <file>', 'play the scenarios as universe chains: JSONL lines {"universe_id", "cap"?, "scenarios": [{"scenario_id"}]}, each chain in order with the state carried (needs --output-dir)')
    .option('--shard-id <i>', 'run only shard I (0-based) of --num-shards, into <output-dir>/shards/<I>-of-<N>/; merge the shards with `aggregate`')
    .option('--num-shards <n>', 'how many shards the selection (after --subset and --limit) is split into, round-robin');
}

