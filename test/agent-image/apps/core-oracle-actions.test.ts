// runAction against the reference's own oracle replays, for calendar, contacts, emails and
// messaging: every ENV/oracle line the reference logged for those apps in the golden cases is
// re-run and must log the same line (see ./oracle-replay.ts).
import { describe, it } from 'vitest';
import { replayOracleLines } from './oracle-replay.js';

const CORE_CLASSES = new Set(['CalendarApp', 'Calendar', 'ContactsApp', 'Contacts', 'EmailClientV2', 'MessagingAppV2']);
const SCENARIOS = [
  'adaptability/adapt_chats_kenji_sync',
  'ambiguity/ambig_email_forward_invoice',
  'ambiguity/ambig_messages_which_hana',
  'execution/exec_messages_hike_group',
  'time/time_calendar_boat_trip',
];

describe('runAction reproduces the reference oracle replay lines (core apps)', () => {
  for (const path of SCENARIOS) {
    it(path, async () => {
      await replayOracleLines(path, {
        classes: CORE_CLASSES,
        // Messages and Chats both log MessagingAppV2: run the line with the scenario's messaging app.
        appFor: (line, nameOf) => (line.app === 'MessagingAppV2' ? (nameOf.get('MessagingAppV2') ?? 'Messages') : undefined) ?? nameOf.get(line.app) ?? line.app,
      });
    });
  }
});
