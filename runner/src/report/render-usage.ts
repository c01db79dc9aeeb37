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

export function usageLines(g: GroupStats): string[] {
  const u = g.usage;
  if (u.agent.runs + u.judge.runs === 0) return ['Tokens: no usage recorded (no LLM calls, or an image that reports none)'];
  return [
    `Tokens: ${roleText('agent', u.agent, u.cost.agent)}`,
    `        ${roleText('judge', u.judge, u.cost.judge)}`,
    `Cost (agent + judge): ${usd(u.cost.total_usd)}`,
  ];
}

export function usageMarkdown(r: Report): string {
  const head = ['Split', 'Role', 'Runs', 'LLM calls', 'Input tokens', 'Cache read', 'Cache write', 'Output tokens', 'Cost (USD)'];
  const rows: string[][] = [];
  const add = (name: string, g: GroupStats) => {
    for (const role of ['agent', 'judge'] as const) {
      const t = g.usage[role];
      rows.push([name, role, String(t.runs), int(t.llm_calls), int(t.input), int(t.cache_read), int(t.cache_write), int(t.output), costText(t, g.usage.cost[role])]);
    }
    rows.push([name, '**total**', '', '', int(g.usage.agent.input + g.usage.judge.input), '', '', int(g.usage.agent.output + g.usage.judge.output), usd(g.usage.cost.total_usd)]);
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
