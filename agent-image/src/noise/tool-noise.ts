// Tool augmentation at the app-CLI boundary (the reference's ToolAugmentationConfig):
// - each agent app command fails, before it runs, with the configured probability and the
//   reference's error text; a failed command changes nothing and logs no event line, so the
//   judge never sees it (in the reference the failure is raised before the app function, so
//   no event is recorded either);
// - the scenario's augmentation_data.tool_names_mapping renames commands and
//   tool_descriptions_mapping rewrites their help. Only what the agent sees changes: a renamed
//   command keeps its ARE function name, so the event line (and the judge) see the original.
// Draws come from one seeded stream per tool, as the reference keeps one generator per tool.
import type { ToolAugmentationSettings } from '../contract/noise.js';
import type { AppDef } from '../apps/framework/types.js';
import type { RenamedCommand } from '../contract/agent-protocol.js';
import { entryForAppName } from '../apps/registry.js';
import { NoiseRng } from './rng.js';

/** The reference's failure text (AppTool.failure_message_template). */
export const toolFailureMessage = (tool: string): string => `Calling ${tool} failed with error: Internal error - Retry again later`;

export interface ToolFailure {
  /** ARE tool name `<scenario app name>__<function>`. */
  tool: string;
  argv: string[];
  message: string;
}

interface Rename {
  name?: string;
  help?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const kebab = (s: string): string => s.replace(/_/g, '-');

/** Splits an ARE tool name `App__fn` into the CLI it belongs to and the function. */
function toolKey(tool: string): { cli: string; fn: string } | null {
  const i = tool.lastIndexOf('__');
  if (i <= 0) return null;
  const cli = entryForAppName(tool.slice(0, i))?.cli;
  return cli ? { cli, fn: tool.slice(i + 2) } : null;
}

export class ToolNoise {
  private readonly renames = new Map<string, Rename>(); // `${cli} ${fn}` → what the agent sees
  private readonly appNames = new Map<string, string>(); // cli → scenario app name
  private readonly streams = new Map<string, NoiseRng>();
  private readonly surfaces = new Map<string, AppDef>();

  constructor(
    private readonly s: ToolAugmentationSettings,
    scenario: unknown,
  ) {
    const sc = isObj(scenario) ? scenario : {};
    for (const a of Array.isArray(sc.apps) ? sc.apps : []) {
      if (!isObj(a) || typeof a.name !== 'string') continue;
      const cli = entryForAppName(a.name)?.cli ?? (typeof a.class_name === 'string' ? entryForAppName(a.class_name)?.cli : undefined);
      if (cli && !this.appNames.has(cli)) this.appNames.set(cli, a.name);
    }
    const aug = isObj(sc.augmentation_data) ? sc.augmentation_data : {};
    const names = isObj(aug.tool_names_mapping) ? aug.tool_names_mapping : {};
    const descs = isObj(aug.tool_descriptions_mapping) ? aug.tool_descriptions_mapping : {};
    if (s.apply_tool_name_augmentation)
      for (const [from, to] of Object.entries(names)) {
        const k = toolKey(from);
        const fn = typeof to === 'string' ? to.slice(to.lastIndexOf('__') + 2) : '';
        if (k && fn && /^[A-Za-z0-9_]+$/.test(fn)) this.entry(k).name = kebab(fn);
      }
    if (s.apply_tool_description_augmentation)
      for (const [from, text] of Object.entries(descs)) {
        const k = toolKey(from);
        if (k && typeof text === 'string' && text.trim()) this.entry(k).help = text;
      }
  }

  private entry(k: { cli: string; fn: string }): Rename {
    const key = `${k.cli} ${k.fn}`;
    let r = this.renames.get(key);
    if (!r) this.renames.set(key, (r = {}));
    return r;
  }

  /** Every command whose name or help the agent sees changed, as the agent sees it. */
  renamedCommands(apps: readonly AppDef[]): RenamedCommand[] {
    return apps.flatMap((app) =>
      this.surface(app)
        .commands.filter((c) => this.renames.has(`${app.cli} ${c.fn}`))
        .map((c) => ({ cli: app.cli, fn: c.fn, name: c.name, help: c.help })),
    );
  }

  /** Whether any command is renamed or re-described (the surface differs from the app's). */
  get changesSurface(): boolean {
    return this.renames.size > 0;
  }

  /** The app as the agent sees it: renamed commands, rewritten help, same ARE functions. */
  readonly surface = (app: AppDef): AppDef => {
    if (!this.changesSurface) return app;
    let out = this.surfaces.get(app.cli);
    if (!out) {
      out = {
        ...app,
        commands: app.commands.map((c) => {
          const r = this.renames.get(`${app.cli} ${c.fn}`);
          return r ? { ...c, name: r.name ?? c.name, help: r.help ?? c.help } : c;
        }),
      };
      this.surfaces.set(app.cli, out);
    }
    return out;
  };

  /**
   * Decides whether this agent command fails (one draw from its tool's stream). Only real
   * commands can fail: not help, not `schema`, not unknown names or ENV-only commands.
   * `renamed`: the command is named as the main agent sees it; app agents (Agent2Agent) use
   * the apps' own names, and draw from the same streams — the failures belong to the app.
   */
  draw(argv: readonly string[], app: AppDef | null, renamed = true): ToolFailure | null {
    if (!app || this.s.tool_failure_probability <= 0) return null;
    const args = argv.slice(1);
    if (args.includes('--help')) return null;
    const cmd = (renamed ? this.surface(app) : app).commands.find((c) => c.name === args[0]);
    if (!cmd || cmd.hidden) return null;
    const tool = `${this.appNames.get(app.cli) ?? entryForAppName(app.stateName)?.canonical ?? app.stateName}__${cmd.fn}`;
    let rng = this.streams.get(tool);
    if (!rng) this.streams.set(tool, (rng = new NoiseRng(this.s.seed, tool)));
    if (rng.random() >= this.s.tool_failure_probability) return null;
    return { tool, argv: [...argv], message: toolFailureMessage(tool) };
  }
}
