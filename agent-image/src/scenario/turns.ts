// Turn assignment, per-turn oracle graphs and topological order (docs/daemon.md,
// "Turns"; docs/judge.md, "Per turn").
import type { ScenarioEventModel, TurnBoundary } from './model.js';
import { AUI_APP, SEND_MESSAGE_TO_USER } from '../contract/events.js';

export const isOracleReply = (e: ScenarioEventModel): boolean =>
  e.type === 'AGENT' && e.action?.app === AUI_APP && e.action.fn === SEND_MESSAGE_TO_USER;

/**
 * Breadth-first walk from dependency-free events; an event is queued once all its
 * dependencies are visited. Its turn is the max of its dependencies' turns, raised to
 * (reply's turn + 1) for every oracle-reply dependency. Unreached events get no turn.
 */
export function assignTurns(
  events: readonly ScenarioEventModel[],
  byId: ReadonlyMap<string, ScenarioEventModel>,
): { turnOf: Map<string, number>; nbTurns: number } {
  const turnOf = new Map<string, number>();
  const queue: string[] = events.filter((e) => e.dependencies.length === 0).map((e) => e.id);
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    if (turnOf.has(id)) continue;
    const ev = byId.get(id);
    if (!ev) continue;
    let turn = 0;
    for (const dep of ev.dependencies) turn = Math.max(turn, turnOf.get(dep) ?? 0);
    for (const dep of ev.dependencies) {
      const d = byId.get(dep);
      if (d && isOracleReply(d)) turn = Math.max(turn, (turnOf.get(dep) ?? 0) + 1);
    }
    turnOf.set(id, turn);
    for (const succId of ev.successors) {
      if (turnOf.has(succId)) continue;
      const succ = byId.get(succId);
      if (succ && succ.dependencies.every((d) => turnOf.has(d))) queue.push(succId);
    }
  }
  const nbTurns = turnOf.size ? Math.max(...turnOf.values()) + 1 : 1;
  return { turnOf, nbTurns };
}

export class OracleCycleError extends Error {
  constructor(readonly ids: string[]) {
    super(`Oracle event graph contains a cycle (events: ${ids.join(', ')})`);
    this.name = 'OracleCycleError';
  }
}

/**
 * Kahn's algorithm over `graph` (node → parents). The initial queue and the children
 * lists follow the key order of `graph`, which callers build in scenario JSON order; this
 * is the deterministic replacement for the reference's hash-seed-dependent set order.
 */
export function topologicalOrder(graph: Record<string, string[]>): string[] {
  const nodes = Object.keys(graph);
  const indeg = new Map<string, number>();
  const children = new Map<string, string[]>();
  for (const n of nodes) {
    indeg.set(n, 0);
    children.set(n, []);
  }
  for (const n of nodes) {
    for (const p of graph[n]!) {
      if (!children.has(p)) continue;
      children.get(p)!.push(n);
      indeg.set(n, indeg.get(n)! + 1);
    }
  }
  const queue = nodes.filter((n) => indeg.get(n) === 0);
  for (let head = 0; head < queue.length; head++) {
    for (const c of children.get(queue[head]!)!) {
      const d = indeg.get(c)! - 1;
      indeg.set(c, d);
      if (d === 0) queue.push(c);
    }
  }
  if (queue.length !== nodes.length) throw new OracleCycleError(nodes.filter((n) => indeg.get(n)! > 0));
  return queue;
}

/** Per turn: oracle events (topological order) and the same-turn AGENT parent graph. */
export function buildOracleTurns(
  events: readonly ScenarioEventModel[],
  byId: ReadonlyMap<string, ScenarioEventModel>,
  nbTurns: number,
): { oracleByTurn: ScenarioEventModel[][]; oracleGraphByTurn: Array<Record<string, string[]>> } {
  const graphs: Array<Record<string, string[]>> = Array.from({ length: nbTurns }, () => ({}));
  for (const e of events) {
    if (e.type !== 'AGENT' || e.turn === null) continue;
    graphs[e.turn]![e.id] = e.dependencies.filter((d) => {
      const p = byId.get(d);
      return p !== undefined && p.type === 'AGENT' && p.turn === e.turn;
    });
  }
  const oracleByTurn = graphs.map((g) => topologicalOrder(g).map((id) => byId.get(id)!));
  return { oracleByTurn, oracleGraphByTurn: graphs };
}

/** Condition k (k ≥ 1) releases the non-AGENT successors of the reply ending turn k-1. */
export function buildTurnBoundaries(
  events: readonly ScenarioEventModel[],
  byId: ReadonlyMap<string, ScenarioEventModel>,
  nbTurns: number,
): TurnBoundary[] {
  const endOfTurn = new Map<number, ScenarioEventModel>();
  for (const e of events) if (isOracleReply(e)) endOfTurn.set(e.turn ?? 0, e); // last one wins, as in the reference
  const out: TurnBoundary[] = [];
  for (let k = 1; k < nbTurns; k++) {
    const eot = endOfTurn.get(k - 1) ?? null;
    const successorIds = eot
      ? eot.successors.filter((id) => {
          const s = byId.get(id);
          return s !== undefined && s.type !== 'AGENT';
        })
      : [];
    out.push({ turn: k, endOfTurnOracleId: eot?.id ?? null, successorIds });
  }
  return out;
}
