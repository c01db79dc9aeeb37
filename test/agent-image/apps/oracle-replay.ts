// Re-runs, through runAction, the lines the reference logged for some apps while replaying a
// golden scenario's oracle (test/fixtures/golden/cases/<id>/oracle.events.jsonl): same scenario
// app name, ARE function, args, sim time and event id; each produced line must equal the
// recorded one. Ids the reference generated are mapped to ours as they appear (ret of a write)
// and substituted into later args.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { initWorld, runAction } from '../../../agent-image/src/apps/index.js';
import type { EventLine } from '../../../agent-image/src/contract/events.js';
import { formatEventLine, parsePyJson, pyJsonValue } from '../../../agent-image/src/contract/pyjson.js';
import { idSequence } from './golden.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/golden');

export interface OracleReplayOptions {
  /** Logged `app` classes whose lines are replayed. */
  classes: ReadonlySet<string>;
  /** Scenario app name to run a line with; default: the app whose class_name is the line's app. */
  appFor?: (line: EventLine, nameOfClass: ReadonlyMap<string, string>) => string;
  /** Lines whose `ret` cannot match (random or wall-clock dependent): compared without it. */
  maskRet?: (line: EventLine) => boolean;
}

const substitute = (text: string, map: ReadonlyMap<string, string>): string => {
  let out = text;
  for (const [from, to] of map) out = out.split(from).join(to);
  return out;
};

/** `path`: '<split>/<scenario id>' under the golden scenarios. */
export async function replayOracleLines(path: string, opts: OracleReplayOptions): Promise<void> {
  const id = path.split('/')[1]!;
  const scenarioText = readFileSync(join(GOLDEN, 'scenarios', `${path}.json`), 'utf8');
  const scenario = parsePyJson(scenarioText) as { apps: Array<{ name: string; class_name?: string }> };
  const nameOf = new Map(scenario.apps.map((a) => [a.class_name ?? a.name, a.name]));
  const stateDir = join(mkdtempSync(join(tmpdir(), 'gaia2-oracle-')), 'state');
  await initWorld(scenarioText, stateDir);
  const recorded = readFileSync(join(GOLDEN, 'cases', id, 'oracle.events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parsePyJson(l) as EventLine)
    .filter((l) => opts.classes.has(l.app));
  expect(recorded.length, `${id}: lines to replay`).toBeGreaterThan(0);
  const ids = idSequence();
  const theirsToOurs = new Map<string, string>();
  const oursToTheirs = new Map<string, string>();
  for (const want of recorded) {
    const where = `${id} ${want.fn}`;
    const app = opts.appFor?.(want, nameOf) ?? nameOf.get(want.app) ?? want.app;
    // Substituting through JSON text would turn PyFloats into ints, so only strings are mapped.
    const args = Object.fromEntries(
      Object.entries(want.args).map(([k, v]) => [k, typeof v === 'string' ? substitute(v, theirsToOurs) : v]),
    );
    const r = await runAction(app, want.fn, args, { stateDir, simTime: want.sim_t!, eventId: want.event_id, ids: ids.next });
    expect(r.stderr, where).toBe('');
    expect(r.exitCode, where).toBe(0);
    expect(r.events, where).toHaveLength(1);
    const got = r.events[0]!;
    const gotRet = pyJsonValue(got.ret);
    if (typeof gotRet === 'string' && ids.generated.includes(gotRet) && typeof want.ret === 'string') {
      theirsToOurs.set(want.ret, gotRet);
      oursToTheirs.set(gotRet, want.ret);
    }
    const masked = opts.maskRet?.(want) ?? false;
    // `t` of the recording is the replaying process's clock; compare everything else.
    const line = substitute(formatEventLine({ ...got, t: 0, ...(masked ? { ret: null } : {}) }), oursToTheirs);
    expect(line, where).toBe(formatEventLine({ ...want, t: 0, ...(masked ? { ret: null } : {}) }));
  }
}
