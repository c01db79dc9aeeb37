// The world daemon process (runs as user gaia2; /opt/gaia2/gaia2d.mjs in the image).
// Order matters for W5: the adapter answers /health and /status first (connected:false,
// status waiting), then the world is seeded and the sockets open; every failure from here on
// ends in a terminal status with a reason, and the process keeps serving /status until the
// container is stopped.
// Nothing runs at import: the image builds a V8 startup snapshot of this bundle
// (scripts/image-bundles.mjs, agent-image/setup.sh), and everything that reads the environment, the clock or the
// process's handles must run in the started process, not in the snapshot builder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { startupSnapshot } from 'node:v8';
import { join } from 'node:path';
import { CONTAINER_PATHS, DEFAULT_ADAPTER_PORT, ENV } from '../contract/paths.js';
import { AGENT_SOCKET_ENV, CLI_SOCKET_ENV, DAEMON_SOCKETS } from '../contract/agent-protocol.js';
import type { DaemonStatus } from '../contract/status.js';
import { SIM_CLOCK_FILE, SIM_CLOCK_FILE_ENV } from '../contract/sim-clock.js';
import {
  artifactPaths,
  createAdapterServer,
  daemonBackend,
  fileBackend,
  listen,
  MessageBuffer,
  openArtifacts,
  openCarry,
  readArtifacts,
  type AdapterBackend,
} from '../adapter/index.js';
import { writeUpload } from '../adapter/upload.js';
import { composeWorld, readScenarioFile } from './compose/compose-world.js';
import { settingsFromEnv, type DaemonSettings } from '../world/config.js';
import { DaemonLog } from '../world/daemon-log.js';
import { serveAgentSocket, serveCliSocket } from '../world/sockets.js';
import { writeStatusFile } from '../world/status-file.js';
import type { WorldDaemon } from '../world/daemon.js';
import { createJudgeBackend, isTypesafeProvider, TYPESAFE_KEY_ENV, type JudgeLlm } from '../judge/index.js';
import { a2aSettingsFromEnv } from '../a2a/settings.js';

/** Written by the entrypoint when the agent process exits; read on SIGUSR1. */
const AGENT_EXIT_FILE = join(DAEMON_SOCKETS.dir, 'agent.exit');
/** Written before exiting on POST /shutdown: tells the entrypoint to end the container. */
const SHUTDOWN_FILE = join(DAEMON_SOCKETS.dir, 'shutdown');

const SCENARIO_WAIT_MS = 120_000;

/** The daemon process: everything from here on happens in the started process. */
function runDaemon(): void {
  // The agent can exit before the world is composed (e.g. a bad script): catch SIGUSR1 from
  // the very start so the default action (terminate) never kills the daemon, and replay it later.
  let agentExitDetail: string | null = null;
  let agentExitListener: ((detail: string) => void) | null = null;
  process.on('SIGUSR1', () => {
    let detail = 'agent runtime process exited';
    try {
      detail += ` (${readFileSync(AGENT_EXIT_FILE, 'utf8').trim()})`;
    } catch {
      /* no detail */
    }
    agentExitDetail = detail;
    agentExitListener?.(detail);
  });

  const env = process.env;
  const log = DaemonLog.toStderr();
  const stateDir = env[ENV.stateDir] || CONTAINER_PATHS.stateDir;
  const statusFile = join(stateDir, 'daemon_status.json');
  const scenarioPath = env[ENV.scenario] || CONTAINER_PATHS.scenario;
  const port = Number(env[ENV.adapterPort] || DEFAULT_ADAPTER_PORT);

  let world: WorldDaemon | null = null;

  /** Terminal error before (or without) a world: status file + log. */
  function failEarly(reason: string): void {
    log.error(`setup failed: ${reason}`);
    const s: DaemonStatus = { status: 'error', turn: 0, nb_turns: 1, num_events: 0, reason };
    writeStatusFile(statusFile, s);
  }

  function judgeLlmFromEnv(extraBody: DaemonSettings['judgeExtraBody']): JudgeLlm | null {
    const model = env[ENV.judgeModel]?.trim();
    if (!model) return null;
    const provider = env[ENV.judgeProvider]?.trim();
    if (!provider) throw new Error(`${ENV.judgeProvider} is not set`);
    // Like the reference, the TypeSafe judge also finds its key under its own variable.
    const key = env[ENV.judgeApiKey]?.trim() || (isTypesafeProvider(provider) ? env[TYPESAFE_KEY_ENV]?.trim() : undefined);
    return createJudgeBackend({
      provider,
      model,
      ...(key ? { apiKey: key } : {}),
      ...(env[ENV.judgeBaseUrl]?.trim() ? { baseUrl: env[ENV.judgeBaseUrl]!.trim() } : {}),
      ...(extraBody ? { extraBody } : {}),
      // The judge's calls are traced apart so that reports can bill agent and judge separately.
      traceFile: CONTAINER_PATHS.judgeTrace,
      labels: { provider: ENV.judgeProvider, extraBody: ENV.judgeExtraBody },
    });
  }

  async function main(): Promise<void> {
    const buffer = new MessageBuffer(Number(env.GAIA2_BUFFER_SIZE) || 200);
    let backend: AdapterBackend = fileBackend(statusFile);
    const { server } = createAdapterServer({
      backend: {
        status: () => backend.status(),
        connected: () => backend.connected(),
        hasConnected: () => backend.hasConnected(),
        info: () => backend.info(),
        post: (t, k) => backend.post(t, k),
      },
      token: env[ENV.adapterToken] || null,
      buffer,
      artifacts: () => readArtifacts(artifactPaths(env)),
      artifactsTar: () => openArtifacts(artifactPaths(env)),
      carryTar: () => openCarry(stateDir, CONTAINER_PATHS.agentHome),
      onShutdown: shutdown,
      putFiles: writeUpload,
      streamFiles: true,
    });
    await listen(server, port);
    log.info(`adapter listening on 0.0.0.0:${port}`);

    // Our runner may put the scenario in after start (overlapping this process's boot); it
    // writes the marker after the scenario and any other files.
    const ready = env[ENV.scenarioReady];
    if (ready) await waitForFile(ready, SCENARIO_WAIT_MS);

    const settings = settingsFromEnv(env);
    const composed = await composeWorld({
      scenario: readScenarioFile(scenarioPath),
      scenarioFile: scenarioPath,
      stateDir,
      settings,
      judgeLlm: judgeLlmFromEnv(settings.judgeExtraBody),
      fsBackingDir: env[ENV.fsBackingDir] || undefined,
      faketimeFile: env.GAIA2_FAKETIME_FILE || CONTAINER_PATHS.faketime,
      simClockFile: env[SIM_CLOCK_FILE_ENV] || SIM_CLOCK_FILE,
      faketime: env[ENV.faketime] || undefined,
      a2a: a2aSettingsFromEnv(env, join(stateDir, 'app_agents_trace.jsonl')),
      log,
      // The last of the scenario's text goes with the last deferred state: collect it then.
      afterStatesParsed: () => (globalThis as { gc?: () => void }).gc?.(),
    });
    world = composed.world;
    // The scenario's text and the parse's garbage are dead now, and the daemon next waits for
    // its agent: one full collection returns them to the system at once (V8 would keep them
    // until its heap reaches its next limit, or ~20 s idle). `gc` is there when the daemon is
    // started with --expose-gc, as the image's entrypoint does (docs/daemon.md, "App state").
    (globalThis as { gc?: () => void }).gc?.();
    backend = daemonBackend(world, buffer);
    const w = world;

    const cliSock = env[CLI_SOCKET_ENV] || DAEMON_SOCKETS.cli;
    await serveCliSocket(w, cliSock, new Set(composed.tools));
    if (settings.agent !== 'oracle') {
      await serveAgentSocket(w, env[AGENT_SOCKET_ENV] || DAEMON_SOCKETS.agent, composed.tools);
    }
    agentExitListener = (detail) => w.agentLost(detail);
    if (agentExitDetail !== null) w.agentLost(agentExitDetail);
    w.start();
    if (composed.oracle) w.markReady();
    log.info(`world ready: agent=${settings.agent}, tools=${composed.tools.join(',')}, judge=${w.judgeMode}${settings.judgePromptVersion && settings.judgePromptVersion !== 'default' ? ` (prompts ${settings.judgePromptVersion})` : ''}`);
    if (composed.appAgents.length > 0) log.info(`Agent2Agent: app agents operate ${composed.appAgents.join(', ')}`);
    const final = await w.finished();
    log.info(`final status ${final.status}: ${final.reason ?? ''}`);
    // Keep serving /status and /messages until the container is stopped.
  }

  /** POST /shutdown: the runner has what it needs; end the daemon, and with it the container. */
  function shutdown(): void {
    if (world && !world.isTerminal) world.fail('shut down by the runner before the scenario finished');
    log.info('shutdown requested by the runner');
    try {
      writeFileSync(SHUTDOWN_FILE, 'runner\n');
    } catch {
      // outside the image (tests): no entrypoint is waiting for it
    }
    process.exit(0);
  }

  function crash(what: string, e: unknown): void {
    const reason = `daemon crashed (${what}): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    if (world && !world.isTerminal) world.fail(reason);
    else if (!world) failEarly(reason);
    else log.error(reason);
  }

  process.on('uncaughtException', (e) => crash('uncaught exception', e));
  process.on('unhandledRejection', (e) => crash('unhandled rejection', e));
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      if (world && !world.isTerminal) world.fail(`daemon stopped by ${sig} before the scenario finished`);
      else if (!world) failEarly(`daemon stopped by ${sig} during setup`);
      process.exit(0);
    });
  }

  main().catch((e: unknown) => {
    const msg = e instanceof Error ? e.message : String(e);
    if (world) world.fail(`daemon error: ${msg}`);
    else failEarly(msg);
  });
}

async function waitForFile(path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`the scenario was never delivered (no ${path} after ${timeoutMs / 1000}s)`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// In the image's snapshot builder the process only records what to run when a container
// starts from the snapshot; everywhere else (tests, images without a snapshot) it runs now.
if (startupSnapshot?.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(runDaemon);
else runDaemon();
