// Connects an AgentSession to the world daemon: each delivered message starts a run (or, with
// steering, joins the active one), every run ends with exactly one reply, and provider
// failures end the run as an error, never as an answer.
import type { ToolSet } from 'ai';
import type { MessageMsg, ShutdownMsg, UsageMsg, WelcomeMsg } from '../../contract/agent-protocol.js';
import { cliSpecs } from '../../apps/index.js';
import { agentCliSpecs } from '../../apps/expert-command.js';
import type { LlmModel } from '../../llm/index.js';
import { createFunctionTools, createTimeTool, TIME_TOOL_NAME, withRenames, type CliRunResult } from './function-tools.js';
import type { AgentOptions } from './options.js';
import { buildSystemPrompt } from './prompt.js';
import { AgentSession, type RunResult, type StepInfo } from './session.js';
import { createShellTool, SHELL_TOOL_NAME } from './shell-tool.js';

/** What the agent needs from the daemon connection (agents/client.ts DaemonConnection). */
export interface AgentHost {
  readonly welcome: Pick<WelcomeMsg, 'tools' | 'sim_time' | 'app_agents' | 'renamed_commands'>;
  onMessage(handler: (m: MessageMsg) => void): void;
  onShutdown(handler: (m: ShutdownMsg | null) => void): void;
  ready(): void;
  reply(runId: string, content: string, state?: 'final' | 'error', errorKind?: string): void;
  cli(argv: string[]): Promise<CliRunResult>;
  time(): Promise<{ sim_time: string; epoch: number }>;
  usage(u: Omit<UsageMsg, 'type'>): void;
  progress(text?: string, runId?: string): void;
  log(text: string, level?: 'debug' | 'info' | 'warn' | 'error'): void;
}

/**
 * Agent2Agent: one `expert-agent` command runs a whole app-agent conversation (up to 80 model
 * calls), far longer than an app command; shell commands then get at least this long.
 */
export const APP_AGENT_SHELL_TIMEOUT_MS = 30 * 60_000;

export function buildTools(host: AgentHost, options: AgentOptions): ToolSet {
  if (options.tools === 'shell') {
    const experts = (host.welcome.app_agents ?? []).length > 0;
    return {
      [SHELL_TOOL_NAME]: createShellTool({
        binDir: options.binDir,
        cwd: options.workdir,
        timeoutMs: experts ? Math.max(options.shellTimeoutMs, APP_AGENT_SHELL_TIMEOUT_MS) : options.shellTimeoutMs,
        maxOutputChars: options.maxOutputChars,
      }),
    };
  }
  return {
    ...createFunctionTools({ specs: withRenames(agentCliSpecs(cliSpecs(), host.welcome.app_agents ?? []), host.welcome.renamed_commands), visible: host.welcome.tools, run: (argv) => host.cli(argv), maxOutputChars: options.maxOutputChars }),
    [TIME_TOOL_NAME]: createTimeTool(async () => (await host.time()).sim_time),
  };
}

/**
 * How a run that did not end with an answer is reported. Hitting the step limit or the
 * context window is the agent's own failure: the turn ends and is judged (it fails), as a
 * looping agent must not be excused. A provider failure is not the agent's doing: the run
 * ends with state "error" so the scenario counts as an error, never as an answer.
 */
export function failureReply(r: RunResult, maxSteps: number): { content: string; state: 'final' | 'error'; errorKind?: string } {
  if (r.stopReason === 'step_limit') return { content: `[stopped: step limit reached (${maxSteps} model calls) without a final answer]`, state: 'final' };
  if (r.stopReason === 'context_length') return { content: "[stopped: the conversation no longer fits the model's context window]", state: 'final' };
  return { content: `Error: ${r.error?.message ?? 'the model call failed'}`, state: 'error', errorKind: r.error?.kind ?? 'provider_error' };
}

const HEARTBEAT_MS = 30_000;

export interface AgentOutcome {
  runs: number;
  shutdown: ShutdownMsg | null;
}

/** Plays runs until the daemon shuts down; resolves then. */
export function runDefaultAgent(host: AgentHost, llm: LlmModel, options: AgentOptions): Promise<AgentOutcome> {
  const session = new AgentSession({
    llm,
    tools: buildTools(host, options),
    maxSteps: options.maxSteps,
    stream: options.stream,
  });
  const queue: MessageMsg[] = [];
  let active: { runId: string; inbox: string[] } | null = null;
  // Steered input for a run we had already answered (it crossed our reply on the socket):
  // there is no run left to reply to, so it opens the next run instead of being lost.
  const carryover: string[] = [];
  let busy = false;
  let runs = 0;
  const abort = new AbortController();

  return new Promise<AgentOutcome>((resolve) => {
    const next = async (): Promise<void> => {
      if (busy || abort.signal.aborted) return;
      const m = queue.shift();
      if (!m) return;
      busy = true;
      active = { runId: m.run_id, inbox: [] };
      const run = active;
      runs += 1;
      // A long model call sends nothing; the heartbeat keeps the daemon's idle timer quiet.
      const heartbeat = setInterval(() => host.progress('waiting for the model', run.runId), HEARTBEAT_MS);
      try {
        const system = buildSystemPrompt({ apps: host.welcome.tools, appAgents: host.welcome.app_agents, mode: options.tools, simTime: m.sim_time, workdir: options.workdir });
        const drain = () => run.inbox.splice(0);
        const onStep = (s: StepInfo) => {
          host.usage({
            run_id: run.runId,
            model: llm.modelId,
            input_tokens: s.inputTokens,
            output_tokens: s.outputTokens,
            ...(s.cacheReadTokens ? { cache_read_tokens: s.cacheReadTokens } : {}),
          });
          host.progress(`step ${s.step}${s.toolCalls.length ? `: ${s.toolCalls.join(', ')}` : ''}`, run.runId);
        };
        const input = [...carryover.splice(0), m.text].join('\n\n');
        const r = await session.run(input, system, { drainInbox: drain, onStep, signal: abort.signal });
        if (r.stopReason === 'aborted') return;
        if (r.stopReason === 'replied') {
          host.reply(run.runId, r.text);
        } else {
          const { content, state, errorKind } = failureReply(r, options.maxSteps);
          host.log(`run ${run.runId} stopped: ${r.stopReason}${r.error ? ` (${r.error.reason}, HTTP ${r.error.status}: ${r.error.message})` : ''}`, 'error');
          host.reply(run.runId, content, state, errorKind);
        }
      } catch (err) {
        // A bug of ours must still end the run, or the daemon waits for ever.
        host.log(`default agent failed: ${llm.redact(err instanceof Error ? (err.stack ?? err.message) : String(err))}`, 'error');
        host.reply(run.runId, `Error: internal agent error: ${llm.redact(err instanceof Error ? err.message : String(err))}`, 'error', 'internal_error');
      } finally {
        clearInterval(heartbeat);
        active = null;
        busy = false;
        void next();
      }
    };

    host.onMessage((m) => {
      if (m.steer) {
        if (active && m.run_id === active.runId) active.inbox.push(m.text);
        else carryover.push(m.text);
        return;
      }
      queue.push(m);
      void next();
    });
    host.onShutdown((s) => {
      abort.abort();
      resolve({ runs, shutdown: s });
    });
    host.ready();
  });
}
