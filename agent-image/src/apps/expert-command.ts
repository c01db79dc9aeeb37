// What the main agent sees of an app that an app agent operates: ARE replaces such an app by
// one with a single tool, `expert_agent(task)`, under the same app name. Here the app's CLI
// keeps its name and offers one subcommand, `expert-agent --task TEXT` (function tool
// `<cli>__expert_agent`); every other subcommand is unknown to it.
import type { AppDef, CommandDef } from './framework/types.js';
import { appForCli } from './catalog.js';
import { cliSpecOf, type CliSpec } from './index.js';

export const EXPERT_COMMAND = 'expert-agent';
/** ARE's tool name (logged as `fn`, read-only). */
export const EXPERT_FN = 'expert_agent';

const EXPERT_HELP = `Hand a task to this app's expert agent and get its answer.

The expert agent holds every command of the app; you do not. Ask it for the whole job in one
task, and say what you need back (and in which format); otherwise ask it to answer
"task completed". It may make mistakes, so check its work when it matters. It remembers
nothing between tasks and you cannot talk to it while it works.`;

const expertCommand: Omit<CommandDef, 'run'> = {
  name: EXPERT_COMMAND,
  fn: EXPERT_FN,
  write: false,
  help: EXPERT_HELP,
  options: [{ name: 'task', flags: ['--task'], type: 'text', required: true, help: 'The task, in plain words.' }],
};

/**
 * The app as the main agent reaches it. Running `expert-agent` here only parses and logs the
 * call (empty output, `ret` null): the world runs the app agent afterwards, outside the app
 * lock, because the app agent's own commands need that lock.
 */
export function expertAppDef(app: AppDef): AppDef {
  return {
    cli: app.cli,
    stateName: app.stateName,
    ...(app.logClass ? { logClass: app.logClass } : {}),
    help: `${app.help.split('\n')[0]?.trim() || app.cli} — operated by an expert agent: use \`${app.cli} ${EXPERT_COMMAND} --task TEXT\`.`,
    commands: [{ ...expertCommand, run: (opts) => ({ args: { task: opts.task }, ret: null, raw: '' }) }],
  };
}

/** The agent's command surface: apps operated by app agents offer only expert-agent. */
export function agentCliSpecs(specs: readonly CliSpec[], appAgentClis: readonly string[]): CliSpec[] {
  const experts = new Set(appAgentClis);
  return specs.map((s) => {
    const app = experts.has(s.cli) ? appForCli(s.cli) : undefined;
    return app ? cliSpecOf(expertAppDef(app), s.description) : s;
  });
}
