// Scenario action arguments as the reference loader types them (docs/daemon.md,
// "Scenario as read"). The dataset stores every value as a string plus a Python type
// name; a failed conversion keeps the raw value, exactly like the reference, so odd data
// degrades into a literal comparison instead of a load error.
import type { ActionArg } from '../contract/scenario.js';
import { parsePyJson } from '../contract/pyjson.js';

const TRUE_WORDS = new Set(['true', '1', 't', 'y', 'yes']);

/** `Optional[list[str]]` → `list`; null/empty → null (caller infers). */
export function baseTypeName(valueType: string | null | undefined): string | null {
  if (valueType == null) return null;
  let t = valueType.trim();
  const opt = /^Optional\[(.*)\]$/.exec(t);
  if (opt) t = opt[1]!.trim();
  const bracket = t.indexOf('[');
  if (bracket >= 0) t = t.slice(0, bracket);
  return t || null;
}

function inferType(value: unknown): string {
  if (typeof value === 'string') {
    if (value.startsWith('[')) return 'list';
    if (value.startsWith('{')) return 'dict';
  }
  return 'str';
}

// Python int() accepts surrounding whitespace, a sign and digit-group underscores.
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
const PY_FLOAT = /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:[eE][+-]?\d+)?|\d+(?:_\d+)*\.|inf|infinity|nan)\s*$/i;

function toInt(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && PY_INT.test(value)) return Number(value.trim().replace(/_/g, ''));
  return value;
}

function toFloat(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && PY_FLOAT.test(value)) {
    const s = value.trim().replace(/_/g, '').toLowerCase();
    if (s.endsWith('inf') || s.endsWith('infinity')) return s.startsWith('-') ? -Infinity : Infinity;
    if (s.endsWith('nan')) return NaN;
    return Number(s);
  }
  return value;
}

// json.loads, as the reference loader: float literals stay floats (PyFloat), so
// `{"SORRY15": 15.0}` is passed on, and logged, as 15.0 rather than 15.
function fromJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return parsePyJson(value);
  } catch {
    return value;
  }
}

/** One argument value, converted the way the reference loader converts it. */
export function parseArgValue(value: unknown, valueType: string | null | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.startsWith('{{')) return value; // placeholder, resolved later
  const type = baseTypeName(valueType) ?? inferType(value);
  switch (type) {
    case 'int':
      return toInt(value);
    case 'float':
      return toFloat(value);
    case 'bool':
      if (typeof value === 'boolean') return value;
      return TRUE_WORDS.has(String(value).toLowerCase());
    case 'list':
    case 'dict':
      return fromJson(value);
    default:
      return value;
  }
}

/** `[{name, value, value_type}]` → `{name: typedValue}` in list order. */
export function flattenArgs(args: readonly ActionArg[] | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of args ?? []) out[a.name] = parseArgValue(a.value, a.value_type);
  return out;
}
