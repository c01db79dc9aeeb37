// runAction against the reference's own oracle replays, for calendar, contacts, emails and
// messaging: every ENV/oracle line the reference logged for those apps in the golden cases is
// re-run through runAction (scenario app name, ARE function, args, the line's sim time and
// event id) and must log the same line. Ids the reference generated are mapped to ours as
// they appear (ret of a write), and substituted into later args.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initWorld, runAction } from '../../../agent-image/src/apps/index.js';
import type { EventLine } from '../../../agent-image/src/contract/events.js';
import { formatEventLine, parsePyJson } from '../../../agent-image/src/contract/pyjson.js';
import { idSequence } from './golden.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/golden');
const CORE_CLASSES = new Set(['CalendarApp', 'Calendar', 'ContactsApp', 'Contacts', 'EmailClientV2', 'MessagingAppV2']);
const SCENARIOS = [
  'adaptability/adapt_chats_kenji_sync',
  'ambiguity/ambig_email_forward_invoice',
  'ambiguity/ambig_messages_which_hana',
  'execution/exec_messages_hike_group',
  'time/time_calendar_boat_trip',
];

const substitute = (text: string, map: Map<string, string>): string => {
  let out = text;
  for (const [from, to] of map) out = out.split(from).join(to);
  return out;
};

describe('runAction reproduces the reference oracle replay lines (core apps)', () => {
  for (const path of SCENARIOS) {
    it(path, async () => {
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
        .filter((l) => CORE_CLASSES.has(l.app));
      expect(recorded.length).toBeGreaterThan(0);
      const ids = idSequence();
      const theirsToOurs = new Map<string, string>();
      const oursToTheirs = new Map<string, string>();
      for (const want of recorded) {
        const app = want.app === 'MessagingAppV2' ? (nameOf.get('MessagingAppV2') ?? 'Messages') : (nameOf.get(want.app) ?? want.app);
        const args = JSON.parse(substitute(JSON.stringify(want.args), theirsToOurs)) as Record<string, unknown>;
        const r = await runAction(app, want.fn, args, { stateDir, simTime: want.sim_t!, eventId: want.event_id, ids: ids.next });
        expect(r.stderr, `${id} ${want.fn}`).toBe('');
        expect(r.exitCode).toBe(0);
        expect(r.events).toHaveLength(1);
        const got = r.events[0]!;
        if (typeof got.ret === 'string' && ids.generated.includes(got.ret) && typeof want.ret === 'string') {
          theirsToOurs.set(want.ret, got.ret);
          oursToTheirs.set(got.ret, want.ret);
        }
        // `t` of the recording is the replaying process's clock; compare everything else.
        const line = substitute(formatEventLine({ ...got, t: 0 }), oursToTheirs);
        expect(line, `${id} ${want.fn}`).toBe(formatEventLine({ ...want, t: 0 }));
      }
    });
  }
});
