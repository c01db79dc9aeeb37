import { describe, expect, it } from 'vitest';
import { cliSpecs } from '../../../../agent-image/src/apps/index.js';
import { argvFor, createFunctionTools, functionName } from '../../../../agent-image/src/agents/default/index.js';
import { withRenames } from '../../../../agent-image/src/agents/default/function-tools.js';
import { inProcessApps } from './helpers.js';

describe('function tools from the CLI definitions', () => {
  const specs = cliSpecs();

  it('makes one tool per visible, non-hidden command of the scenario apps only', () => {
    const tools = createFunctionTools({ specs, visible: ['contacts', 'cabs'], run: async () => ({ stdout: '', stderr: '', exit_code: 0 }), maxOutputChars: 1000 });
    const names = Object.keys(tools);
    const expected = specs
      .filter((s) => s.cli === 'contacts' || s.cli === 'cabs')
      .flatMap((s) => s.commands.filter((c) => !c.hidden).map((c) => functionName(s.cli, c.name)));
    expect(names.sort()).toEqual(expected.sort());
    expect(names).toContain('contacts__search_contacts');
    expect(names.some((n) => n.startsWith('emails__'))).toBe(false);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_]{1,64}$/);
  });

  it('builds the argv the CLI would get (types, flags, required options)', () => {
    const drive = specs.find((s) => s.cli === 'cloud-drive')!;
    const ls = drive.commands.find((c) => c.name === 'ls')!;
    expect(argvFor('cloud-drive', ls, { path: '/docs', detail: true })).toEqual(['cloud-drive', 'ls', ls.options[0]!.flag, '/docs', ls.options[1]!.flag]);
    expect(argvFor('cloud-drive', ls, { path: '/docs', detail: false })).toEqual(['cloud-drive', 'ls', ls.options[0]!.flag, '/docs']);
    expect(() => argvFor('cloud-drive', ls, { path: '/', colour: 'red' })).toThrow(/unknown parameter\(s\) for cloud_drive__ls: colour/);
  });

  it('runs the real apps in-process and returns their JSON, or their error', async () => {
    const apps = await inProcessApps();
    const tools = createFunctionTools({ specs, visible: ['contacts'], run: apps.run, maxOutputChars: 100_000 });
    const exec = (name: string, input: Record<string, unknown>) =>
      (tools[name] as any).execute(input, { toolCallId: 't', messages: [] }) as Promise<string>;
    const me = await exec('contacts__get_current_user_details', {});
    expect(JSON.parse(me)).toHaveProperty('first_name');
    const missing = await exec('contacts__get_contact', { contact_id: 'no-such-id' });
    expect(missing).toMatch(/\[exit code [12]\]/);
  });
});

describe('function tools in the Noise phase', () => {
  it('withRenames: a renamed command becomes a tool under its new name and help, calling the new name', async () => {
    const renamed = [{ cli: 'contacts', fn: 'get_current_user_details', name: 'who-am-i', help: 'Tells who the phone belongs to.' }];
    const argvs: string[][] = [];
    const tools = createFunctionTools({ specs: withRenames(cliSpecs(), renamed), visible: ['contacts'], run: async (argv) => (argvs.push(argv), { stdout: '{}', stderr: '', exit_code: 0 }), maxOutputChars: 1000 });
    expect(Object.keys(tools)).toContain('contacts__who_am_i');
    expect(Object.keys(tools)).not.toContain('contacts__get_current_user_details');
    expect((tools.contacts__who_am_i as { description?: string }).description).toContain('Tells who the phone belongs to.');
    await (tools.contacts__who_am_i as any).execute({}, { toolCallId: 't', messages: [] });
    expect(argvs).toEqual([['contacts', 'who-am-i']]);
    expect(withRenames(cliSpecs(), undefined)).toEqual(cliSpecs());
  });
});
