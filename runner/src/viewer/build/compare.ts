// Two runs of the same scenarios: verdict per side and the first agent write where they differ.
import { join } from 'node:path';
import { isEnvLine, isUserLine, parseEventsJsonl } from '@gaia2/contract';
import { readText } from '../model/artifacts.js';
import { hrefOf } from '../model/scenario.js';
import type { ComparePage, Crumb } from '../model/pages.js';
import type { IndexRow } from '../model/types.js';
import { naturalCompare } from './fs-util.js';

export interface CompareSide {
  name: string;
  dir: string;
  /** Path from the page's folder to this run dir, with a trailing slash ('' when the same). */
  prefix: string;
  rows: IndexRow[];
}

function writeActions(dir: string): string[] {
  return parseEventsJsonl(readText(join(dir, 'events.jsonl')))
    .filter((e) => e.w === true && !isEnvLine(e) && !isUserLine(e))
    .map((e) => `${e.app}.${e.fn}(${JSON.stringify(e.args ?? {})})`);
}

export function firstDivergence(a: string[], b: string[]): { index: number; a: string; b: string } | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return { index: i, a: a[i] ?? '', b: b[i] ?? '' };
  return null;
}

export function comparePageData(a: CompareSide, b: CompareSide, crumbs: Crumb[]): ComparePage {
  const byA = new Map(a.rows.map((r) => [r.id, r]));
  const byB = new Map(b.rows.map((r) => [r.id, r]));
  const ids = [...new Set([...byA.keys(), ...byB.keys()])].sort(naturalCompare);
  const side = (s: CompareSide, r: IndexRow | undefined): { status: string; href: string } =>
    r ? { status: r.status, href: s.prefix + hrefOf(r.id, 'trace.html') } : { status: 'none', href: '' };
  return {
    page: 'compare',
    crumbs,
    a: { name: a.name },
    b: { name: b.name },
    rows: ids.map((id) => {
      const ra = byA.get(id);
      const rb = byB.get(id);
      const divergence = ra && rb ? firstDivergence(writeActions(join(a.dir, ...id.split('/'))), writeActions(join(b.dir, ...id.split('/')))) : null;
      return { id, a: side(a, ra), b: side(b, rb), divergence };
    }),
  };
}
