// What the world knows of Agent2Agent: some apps are operated by app agents, and the main
// agent's commands to them go there instead of to the app. The world holds this interface
// only; the app agents themselves (a2a/, built on the default agent) are wired in by main/.
import type { CommandResult } from '../apps/index.js';
import type { ProviderError } from '../llm/index.js';

/** What app agents need from the world for one call. */
export interface AppAgentHost {
  simTime(): string;
  /** One app command as an agent action, straight to the app. */
  appCli(argv: readonly string[]): Promise<CommandResult>;
  usage(u: { model: string; input_tokens: number; output_tokens: number; cache_read_tokens?: number }): void;
  /** Some work happened (keeps the idle timer quiet during long app-agent runs). */
  activity(): void;
  /** The app agent's provider failed: the scenario ends as an infrastructure error. */
  providerFailed(error: ProviderError, app: string): void;
}

/** The apps handed to app agents in this run. */
export interface DelegatedApps {
  /** CLIs the main agent reaches only through their expert agent, sorted. */
  readonly clis: string[];
  /** Scenario app names operated by app agents, in ARE's sampling order. */
  readonly apps: string[];
  handles(argv: readonly string[]): boolean;
  run(argv: readonly string[], host: AppAgentHost): Promise<CommandResult>;
}
