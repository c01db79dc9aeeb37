// The daemon's app states (AppsGateway + MemoryStates): commands are served from memory, the
// state files are written when the run ends — complete, stopped or error — and hold then what
// the commands did; nothing is written per command.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DriveBuild } from '../../../agent-image/src/apps/index.js';
import { AppsGateway } from '../../../agent-image/src/world/apps-gateway.js';
import { composeWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { readGolden } from './golden.js';
import { parsePyJson } from '../../../agent-image/src/contract/pyjson.js';
import { runOracle, tempStateDir, testSettings } from './run-world.js';

const SIM = () => ({ simTime: '2025-10-09 09:00:00' });
const contacts = (dir: string) => JSON.parse(readFileSync(join(dir, 'contacts.json'), 'utf8')) as { contacts: Record<string, { first_name: string }> };

async function scriptedWorld(scenario: string) {
  const stateDir = tempStateDir();
  const composed = await composeWorld({ scenario: readGolden(scenario), stateDir, settings: testSettings({ agent: 'scripted' }) });
  return { world: composed.world, stateDir };
}

describe('app states of the world daemon', () => {
  it('are served from memory and written when the run ends with an error', async () => {
    const { world, stateDir } = await scriptedWorld('scenarios/search/search_cab_cheapest_airport.json');
    const id = firstContactId(await world.apps.cli(['contacts', 'get-contacts'], SIM));
    const edit = await world.apps.cli(['contacts', 'edit-contact', '--contact-id', id, '--updates', '{"first_name": "Zed"}'], SIM);
    expect(edit.exitCode, edit.stderr).toBe(0);
    // The next command sees the change; the file does not exist yet (seeded in memory).
    expect((await world.apps.cli(['contacts', 'get-contact', '--contact-id', id], SIM)).stdout).toContain('"first_name": "Zed"');
    expect(() => statSync(join(stateDir, 'contacts.json'))).toThrow();
    world.fail('test: the agent runtime was lost');
    expect(world.status.status).toBe('error');
    expect(contacts(stateDir).contacts[id]!.first_name).toBe('Zed');
    // The status file was written after the states: whoever sees it terminal finds them.
    expect(statSync(join(stateDir, 'daemon_status.json')).mtimeMs).toBeGreaterThanOrEqual(statSync(join(stateDir, 'contacts.json')).mtimeMs);
  });

  it("are written at the end even when the drive's tree cannot be built, and the drive's error is told", async () => {
    const stateDir = tempStateDir();
    const failing = { finish: () => { throw new Error("cannot build the cloud drive's tree: disk full"); } } as unknown as DriveBuild;
    const apps = new AppsGateway(stateDir, {}, undefined, failing);
    apps.states.seed(join(stateDir, 'contacts.json'), { contacts: {} });
    expect(() => apps.settle()).toThrow(/disk full/);
    expect(JSON.parse(readFileSync(join(stateDir, 'contacts.json'), 'utf8'))).toEqual({ contacts: {} });
  });

  it('a change made after a persist is written at the end, not before', async () => {
    const { world, stateDir } = await scriptedWorld('scenarios/search/search_cab_cheapest_airport.json');
    world.apps.persist();
    const before = readFileSync(join(stateDir, 'cab_app.json'), 'utf8');
    const r = await world.apps.cli(['cabs', 'order-ride', '--start-location', 'Home', '--end-location', 'Airport', '--service-type', 'Default'], SIM);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(stateDir, 'cab_app.json'), 'utf8')).toBe(before);
    world.fail('test: stopped');
    const after = JSON.parse(readFileSync(join(stateDir, 'cab_app.json'), 'utf8')) as { on_going_ride: { end_location: string } };
    expect(after.on_going_ride.end_location).toBe('Airport');
    // A command after the end (an agent finishing its step) is persisted as it completes.
    expect((await world.apps.cli(['cabs', 'user-cancel-ride'], SIM)).exitCode).toBe(0);
    expect(readFileSync(join(stateDir, 'cab_app.json'), 'utf8')).toMatch(/"on_going_ride": null/);
  });

  it('are written when the oracle run completes, with its writes', async () => {
    const run = await runOracle('scenarios/execution/exec_shopping_bottle_order.json');
    expect(run.status.status).toBe('complete');
    const shop = JSON.parse(readFileSync(join(run.stateDir, 'shopping.json'), 'utf8')) as { orders: Record<string, unknown> };
    const ordered = run.lines.filter((l) => l.fn === 'checkout').length;
    expect(ordered).toBeGreaterThan(0);
    const seeded = JSON.parse(readGolden('scenarios/execution/exec_shopping_bottle_order.json')) as { apps: Array<{ name: string; app_state: { orders?: object } }> };
    const seededOrders = Object.keys(seeded.apps.find((a) => a.name === 'Shopping')!.app_state.orders ?? {}).length;
    expect(Object.keys(shop.orders).length).toBe(seededOrders + ordered);
  });

  it('are written when a judged turn is rejected and the run stops', async () => {
    const { world, stateDir } = await scriptedWorld('scenarios/execution/exec_messages_hike_group.json');
    world.attachAgent({ name: 'fake', deliver: () => 'r', isIdle: () => true, wakeAt: () => null, shutdown: () => undefined });
    world.start();
    world.markReady();
    const id = firstContactId(await world.apps.cli(['contacts', 'get-contacts'], SIM));
    const r = await world.apps.cli(['contacts', 'delete-contact', '--contact-id', id], SIM);
    expect(r.exitCode, r.stderr).toBe(0);
    world.agentReply('Done.'); // turn 0 without the scenario's writes: rejected
    const s = await world.finished();
    expect(s.status).toBe('stopped');
    expect(contacts(stateDir).contacts).not.toHaveProperty(id);
  });
});

describe("the scenario's app states at boot (deferred)", () => {
  const SCENARIO = 'scenarios/execution/exec_messages_hike_group.json';

  it('are not parsed at boot; a command parses its own app; the rest follow once the agent is attached, then the user details and the seeded files', async () => {
    const stateDir = tempStateDir();
    let parsed!: () => void;
    const allParsed = new Promise<void>((r) => (parsed = r));
    const { world } = await composeWorld({ scenario: readGolden(SCENARIO), stateDir, settings: testSettings({ agent: 'scripted' }), afterStatesSettled: () => parsed() });
    const seeded = world.apps.states.deferredFiles.map((f) => f.slice(stateDir.length + 1)).sort();
    expect(seeded).toEqual(expect.arrayContaining(['contacts.json', 'messages.json']));
    expect(seeded.length).toBeGreaterThan(2);
    // The user's own contact is in the contacts state: not looked up yet.
    expect(() => statSync(join(stateDir, 'user_details.json'))).toThrow();
    const r = await world.apps.cli(['messages', 'list-recent-conversations'], SIM);
    expect(r.exitCode, r.stderr).toBe(0);
    const left = world.apps.states.deferredFiles.map((f) => f.slice(stateDir.length + 1)).sort();
    expect(left).toEqual(seeded.filter((f) => f !== 'messages.json'));
    // Attaching the agent ends the boot: the others are parsed in the background.
    world.attachAgent({ name: 'fake', deliver: () => 'r', isIdle: () => true, wakeAt: () => null, shutdown: () => undefined });
    await allParsed;
    expect(world.apps.states.deferredFiles).toEqual([]);
    const me = JSON.parse(readFileSync(join(stateDir, 'user_details.json'), 'utf8')) as { first_name: string };
    const seededContacts = (JSON.parse(readGolden(SCENARIO)) as { apps: Array<{ name: string; app_state: { contacts: Record<string, { is_user?: boolean; first_name: string }> } }> }).apps.find((a) => a.name === 'Contacts')!.app_state.contacts;
    expect(me.first_name).toBe(Object.values(seededContacts).find((c) => c.is_user)!.first_name);
    // The seeded states are written too, so the end writes only what changes after.
    const seededFile = readFileSync(join(stateDir, 'contacts.json'), 'utf8');
    expect(Object.keys(contacts(stateDir).contacts).sort()).toEqual(Object.keys(seededContacts).sort());
    expect(world.apps.states.dirtyFiles).toEqual([]);
    const id = firstContactId(await world.apps.cli(['contacts', 'get-contacts'], SIM));
    expect((await world.apps.cli(['contacts', 'edit-contact', '--contact-id', id, '--updates', '{"first_name": "Zed"}'], SIM)).exitCode).toBe(0);
    expect(readFileSync(join(stateDir, 'contacts.json'), 'utf8')).toBe(seededFile);
    expect(world.apps.states.dirtyFiles.map((f) => f.slice(stateDir.length + 1))).toEqual(['contacts.json']);
    world.fail('test: stopped');
    expect(contacts(stateDir).contacts[id]!.first_name).toBe('Zed');
  });

  it('are written at the end with the same bytes as states seeded parsed, untouched or not', async () => {
    const files = async (scenario: unknown): Promise<Record<string, string>> => {
      const stateDir = tempStateDir();
      const { world } = await composeWorld({ scenario, stateDir, settings: testSettings({ agent: 'scripted' }) });
      expect((await world.apps.cli(['contacts', 'get-contacts'], SIM)).exitCode).toBe(0);
      world.fail('test: stopped');
      const out: Record<string, string> = {};
      for (const name of ['contacts.json', 'messages.json', 'agent_user_interface.json', 'user_details.json']) {
        try {
          out[name] = readFileSync(join(stateDir, name), 'utf8');
        } catch {
          out[name] = '<none>';
        }
      }
      return out;
    };
    const text = readGolden(SCENARIO);
    const deferred = await files(text);
    expect(deferred['messages.json']).toMatch(/^\{/);
    expect(deferred['user_details.json']).toMatch(/first_name/);
    expect(deferred).toEqual(await files(parsePyJson(text)));
  });
});

function firstContactId(r: { stdout: string }): string {
  return /"contact_id": "(\w+)"/.exec(r.stdout)![1]!;
}
