// Hard argument checkers with the reference's exact semantics (docs/judge.md, "Hard checkers").
import { checkerPath, normalizeStr, parsePyDatetime } from './normalize.js';
import { PyTypeError, pyEq, pyLen, pySetEq, pyStr, pyStrip, pyTruthy } from './pystr.js';
import { argCheckersFor, isHardChecker, isScriptedChecker, type HardCheckerName, type ScriptedCheckerName } from './registry.js';

type Checker = (agent: unknown, oracle: unknown, tolerance: string[]) => boolean;

const asString = (v: unknown, what: string): string => {
  if (typeof v !== 'string') throw new PyTypeError(`${what} expects a string, got ${pyStr(v)}`);
  return v;
};
const isEmptyOrNull = (v: unknown): boolean => v === null || v === undefined || pyLen(v) === 0;
const isNull = (v: unknown): boolean => v === null || v === undefined;

export const eqChecker = (a: unknown, o: unknown): boolean => pyEq(a, o);

export function unorderedListChecker(a: unknown, o: unknown): boolean {
  if (isNull(a)) return isEmptyOrNull(o);
  if (isNull(o)) return isEmptyOrNull(a);
  return pySetEq(a, o);
}

export function pathChecker(a: unknown, o: unknown): boolean {
  const ta = pyTruthy(a);
  const to = pyTruthy(o);
  if (!ta && !to) return true;
  if (!ta || !to) return false;
  return checkerPath(asString(a, 'path_checker')) === checkerPath(asString(o, 'path_checker'));
}

function iterate(v: unknown): unknown[] {
  if (typeof v === 'string') return [...v];
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object') return Object.keys(v);
  throw new PyTypeError(`'${typeof v}' object is not iterable`);
}

export function unorderedPathListChecker(a: unknown, o: unknown): boolean {
  if (isNull(a)) return isEmptyOrNull(o);
  if (isNull(o)) return isEmptyOrNull(a);
  const norm = (v: unknown) => iterate(v).map((p) => checkerPath(asString(p, 'unordered_path_list_checker')));
  return pySetEq(norm(a), norm(o));
}

export function listAttendeesChecker(a: unknown, o: unknown, tolerance: string[]): boolean {
  const tol = tolerance.map(normalizeStr);
  if (isEmptyOrNull(o)) return true;
  const oracle = iterate(o).map((x) => normalizeStr(asString(x, 'list_attendees_checker')));
  if (oracle.every((x) => tol.includes(x))) return true;
  const agent = isNull(a) ? [] : iterate(a).map((x) => normalizeStr(asString(x, 'list_attendees_checker')));
  return pySetEq(
    agent.filter((x) => !tol.includes(x)),
    oracle.filter((x) => !tol.includes(x)),
  );
}

export function datetimeChecker(a: unknown, o: unknown): boolean {
  if (isNull(a) || isNull(o)) return isNull(a) && isNull(o);
  return parsePyDatetime(asString(a, 'datetime_checker')) === parsePyDatetime(asString(o, 'datetime_checker'));
}

export function eqStrStripChecker(a: unknown, o: unknown): boolean {
  const strip = (v: unknown) => (pyTruthy(v) ? pyStrip(asString(v, 'eq_str_strip_checker')) : '');
  return strip(a) === strip(o);
}

export function phoneNumberChecker(a: unknown, o: unknown): boolean {
  const digits = (v: unknown) => (pyTruthy(v) ? [...asString(v, 'phone_number_checker')].filter((c) => /\p{Nd}/u.test(c)).join('') : '');
  return digits(a) === digits(o);
}

/** Scripted: the oracle value is the target list (never registered; reachable in tests only). */
export function containAnyChecker(a: unknown, targets: unknown): boolean {
  const text = asString(a, 'contain_any_checker').toLowerCase();
  return iterate(targets).some((t) => text.includes(asString(t, 'contain_any_checker').toLowerCase()));
}

export function containAllChecker(a: unknown, targets: unknown): boolean {
  const text = asString(a, 'contain_all_checker').toLowerCase();
  return iterate(targets).every((t) => text.includes(asString(t, 'contain_all_checker').toLowerCase()));
}

export const HARD_CHECKERS: Record<HardCheckerName | ScriptedCheckerName, Checker> = {
  eq_checker: eqChecker,
  unordered_list_checker: unorderedListChecker,
  list_attendees_checker: listAttendeesChecker,
  datetime_checker: datetimeChecker,
  phone_number_checker: phoneNumberChecker,
  eq_str_strip_checker: eqStrStripChecker,
  path_checker: pathChecker,
  unordered_path_list_checker: unorderedPathListChecker,
  contain_any_checker: containAnyChecker,
  contain_all_checker: containAllChecker,
};

/**
 * Runs the tool's hard (and scripted) checks in registry order; a missing key reads as null.
 * The reference lets checker exceptions escape and crash the daemon; we turn them into a
 * rejection of this candidate that says what went wrong (docs/judge.md, "Hard checkers").
 */
export function hardCompare(
  tool: string,
  agentArgs: Record<string, unknown>,
  oracleArgs: Record<string, unknown>,
  tolerance: string[],
): { ok: boolean; rationale: string } {
  for (const [arg, checker] of Object.entries(argCheckersFor(tool))) {
    if (!isHardChecker(checker) && !isScriptedChecker(checker)) continue;
    const a = agentArgs[arg] ?? null;
    const o = oracleArgs[arg] ?? null;
    let ok: boolean;
    try {
      ok = HARD_CHECKERS[checker](a, o, tolerance);
    } catch (err) {
      return { ok: false, rationale: `${checker}:${arg} (checker error: ${(err as Error).message}; agent=${pyStr(a)}, oracle=${pyStr(o)})` };
    }
    if (!ok) {
      const detail = isScriptedChecker(checker) ? `agent=${pyStr(a)}` : `agent=${pyStr(a)}, oracle=${pyStr(o)}`;
      return { ok: false, rationale: `${checker}:${arg} (${detail})` };
    }
  }
  return { ok: true, rationale: '' };
}
