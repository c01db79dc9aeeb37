// Fixed paths and variable names of the host/image contract (docs/contract.md). The reference
// runner and images use exactly these; keep them stable.

export const CONTAINER_PATHS = {
  entrypoint: '/opt/gaia2-init-entrypoint.sh',
  scenario: '/var/gaia2/custom_scenario.json',
  gaia2Home: '/var/gaia2',
  stateDir: '/var/gaia2/state',
  events: '/var/gaia2/state/events.jsonl',
  daemonStatus: '/var/gaia2/state/daemon_status.json',
  judgments: '/var/gaia2/state/judgments.jsonl',
  userDetails: '/var/gaia2/state/user_details.json',
  notifications: '/var/gaia2/state/notifications.jsonl',
  /** Our addition (Agent2Agent): the app agents' LLM calls, trace.jsonl lines tagged `app_agent`. */
  appAgentsTrace: '/var/gaia2/state/app_agents_trace.jsonl',
  /** Our addition: what the Noise phase injected (settings, planned ENV noise, tool failures). */
  noise: '/var/gaia2/state/noise.jsonl',
  faketime: '/tmp/faketime.rc',
  trace: '/tmp/trace.jsonl',
  /** Our addition: the judge's LLM calls, in the trace format, apart from the agent's. */
  judgeTrace: '/tmp/judge_trace.jsonl',
  eventdLog: '/tmp/gaia2-eventd.log',
  entrypointLog: '/tmp/entrypoint.log',
  /** The reference's mini-swe-agent image writes its agent's trajectory here (its newer runner collects it). */
  miniTrajectory: '/tmp/mini-trajectory.json',
  /** Our addition: everything the runner should collect, in one directory. */
  artifactsDir: '/var/gaia2/artifacts',
  /**
   * Our addition: written by the runner after the scenario (and any extra files) when it
   * delivers them into the running container; the daemon waits for it (GAIA2_SCENARIO_READY).
   */
  scenarioReady: '/var/gaia2/scenario.ready',
  /**
   * Our addition: the agent user's home (the runtimes' HOME). A universe chain carries it from
   * one scenario's unit into the next (docs/protocol.md, "Universe chains").
   */
  agentHome: '/home/agent',
  /**
   * Our addition: where a runner without an archive API uploads a chain's carried home (POST or
   * PUT /files, before the scenario-ready marker); with GAIA2_CARRY_HOME set the entrypoint
   * moves it into agentHome, owned by the agent user, before it starts the agent.
   */
  carriedHomeTar: '/var/gaia2/carry-home.tar',
} as const;

/**
 * Our addition: the agent user's numeric ids (agent-image/setup.sh creates it with these): a
 * universe chain's carried home is written into the next unit owned by them, whatever owner an
 * engine's archive read reported (podman reports root for every file).
 */
export const AGENT_USER = { uid: 1000, gid: 1000 } as const;

/** Files the runner copies out of a finished container: container path → host file name. */
export const ARTIFACT_FILES: ReadonlyArray<readonly [string, string]> = [
  [CONTAINER_PATHS.events, 'events.jsonl'],
  [CONTAINER_PATHS.daemonStatus, 'daemon_status.json'],
  [CONTAINER_PATHS.judgments, 'daemon_judgments.jsonl'],
  [CONTAINER_PATHS.userDetails, 'user_details.json'],
  [CONTAINER_PATHS.notifications, 'notifications.jsonl'],
  [CONTAINER_PATHS.noise, 'noise.jsonl'],
  [CONTAINER_PATHS.faketime, 'faketime.rc'],
  [CONTAINER_PATHS.trace, 'trace.jsonl'],
  [CONTAINER_PATHS.judgeTrace, 'judge_trace.jsonl'],
  [CONTAINER_PATHS.eventdLog, 'eventd.log'],
  [CONTAINER_PATHS.entrypointLog, 'entrypoint.log'],
  [CONTAINER_PATHS.appAgentsTrace, 'app_agents_trace.jsonl'],
  [CONTAINER_PATHS.miniTrajectory, 'mini-trajectory.json'],
];

/**
 * Our addition: directories whose top-level files are collected as `<name>/<file>` (the agent
 * layer's trace directory, contract/agent-layer.ts).
 */
export const ARTIFACT_DIRS: ReadonlyArray<readonly [string, string]> = [['/tmp/gaia2-agent-trace', 'agent-trace']];

export const DEFAULT_ADAPTER_PORT = 8090;

/** Environment variables the image reads. Reference names first, our additions last. */
export const ENV = {
  adapterPort: 'GAIA2_ADAPTER_PORT',
  scenario: 'GAIA2_SCENARIO',
  stateDir: 'GAIA2_STATE_DIR',
  eventId: 'GAIA2_EVENT_ID',
  fsBackingDir: 'GAIA2_FS_BACKING_DIR',
  fsRoot: 'GAIA2_FS_ROOT',
  provider: 'PROVIDER',
  model: 'MODEL',
  apiKey: 'API_KEY',
  baseUrl: 'BASE_URL',
  thinking: 'THINKING',
  maxTokens: 'MAX_TOKENS',
  judgeModel: 'GAIA2_JUDGE_MODEL',
  judgeProvider: 'GAIA2_JUDGE_PROVIDER',
  judgeApiKey: 'GAIA2_JUDGE_API_KEY',
  judgeBaseUrl: 'GAIA2_JUDGE_BASE_URL',
  judgeFinalTurn: 'GAIA2_JUDGE_FINAL_TURN',
  /** The judge's prompt set: default | omnilingual-gaia2 (judge/prompt-sets.ts). */
  judgePromptVersion: 'GAIA2_JUDGE_PROMPT_VERSION',
  /** JSON object merged into every judge request body (llm/extra-body.ts). */
  judgeExtraBody: 'GAIA2_JUDGE_EXTRA_BODY',
  traceFile: 'GAIA2_TRACE_FILE',
  faketime: 'FAKETIME',
  timeSpeed: 'GAIA2_TIME_SPEED',
  notificationMode: 'GAIA2_NOTIFICATION_MODE',
  /** Seconds without agent activity before the daemon ends with status error (default 300). */
  idleTimeout: 'GAIA2_IDLE_TIMEOUT',
  // --- additions of this project ---
  /** Which agent plays: oracle | default | scripted. */
  agent: 'GAIA2_AGENT',
  /** Bearer token required on mutating adapter routes when set. */
  adapterToken: 'GAIA2_ADAPTER_TOKEN',
  /** realtime | fast-forward. */
  clockMode: 'GAIA2_CLOCK_MODE',
  /**
   * exclude | count: whether the time the run's processes wait for a CPU is kept off the
   * simulated clock (the image sets exclude; unset: count, as the reference's clock does).
   */
  clockCpuWait: 'GAIA2_CLOCK_CPU_WAIT',
  /** JSON script for the scripted runtime. */
  script: 'GAIA2_SCRIPT',
  /** Tool surface of the default agent: shell | functions. */
  agentTools: 'GAIA2_AGENT_TOOLS',
  /** Path of a marker file the daemon waits for before it reads the scenario. */
  scenarioReady: 'GAIA2_SCENARIO_READY',
  /**
   * Our addition: set (to 1) when a carried home is uploaded as CONTAINER_PATHS.carriedHomeTar;
   * the entrypoint waits for the scenario-ready marker and moves it into the home before the agent starts.
   */
  carryHome: 'GAIA2_CARRY_HOME',
  /**
   * Our addition: set (to 1) on a chain step whose carry the runner reads through GET /carry: the
   * world daemon may read the agent's private files too (the entrypoint keeps CAP_DAC_OVERRIDE for it).
   */
  carryRead: 'GAIA2_CARRY_READ',
  /** Sealed network: host:port list (comma-separated) the agent user may reach besides loopback. */
  sealAllow: 'GAIA2_SEAL_ALLOW',
  /** Agent2Agent settings, JSON (docs/agent2agent.md); unset = off. */
  a2a: 'GAIA2_A2A',
  /** Agent2Agent: the app agents' base URL. */
  a2aBaseUrl: 'GAIA2_A2A_BASE_URL',
  /** Agent2Agent: the app agents' API key (world daemon only). */
  a2aApiKey: 'GAIA2_A2A_API_KEY',
  /** Noise phase settings, JSON (contract/noise.ts); unset = standard phase. */
  noise: 'GAIA2_NOISE',
  /**
   * Directory of secret volumes: the entrypoint loads each file <dir>/<volume>/<NAME> as the
   * variable NAME before anything starts (how a cluster backend passes keys without env).
   */
  secretsDir: 'GAIA2_SECRETS_DIR',
} as const;
