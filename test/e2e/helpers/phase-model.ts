// A scripted model for whole gaia2-run phases (OpenAI chat format): it reads each request's
// conversation and answers the next step, so parallel runs, app agents and the main agent
// can share one provider, as they share one model by default. Per scenario (picked by the
// user's task) it plays the oracle's actions as shell commands and the oracle's reply; when
// its system prompt says the apps are operated by expert agents (agent2agent phase) it hands
// the job to one app's expert instead, and as that expert (the app agent's own prompt) it
// plays the expert's actions as function tools and answers. A tool result carrying the
// Noise phase's injected failure counts as not done, so the step is tried again.
import { functionName } from '../../../agent-image/src/agents/default/function-tools.js';
import { SHELL_TOOL_NAME } from '../../../agent-image/src/agents/default/shell-tool.js';
import { call, say, type FakeScriptItem, type RecordedRequest } from '../../helpers/fake-llm/index.js';
import { shellLine, type OracleAction } from './oracle-llm-script.js';

export interface PhaseCase {
  /** Words of the user's task that pick this case. */
  task: string;
  /** What the main agent does itself (standard and noise phases), then `reply`. */
  actions: OracleAction[];
  reply: string;
  /** What the main agent asks an app's expert agent (agent2agent phase), and what the expert does. */
  expert: { cli: string; task: string; actions: OracleAction[]; answer: string };
}

/** The reference's text of an injected tool failure (docs/protocol.md). */
export const INJECTED_FAILURE = /failed with error: Internal error - Retry again later/;
const APP_AGENT_PROMPT = "You are the expert agent of the user's";
const EXPERTS_IN_PROMPT = 'operated by its expert agent';

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const text = (m: unknown): string => (typeof m === 'string' ? m : JSON.stringify(m));

/** Tool results so far that did not fail: the steps already done. */
function stepsDone(messages: Array<{ role: string; content?: unknown }>): number {
  return messages.filter((m) => m.role === 'tool' && !INJECTED_FAILURE.test(text(m.content))).length;
}

export function phaseModel(cases: readonly PhaseCase[]): (req: RecordedRequest) => FakeScriptItem {
  return (req) => {
    const messages = (req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
    const system = text(messages.find((m) => m.role === 'system')?.content ?? '');
    const users = messages.filter((m) => m.role === 'user').map((m) => text(m.content)).join('\n');
    const done = stepsDone(messages);
    if (system.includes(APP_AGENT_PROMPT)) {
      const c = cases.find((x) => users.includes(`Message: ${x.expert.task}`));
      if (!c) return { status: 400, message: 'phase model: an app agent with a task no case knows' };
      const a = c.expert.actions[done];
      return a ? call(functionName(a.cli, a.command.name), a.args) : say(c.expert.answer);
    }
    const c = cases.find((x) => users.includes(x.task));
    if (!c) return { status: 400, message: 'phase model: a conversation no case knows' };
    const steps = system.includes(EXPERTS_IN_PROMPT)
      ? [`${c.expert.cli} expert-agent --task ${shellQuote(c.expert.task)}`]
      : c.actions.map(shellLine);
    const next = steps[done];
    return next ? call(SHELL_TOOL_NAME, { command: next }) : say(c.reply);
  };
}
