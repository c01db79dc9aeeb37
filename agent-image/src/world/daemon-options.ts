// What composeWorld (main/compose/compose-world.ts) and tests configure a WorldDaemon with: the scenario, where
// state goes, the clock, the judge, the reference-behaviour switches and the timeouts.
import type { LoadedScenario } from '../scenario/index.js';
import type { ClockMode } from './clock.js';
import type { DaemonLog } from './daemon-log.js';
import type { CpuWaitMeter } from './cpu-wait.js';
import type { TurnJudge } from './judging.js';
import type { DelegatedApps } from './delegated-apps.js';
import type { AppliedNoise } from '../noise/index.js';
import type { DriveBuild, MemoryStates } from '../apps/index.js';

export interface WorldDaemonOptions {
  scenario: LoadedScenario;
  stateDir: string;
  clockMode: ClockMode;
  /** Keeps the run's CPU wait off the clock, measured by this meter (null/absent: counted). */
  cpuWait?: CpuWaitMeter | null;
  /** Sim seconds per wall second (time increment × GAIA2_TIME_SPEED). */
  speed?: number;
  judge?: TurnJudge | null;
  judgeFinalTurn: boolean;
  fixes?: { finalTurnLastReply?: boolean; chainedEnvTiming?: boolean };
  /** Wall seconds with no activity and nothing scheduled before status error. Default 300. */
  idleTimeoutSec?: number;
  /** Wall seconds for the agent to become ready. Default 120. */
  connectTimeoutSec?: number;
  faketimeFile?: string | null;
  /** Where the simulated clock is published for the agent's processes (/run/gaia2/clock in the image); null: nowhere. */
  simClockFile?: string | null;
  /** The real uid whose processes read the simulated clock (default: the image's agent user). */
  clockAgentUid?: number;
  /** Sim start when the scenario has none (FAKETIME from the runner), epoch seconds. */
  fallbackStart?: number;
  log?: DaemonLog;
  /** App id source (tests). */
  ids?: () => string;
  fsRoot?: string;
  /** The apps' states in memory (seeded by composeWorld); default: loaded from the state dir on first use. */
  states?: MemoryStates;
  /** The cloud drive's tree while it is still being built (composeWorld); finished before a command that uses the drive. */
  drive?: DriveBuild | null;
  /**
   * Called once the app states the scenario's parse deferred are all parsed (in the
   * background, after the agent attached or the world was marked ready): the daemon
   * collects the scenario's text then.
   */
  afterStatesParsed?: () => void;
  /** Agent2Agent: the apps operated by app agents (null/absent: none). */
  appAgents?: DelegatedApps | null;
  /** The runtime chosen to play and what chose it, reported in daemon_status.json. */
  agentRuntime?: { name: string; chosenBy: string };
  /** Noise phase: background event ids, tool augmentation, the noise.jsonl recorder. */
  noise?: AppliedNoise | null;
}
