// The tokens-and-cost part of the report, as text lines and as a Markdown table.
import type { GroupStats, Report } from './build.js';
import type { CostTotal, TokenTotals } from './usage.js';

const int = (n: number) => n.toLocaleString('en-US');
export const usd = (x: number | null) => (x === null ? '—' : `$${x.toFixed(4)}`);

function costText(t: TokenTotals, c: CostTotal): string {
  if (t.runs === 0) return usd(0);
  if (c.usd !== null) return usd(c.usd);
  return `unknown (no price for ${c.unpriced_models.join(', ')})`;
}

function roleText(name: string, t: TokenTotals, c: CostTotal): string {
  const cache = t.cache_read || t.cache_write ? ` (cache read ${int(t.cache_read)}, cache write ${int(t.cache_write)})` : '';
  return `${name} ${int(t.input)} in${cache}, ${int(t.output)} out, ${int(t.llm_calls)} calls over ${t.runs} runs, cost ${costText(t, c)}`;
}

// App agents (Agent2Agent) appear only where some run had them; reports of older runs lack them.
const hasAppAgents = (g: GroupStats): boolean => (g.usage.app_agents?.runs ?? 0) > 0;

export function usageLines(g: GroupStats): string[] {
  const u = g.usage;
  const a2a = hasAppAgents(g);
  if (u.agent.runs + u.judge.runs + (a2a ? u.app_agents.runs : 0) === 0) return ['Tokens: no usage recorded (no LLM calls, or an image that reports none)'];
  return [
    `Tokens: ${roleText('agent', u.agent, u.cost.agent)}`,
    ...(a2a ? [`        ${roleText('app agents', u.app_agents, u.cost.app_agents)}`] : []),
    `        ${roleText('judge', u.judge, u.cost.judge)}`,
    `Cost (agent${a2a ? ' + app agents' : ''} + judge): ${usd(u.cost.total_usd)}`,
  ];
}

export function usageMarkdown(r: Report): string {
  const head = ['Split', 'Role', 'Runs', 'LLM calls', 'Input tokens', 'Cache read', 'Cache write', 'Output tokens', 'Cost (USD)'];
  const rows: string[][] = [];
  const roles = hasAppAgents(r.overall) ? (['agent', 'app_agents', 'judge'] as const) : (['agent', 'judge'] as const);
  const add = (name: string, g: GroupStats) => {
    for (const role of roles) {
      const t = g.usage[role];
      rows.push([name, role.replace('_', ' '), String(t.runs), int(t.llm_calls), int(t.input), int(t.cache_read), int(t.cache_write), int(t.output), costText(t, g.usage.cost[role])]);
    }
    const sum = (k: 'input' | 'output') => int(roles.reduce((s, role) => s + g.usage[role][k], 0));
    rows.push([name, '**total**', '', '', sum('input'), '', '', sum('output'), usd(g.usage.cost.total_usd)]);
  };
  for (const [s, g] of Object.entries(r.splits)) add(s, g);
  add('**overall**', r.overall);
  const table = [head, head.map(() => '---'), ...rows].map((x) => `| ${x.join(' | ')} |`).join('\n');
  return [
    '## Tokens and cost',
    '',
    table,
    '',
    `Input tokens include cached ones. Prices: ${r.prices.join(' + ')}; a model missing from the price table shows tokens and no cost.`,
    '',
  ].join('\n');
}
