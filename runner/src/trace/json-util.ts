// Small guards for walking untrusted JSON (trace rows come from agents we do not control).

export type Obj = Record<string, unknown>;

export const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

export const asObj = (x: unknown): Obj => (isObj(x) ? x : {});

export const asArr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

export const asStr = (x: unknown): string => (typeof x === 'string' ? x : '');

/** Null, missing and non-numeric token counters count as 0. */
export const asNum = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Compact JSON for objects, the string itself for strings (tool arguments and results). */
export const compactJson = (x: unknown): string => (typeof x === 'string' ? x : JSON.stringify(x ?? null));

export const isEmptyObj = (x: unknown): boolean => !isObj(x) || Object.keys(x).length === 0;
