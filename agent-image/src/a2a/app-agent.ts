// One expert_agent call: a fresh conversation (ARE resets the app agent for every task) with
// the app's commands as function tools, run until the model answers in plain text or hits
// the step limit. Its commands are agent actions, logged like the main agent's own, so the
// judge sees them exactly as it would see the main agent doing the work.
import { cliSpecs } from '../apps/index.js';
import { createFunctionTools, type CliRunner } from '../agents/default/function-tools.js';
import { AgentSession, type StepInfo } from '../agents/default/session.js';
import { createModel, type AppAgentTag, type ProviderError } from '../llm/index.js';
import type { A2aSettings } from './settings.js';
import { appAgentSystemPrompt, appAgentTask } from './prompt.js';

export interface AppAgentCall {
  settings: A2aSettings;
  tag: AppAgentTag;
  task: string;
  simTime: string;
  /** Runs one app command as an agent action (never through the expert gate again). */
  run: CliRunner;
  onStep?: (s: StepInfo, model: string) => void;
  maxOutputChars?: number;
}

export type AppAgentOutcome = { ok: true; answer: string } | { ok: false; error: ProviderError };

export async function runAppAgent(c: AppAgentCall): Promise<AppAgentOutcome> {
  const llm = createModel({ ...c.settings.llm, traceTag: c.tag });
  const specs = cliSpecs().filter((s) => s.cli === c.tag.cli);
  const tools = createFunctionTools({ specs, visible: [c.tag.cli], run: c.run, maxOutputChars: c.maxOutputChars ?? 20_000 });
  const session = new AgentSession({ llm, tools, maxSteps: c.settings.maxSteps, stream: false });
  try {
    const r = await session.run(appAgentTask(c.task, c.simTime), appAgentSystemPrompt(c.tag.app, c.tag.cli), {
      onStep: (s) => c.onStep?.(s, llm.modelId),
    });
    switch (r.stopReason) {
      case 'replied':
        return { ok: true, answer: r.text };
      case 'step_limit':
        return { ok: true, answer: `The expert agent stopped after ${c.settings.maxSteps} steps without finishing the task.` };
      case 'context_length':
        return { ok: true, answer: 'The expert agent stopped: its conversation no longer fits the model\'s context window.' };
      default:
        return { ok: false, error: r.error ?? llm.toError(new Error('the app agent run was aborted')) };
    }
  } finally {
    await llm.trace.flush();
  }
}
