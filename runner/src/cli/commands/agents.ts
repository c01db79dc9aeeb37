import type { Command } from 'commander';
import { listAdapters, OWN_AGENTS, EXTERNAL_AGENT, type AgentAdapter } from '../../agents/index.js';

/** One third-party agent as `agents` shows it. */
export interface AgentListing {
  name: string;
  package: string;
  /** The version the runner pins (the default of --agent-version). */
  pinned: string;
  /** The npm registry's newest release; null with --offline or when the lookup failed (then `lookup_error`). */
  newest: string | null;
  lookup_error?: string;
  providers: string[];
  options: string[];
  summary: string;
}

/** Every adapter with its pin and (unless offline) the registry's newest release, looked up at once. */
export async function listAgents(o: { offline?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<AgentListing[]> {
  const { newestVersion } = await import('../../image/agent-version.js');
  return Promise.all(
    listAdapters().map(async (a: AgentAdapter): Promise<AgentListing> => {
      const base = { name: a.name, package: a.package.name, pinned: a.package.version, providers: [...a.providers], options: Object.keys(a.options ?? {}), summary: a.summary };
      // acp: the program (package and version) is the user's, in its options; nothing to look up.
      if (a.fromOptions) return { ...base, package: '(option package)', pinned: '-', newest: null };
      if (o.offline) return { ...base, newest: null };
      try {
        return { ...base, newest: await newestVersion(a.package.name, o.env) };
      } catch (e) {
        return { ...base, newest: null, lookup_error: (e as Error).message };
      }
    }),
  );
}

function table(rows: AgentListing[], offline: boolean): string {
  const head = ['agent', 'package', 'pinned', ...(offline ? [] : ['newest']), 'providers', 'options'];
  const cells = rows.map((r) => [
    r.name,
    r.package,
    r.pinned,
    ...(offline ? [] : [r.newest === null ? 'unknown' : r.newest === r.pinned ? `${r.newest} (pinned)` : r.newest]),
    r.providers.join(', '),
    r.options.join(', ') || '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]!))).join('  ');
  return [line(head), ...cells.map(line)].join('\n');
}

export function register(program: Command): void {
  program
    .command('agents')
    .description("the third-party agents (--agent NAME): each one's npm package, the version the runner pins and the newest on the registry")
    .option('--offline', 'do not ask the npm registry (pins only)')
    .option('--json', 'one JSON array on stdout')
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner agents\n  $ gaia2-runner agents --json\n  $ gaia2-runner run-dataset --agent openclaw --agent-version latest ...   # the newest, recorded exactly')
    .action(async (f: { offline?: boolean; json?: boolean }) => {
      const rows = await listAgents({ offline: f.offline === true });
      if (f.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${table(rows, f.offline === true)}\n`);
      for (const r of rows) if (r.lookup_error) process.stderr.write(`${r.name}: ${r.lookup_error}\n`);
      process.stdout.write(
        `\nAlso: ${OWN_AGENTS.join(', ')} (this runner's own, in the world image) and ${EXTERNAL_AGENT} (your own agent layer: docs/agents.md).\n` +
          '--agent-version VERSION runs another release; --agent-version latest the newest, recorded as its exact version.\n',
      );
    });
}
