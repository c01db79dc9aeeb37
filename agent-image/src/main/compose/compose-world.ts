// Builds a ready-to-start world from a scenario: seeds app state, loads the scenario model,
// creates the judge (when the reference would) and the daemon, and attaches the in-process
// oracle when asked. Used by the image entry point, tests and benchmarks alike.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initWorld, resolveScenarioTools } from '../../apps/index.js';
import { scenarioApps } from '../../apps/registry.js';
import { worldStates } from '../../world/apps-gateway.js';
import { Judge, type JudgeLlm } from '../../judge/index.js';
import { contactsStates, loadScenario, type LoadedScenario, type UserDetails } from '../../scenario/index.js';
import { parsePyJson, whenAllParsed } from '../../contract/pyjson.js';
import { OracleAgent } from '../../agents/oracle/oracle-agent.js';
import { WorldDaemon, type WorldDaemonOptions } from '../../world/daemon.js';
import { DaemonLog } from '../../world/daemon-log.js';
import { SettingsError, type DaemonSettings } from '../../world/config.js';
import { readUserDetails, writeUserDetails } from '../../world/user-details.js';
import { parseSimTime } from '../../world/clock.js';
import { CpuWaitMeter } from '../../world/cpu-wait.js';
import { AppAgents, chooseAppAgentApps, type A2aSettings } from '../../a2a/index.js';
import { applyNoise, type AppliedNoise } from '../../noise/index.js';

/** The apps' states: `apps[i].app_state` (the top object 0, its `apps` list 1, an app's entry 2). */
const APP_STATES = { keys: new Set(['app_state']), depth: 2 } as const;

export interface ComposeOptions {
  /** Scenario JSON text or parsed value, and a name for error messages. */
  scenario: string | unknown;
  scenarioFile?: string;
  stateDir: string;
  settings: DaemonSettings;
  /** Soft-check engine; none → hard checks only. */
  judgeLlm?: JudgeLlm | null;
  fsBackingDir?: string;
  faketimeFile?: string | null;
  /** Where the simulated clock is published (contract/sim-clock.ts); null/absent: nowhere. */
  simClockFile?: string | null;
  log?: DaemonLog;
  /** Skip seeding (state already initialised). */
  skipInit?: boolean;
  ids?: () => string;
  /** FAKETIME ("YYYY-MM-DD HH:MM:SS" UTC): the start when the scenario has no start_time. */
  faketime?: string;
  /** Agent2Agent settings (GAIA2_A2A); null/absent: every app is the agent's own. */
  a2a?: A2aSettings | null;
  /** Where the Noise phase records what it injected (settings.noise set); default <stateDir>/noise.jsonl. */
  noiseFile?: string;
  /** See WorldDaemonOptions.afterStatesParsed. */
  afterStatesParsed?: () => void;
}

export interface ComposedWorld {
  world: WorldDaemon;
  scenario: LoadedScenario;
  /** Agent-visible CLI names of the scenario's apps, sorted. */
  tools: string[];
  oracle: OracleAgent | null;
  /** Agent2Agent: scenario app names operated by app agents, in ARE's sampling order. */
  appAgents: string[];
}

export async function composeWorld(o: ComposeOptions): Promise<ComposedWorld> {
  const file = o.scenarioFile ?? '<scenario>';
  // The apps' states are the bulk of a universe: their text is only skipped now, and each is
  // parsed when first read or in the background once the agent is attached (docs/daemon.md, "Boot").
  const given = typeof o.scenario === 'string' ? (parsePyJson(o.scenario, { defer: APP_STATES }) as unknown) : o.scenario;
  const noise: AppliedNoise | null = o.settings.noise ? applyNoise(given, o.settings.noise, o.noiseFile ?? join(o.stateDir, 'noise.jsonl')) : null;
  const raw = noise ? noise.scenario : given;
  const scenario = loadScenario(raw, file);
  if (o.settings.agentChosenBy === 'no PROVIDER' && scenario.oracleEvents.length === 0) {
    // The oracle was chosen only because no LLM was configured; without oracle actions it has
    // nothing to play, so say what to set instead of running an empty agent.
    throw new SettingsError(
      `${file}: neither GAIA2_AGENT nor PROVIDER is set, so the oracle would play, but the scenario has no oracle events; set PROVIDER (and MODEL, API_KEY) for the LLM agent or GAIA2_AGENT`,
    );
  }
  // The daemon keeps the apps' states in memory from here on; their files are written when it persists.
  const states = worldStates();
  const drive = o.skipInit ? null : ((await initWorld(raw, o.stateDir, { fsBackingDir: o.fsBackingDir, states })).drive ?? null);
  const tools = Object.keys(resolveScenarioTools(raw).tools).sort();
  const s = o.settings;
  // The reference builds a judge only for multi-turn scenarios or when the final turn is
  // judged, and never for a scenario without oracle actions.
  // The user's own contact is in the contacts state: with that state deferred, it is found and
  // its file written once the state is parsed (the judge asks for it when it judges; the file
  // is read with the artifacts, after the end of the run has parsed every state).
  const fromState = readUserDetails(o.stateDir);
  const userDetails = (): UserDetails | null => fromState ?? scenario.userDetails;
  whenAllParsed(contactsStates(scenarioApps(raw)), () => {
    const u = userDetails();
    if (u) writeUserDetails(o.stateDir, u);
  });
  const wantJudge = (scenario.nbTurns > 1 || s.judgeFinalTurn) && scenario.oracleEvents.length > 0;
  const judge = wantJudge
    ? new Judge(scenario, { llm: o.judgeLlm ?? null, userDetails, ...(s.judgePromptVersion ? { promptVersion: s.judgePromptVersion } : {}) })
    : null;
  const choices = o.a2a ? chooseAppAgentApps(raw, o.a2a.appProp, o.a2a.seed ?? undefined) : [];
  for (const c of choices) if (!c.cli) o.log?.warn(`Agent2Agent: app ${c.name} was chosen but this image has no such app`);
  const appAgents = o.a2a && choices.length > 0 ? new AppAgents({ settings: o.a2a, choices, stateDir: o.stateDir, ids: o.ids }) : null;
  const opts: WorldDaemonOptions = {
    scenario,
    stateDir: o.stateDir,
    clockMode: s.clockMode,
    speed: scenario.timeIncrement * s.timeSpeed,
    cpuWait: s.clockCpuWait === 'exclude' ? new CpuWaitMeter() : null,
    judge,
    judgeFinalTurn: s.judgeFinalTurn,
    fixes: s.fixes,
    idleTimeoutSec: s.idleTimeoutSec,
    connectTimeoutSec: s.connectTimeoutSec,
    faketimeFile: o.faketimeFile ?? null,
    simClockFile: o.simClockFile ?? null,
    log: o.log,
    ids: o.ids,
    fallbackStart: o.faketime ? parseSimTime(o.faketime) || undefined : undefined,
    appAgents,
    states,
    drive,
    afterStatesParsed: o.afterStatesParsed,
    agentRuntime: { name: s.agent, chosenBy: s.agentChosenBy },
    noise,
  };
  const world = new WorldDaemon(opts);
  let oracle: OracleAgent | null = null;
  if (s.agent === 'oracle') {
    oracle = new OracleAgent(world, scenario);
    world.attachAgent(oracle);
  }
  return { world, scenario, tools, oracle, appAgents: appAgents?.apps ?? [] };
}

/**
 * Reads a scenario file (JSON) for composeWorld: the same text as readFileSync(path, 'utf8')
 * (a leading BOM kept, bad bytes replaced by U+FFFD alike), in a fraction of its time for a
 * large file: on the image's Node 22 a 17.5 MB scenario takes ~150 ms read as 'utf8' and ~50 ms
 * read as bytes and decoded by a TextDecoder (docs/daemon.md, "Boot in the container").
 */
export const readScenarioFile = (path: string): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(readFileSync(path));
