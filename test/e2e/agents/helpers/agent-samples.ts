// Three sample scenarios played by a scripted provider through a real agent program's own
// shell tool, and a wrong play: what each third-party agent's e2e suite runs.
//   single turn  execution/exec_shopping_bottle_order   (add to cart, check out with a code)
//   multi-turn   ambiguity/ambig_email_forward_invoice  (asks which invoice, then forwards it)
//   time         time/time_calendar_boat_trip           (waits for an email 20 s into the run)
// The plays come from the golden oracle logs; the time play first reads the world's clock
// with `date`, then waits in the agent's shell until the email is there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverTurn } from '../../../helpers/fake-llm/index.js';
import { oracleTurns, shellLine } from '../../helpers/oracle-llm-script.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');

export const SAMPLES = {
  single: 'execution/exec_shopping_bottle_order',
  multi: 'ambiguity/ambig_email_forward_invoice',
  time: 'time/time_calendar_boat_trip',
} as const;

export const scenarioFile = (sample: string): string => join(root, 'examples/scenarios', `${sample}.json`);
const idOf = (sample: string): string => sample.split('/')[1]!;
const golden = (sample: string): string => join(root, 'test/fixtures/golden/cases', idOf(sample), 'oracle.events.jsonl');

/** The user's messages of a scenario, in order: the task, then each later turn's message. */
function userMessages(sample: string): string[] {
  const sc = JSON.parse(readFileSync(scenarioFile(sample), 'utf8')) as {
    events: Array<{ event_type: string; action?: { function: string; args: Array<{ name: string; value: string }> } }>;
  };
  return sc.events
    .filter((e) => e.event_type === 'USER' && e.action?.function === 'send_message_to_agent')
    .map((e) => e.action!.args.find((a) => a.name === 'content')!.value);
}

/** The oracle's turns of a sample as shell commands, each started by the user's message. */
export function samplePlay(sample: string, edit: (commands: string[], turn: number) => string[] = (c) => c): DriverTurn[] {
  const said = userMessages(sample);
  return oracleTurns(golden(sample)).map((t, i) => ({ when: said[i]!, commands: edit(t.actions.map(shellLine), i), reply: t.reply }));
}

/** The sim clock as the agent's `date` shows it, then a wait for Lucia's email, then the oracle's actions. */
export const WAIT_FOR_EMAIL = "until emails list-emails | grep -q 'Boat trip on Saturday'; do sleep 2; done; echo arrived";
/**
 * Every clock the agent's shell offers, each printing a day (no command substitution: Gemini CLI
 * refuses `$(…)`): `date -d tomorrow`, python3, node and
 * jq (the reference's agent images have python3 and jq; agents read the apps' JSON with them).
 */
export const CLOCK_PROBE = [
  'date -d tomorrow +tomorrow=%F',
  `python3 -c 'import datetime; print("python3=" + str(datetime.date.today()))'`,
  `node -e 'console.log("node=" + new Date().toISOString().slice(0, 10))'`,
  `jq -rn '"jq=" + (now | strftime("%Y-%m-%d"))'`,
].join('; ');
export const timePlay = (): DriverTurn[] => samplePlay(SAMPLES.time, (c) => ['date', CLOCK_PROBE, WAIT_FOR_EMAIL, ...c]);

/** All three samples, played right. */
export const goodPlays = (): DriverTurn[] => [...samplePlay(SAMPLES.single), ...samplePlay(SAMPLES.multi), ...timePlay()];

/** The single-turn sample with the discount code in lower case: the shop refuses it, so no order is placed and the judge fails the run. */
export const wrongPlay = (): DriverTurn[] => samplePlay(SAMPLES.single, (c) => c.map((l) => l.replace("'HYDRATE5'", "'hydrate5'")));
