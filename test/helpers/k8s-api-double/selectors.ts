// Label and field selectors as the API server parses them from the query string:
// `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x,y)`, comma means AND.
import { badRequest } from './status.js';
import type { KObject } from './types.js';

type Requirement = (labels: Record<string, string>) => boolean;

/** Splits on commas that are not inside a `(...)` value set. */
function terms(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

function requirement(term: string, param: string): Requirement {
  let m = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (m) {
    const [, key, op, list] = m as unknown as [string, string, string, string];
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in' ? (l) => key in l && values.has(l[key]!) : (l) => !(key in l) || !values.has(l[key]!);
  }
  m = /^([^\s!=]+)\s*(!=|==|=)\s*([^\s!=]*)$/.exec(term);
  if (m) {
    const [, key, op, value] = m as unknown as [string, string, string, string];
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  m = /^(!?)([^\s!=(),]+)$/.exec(term);
  if (m) {
    const [, not, key] = m as unknown as [string, string, string];
    return not ? (l) => !(key in l) : (l) => key in l;
  }
  throw badRequest(`unable to parse requirement: invalid ${param}: "${term}"`);
}

/** A predicate over labels; an empty or absent selector matches everything. */
export function labelSelector(selector: string | null): (o: KObject) => boolean {
  const reqs = terms(selector ?? '').map((t) => requirement(t, 'label selector'));
  return (o) => { const l = o.metadata.labels ?? {}; return reqs.every((r) => r(l)); };
}

/** Field selectors: only `metadata.name`, `metadata.namespace` and `status.phase`, like most clients need. */
export function fieldSelector(selector: string | null): (o: KObject) => boolean {
  const reqs = terms(selector ?? '').map((t) => {
    const m = /^([\w.]+)\s*(!=|==|=)\s*(.*)$/.exec(t);
    if (!m) throw badRequest(`invalid field selector: "${t}"`);
    const [, field, op, value] = m as unknown as [string, string, string, string];
    const get = FIELDS[field];
    if (!get) throw badRequest(`field label not supported: ${field}`);
    return (o: KObject) => (get(o) === value) === (op !== '!=');
  });
  return (o) => reqs.every((r) => r(o));
}

const FIELDS: Record<string, (o: KObject) => string | undefined> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace,
  'status.phase': (o) => (o as { status?: { phase?: string } }).status?.phase,
};
