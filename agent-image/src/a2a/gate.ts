// The world's side of Agent2Agent: for the apps chosen for app agents, the main agent's
// commands come here instead of to the app. `expert-agent --task` runs that app's agent (its
// commands go to the real app as agent actions); help and schema show only expert-agent; any
// other subcommand is unknown. The expert_agent call itself is logged once it has finished
// (read-only, its answer as `ret`), after the app agent's own actions — the order in which
// ARE's event log records them.
import { appForCli, cliName } from '../apps/catalog.js';
import { runAppCli, type CommandResult } from '../apps/framework/dispatch.js';
import type { AppDef } from '../apps/framework/types.js';
import type { StepInfo } from '../agents/default/session.js';
import type { AppAgentHost, DelegatedApps } from '../world/delegated-apps.js';
import { expertAppDef } from '../apps/expert-command.js';
import type { AppAgentChoice } from './select.js';
import type { A2aSettings } from './settings.js';

export interface AppAgentsOptions {
  settings: A2aSettings;
  choices: readonly AppAgentChoice[];
  stateDir: string;
  fsRoot?: string;
  ids?: () => string;
}

export type { AppAgentHost };

export class AppAgents implements DelegatedApps {
  private calls = 0;
  private readonly byCli = new Map<string, { name: string; def: AppDef }>();

  constructor(private readonly o: AppAgentsOptions) {
    for (const c of o.choices) {
      const app = c.cli ? appForCli(c.cli) : undefined;
      if (app) this.byCli.set(app.cli, { name: c.name, def: expertAppDef(app) });
    }
  }

  /** CLIs the main agent reaches only through their expert agent, sorted. */
  get clis(): string[] {
    return [...this.byCli.keys()].sort();
  }

  /** Scenario app names operated by app agents, in ARE's sampling order. */
  get apps(): string[] {
    return [...this.byCli.values()].map((e) => e.name);
  }

  handles(argv: readonly string[]): boolean {
    return this.byCli.has(cliName(argv));
  }

  async run(argv: readonly string[], host: AppAgentHost): Promise<CommandResult> {
    const cli = cliName(argv);
    const entry = this.byCli.get(cli);
    if (!entry) throw new Error(`${cli} is not operated by an app agent`);
    const { stateDir, fsRoot, ids } = this.o;
    const parsed = await runAppCli(entry.def, argv.slice(1), { stateDir, fsRoot, ids, simTime: host.simTime() });
    const line = parsed.events[0];
    if (parsed.exitCode !== 0 || !line) return parsed;
    const task = String((line.args as { task?: unknown }).task ?? '');
    const onStep = (s: StepInfo, model: string): void => {
      host.usage({ model, input_tokens: s.inputTokens, output_tokens: s.outputTokens, ...(s.cacheReadTokens ? { cache_read_tokens: s.cacheReadTokens } : {}) });
      host.activity();
    };
    // Loaded on first use: the AI SDK stays out of the daemon's startup snapshot (and out of
    // memory in runs without Agent2Agent).
    const { runAppAgent } = await import('./app-agent.js');
    const out = await runAppAgent({
      settings: this.o.settings,
      tag: { call: ++this.calls, app: entry.name, cli },
      task,
      simTime: host.simTime(),
      run: async (a) => {
        const r = await host.appCli(a);
        return { stdout: r.stdout, stderr: r.stderr, exit_code: r.exitCode };
      },
      onStep,
    });
    if (!out.ok) {
      host.providerFailed(out.error, entry.name);
      return { stdout: '', stderr: `${cli}: the expert agent could not reach its model (${out.error.reason})\n`, exitCode: 1, events: [] };
    }
    return { stdout: `${out.answer}\n`, stderr: '', exitCode: 0, events: [{ ...line, ret: out.answer }] };
  }
}

