import { describe, expect, it } from 'vitest';
import { expectFailure, json, makeWorld, usage } from './world.js';

const STATE = {
  view_limit: 2,
  contacts: {
    c1: { first_name: 'Noor', last_name: 'Haddad', contact_id: 'c1', is_user: true, gender: 'Female', age: 36, phone: '+351 912', email: 'noor@x.example' },
    c2: { first_name: 'Ana', last_name: 'Sousa', contact_id: 'c2', is_user: false, phone: '+351 937', email: 'ana@y.example' },
    c3: { first_name: 'Tom', last_name: 'Ribeiro', contact_id: 'c3', is_user: false },
  },
};
const world = () => makeWorld([['Contacts', 'ContactsApp', STATE]]);

describe('contacts', () => {
  it('pages by view_limit and fills missing fields with defaults', async () => {
    const w = await world();
    const r = json(await w.run('contacts', 'get-contacts', '--offset', '1')) as { contacts: Array<Record<string, unknown>>; metadata: unknown };
    expect(r.metadata).toEqual({ range: [1, 3], total: 3 });
    expect(Object.keys(r.contacts[0]!)).toHaveLength(15);
    expect(r.contacts[0]).toMatchObject({ gender: 'Unknown', status: 'Unknown', age: null, job: null });
  });

  it('validates new contacts in the reference order', async () => {
    const w = await world();
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'ana', '--last-name', 'SOUSA', '--gender', 'x'), 1, 'Contact already exists with contact id - c2.\n');
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'Bo', '--last-name', 'Li', '--gender', 'male'), 1, "'male' is not a valid Gender\n");
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'Bo', '--last-name', 'Li', '--status', 'Busy'), 1, "'Busy' is not a valid Status\n");
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'Bo', '--last-name', 'Li', '--age', '0'), 1, 'Invalid age. 0\n');
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'Bo', '--last-name', 'Li', '--age', '101'), 1, 'Invalid age. 101\n');
    // The reference crashes here; we answer with the same text as a one-line error.
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'Bo', '--last-name', 'Li', '--email', 'bo'), 1, "'bo' is not a valid email address for email.\n");
    expectFailure(await w.run('contacts', 'add-new-contact', '--first-name', 'Bo'), 2, usage('contacts', 'add-new-contact', "Missing option '--last-name'."));
    const ok = await w.run('contacts', 'add-new-contact', '--first-name', 'Bo', '--last-name', 'Li', '--age', '30');
    expect(JSON.parse(w.line(ok)).args).toEqual({ first_name: 'Bo', last_name: 'Li', gender: null, age: 30, nationality: null, city_living: null, country: null, status: null, job: null, description: null, phone: null, email: null, address: null });
    expect(json(await w.run('contacts', 'get-contact', '--contact-id', w.ids[0]!))).toMatchObject({ gender: 'Unknown', status: 'Unknown', is_user: false, age: 30 });
  });

  it('edits with validation and reports bad JSON like Python', async () => {
    const w = await world();
    expectFailure(await w.run('contacts', 'edit-contact', '--contact-id', 'c2', '--updates', '{"job": '), 1, 'Invalid JSON for updates: Expecting value: line 1 column 9 (char 8)\n');
    expectFailure(await w.run('contacts', 'edit-contact', '--contact-id', 'zz', '--updates', '{}'), 1, 'Contact does not exist.\n');
    expectFailure(await w.run('contacts', 'edit-contact', '--contact-id', 'c2', '--updates', '{"is_user": true}'), 1, 'is_user is not a valid attribute of Contact.\n');
    expectFailure(await w.run('contacts', 'edit-contact', '--contact-id', 'c2', '--updates', '{"first_name": null}'), 1, 'Invalid first name.\n');
    expectFailure(await w.run('contacts', 'edit-contact', '--contact-id', 'c2', '--updates', '{"age": "40"}'), 1, 'Invalid age. 40\n');
    const r = await w.run('contacts', 'edit-contact', '--contact-id', 'c2', '--updates', '{"job": "Nurse", "status": "Employed"}');
    expect(json(r)).toEqual({ status: 'success', message: 'Contact c2 updated successfully.' });
    expect(json(await w.run('contacts', 'get-contact', '--contact-id', 'c2'))).toMatchObject({ job: 'Nurse', status: 'Employed' });
  });

  it('finds the user, searches and deletes', async () => {
    const w = await world();
    expect(json(await w.run('contacts', 'get-current-user-details'))).toMatchObject({ contact_id: 'c1' });
    expect((json(await w.run('contacts', 'search-contacts', '--query', 'sousa ana')) as Array<{ contact_id: string }>).map((c) => c.contact_id)).toEqual(['c2']);
    expectFailure(await w.run('contacts', 'get-contact', '--contact-id', 'c9'), 1, 'Contact c9 does not exist.\n');
    expect((await w.run('contacts', 'delete-contact', '--contact-id', 'c1')).exitCode).toBe(0);
    expectFailure(await w.run('contacts', 'delete-contact', '--contact-id', 'c1'), 1, 'Contact does not exist.\n');
    expectFailure(await w.run('contacts', 'get-current-user-details'), 1, 'User Contact does not exist.\n');
  });

  it('reports a corrupt state file in one line naming it', async () => {
    const w = await world();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${w.stateDir}/contacts.json`, '{"contacts": ');
    const r = await w.run('contacts', 'get-contacts');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^State file .*contacts\.json is not valid JSON: Expecting value/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
