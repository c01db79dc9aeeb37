// Status, split and the one-line "info" of a scenario run, from its result.json.
import { SPLITS, type RunStatus } from '@gaia2/contract';
import { classify } from '../../report/collect.js';
import { asArr, asObj, asStr, type Obj } from '../../trace/json-util.js';
import type { StuckLoopView, ViewStatus } from './types.js';

/** No result.json yet: running. Otherwise our `status`, else the reference's `success`. */
export function statusOf(result: Obj | null, resultExists: boolean): ViewStatus {
  if (!resultExists) return 'running';
  if (!result) return 'error';
  return classify({ status: result.status as RunStatus, success: (result.success ?? asObj(result.judgment).success) as boolean | null });
}

const CANONICAL = new Set<string>(SPLITS);

/** result.json `split`, else a canonical first path component, else the scenario file's folder. */
export function splitOf(id: string, result: Obj | null, configSplits: string[]): string {
  const fromResult = asStr(result?.split);
  if (fromResult) return fromResult;
  const first = id.split('/')[0] ?? '';
  if (CANONICAL.has(first)) return first;
  const fileParts = asStr(result?.scenario_file).split(/[\\/]/);
  const fromFile = fileParts.reverse().find((p) => CANONICAL.has(p));
  if (fromFile) return fromFile;
  if (configSplits.length === 1) return configSplits[0]!;
  return '';
}

export function infoOf(result: Obj | null, status: ViewStatus, daemon: Obj | null): string {
  if (status === 'running') {
    const d = daemon ? ` (daemon ${asStr(daemon.status) || '?'}, turn ${String(daemon.turn ?? '?')}/${String(daemon.nb_turns ?? '?')})` : '';
    return `Scenario is still running${d}.`;
  }
  if (!result) return 'result.json is missing or not valid JSON.';
  const error = asStr(result.error);
  if (error) return error;
  const reasons = asArr(result.failure_reasons).map(asStr).filter(Boolean);
  if (reasons.length) return reasons.join('; ');
  return asStr(asObj(result.judgment).failure_reason);
}

/** result.json `stuck_loop`, read defensively (any result file may be hand-edited or older). */
export function stuckLoopOf(result: Obj | null): StuckLoopView | null {
  const l = asObj(result?.stuck_loop);
  const tool = asStr(l.tool);
  if (!tool) return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { tool, args: asObj(l.args), count: n(l.count), minToolCalls: n(l.min_tool_calls), line: n(l.line) };
}
