// Every command of calendar, contacts, emails, messages and chats answers bad usage like
// Click: a missing required option, an unknown option, and --help.
import { describe, expect, it } from 'vitest';
import { cliSpecs } from '../../../agent-image/src/apps/index.js';
import { expectFailure, makeWorld, usage } from './world.js';

const CORE = ['calendar', 'contacts', 'emails', 'messages', 'chats'];
const MESSAGING = { current_user_id: 'me', id_to_name: { me: 'Me' }, name_to_id: { Me: 'me' }, conversations: {} };

describe('usage errors of every core command', () => {
  const specs = cliSpecs().filter((s) => CORE.includes(s.cli));
  it('covers the five apps', () => expect(specs.map((s) => s.cli)).toEqual(CORE));
  for (const spec of specs) {
    for (const cmd of spec.commands) {
      it(`${spec.cli} ${cmd.name}`, async () => {
        const w = await makeWorld([
          ['Calendar', 'CalendarApp', { events: {} }],
          ['Messages', 'MessagingAppV2', MESSAGING],
          ['Chats', 'MessagingAppV2', { ...MESSAGING, mode: 'PHONE_NUMBER' }],
        ]);
        const required = cmd.options.find((o) => o.required);
        if (required) expectFailure(await w.run(spec.cli, cmd.name), 2, usage(spec.cli, cmd.name, `Missing option ${[required.flag, ...required.aliases].map((f) => `'${f}'`).join(' / ')}.`));
        expectFailure(await w.run(spec.cli, cmd.name, '--no-such-thing', 'x'), 2, usage(spec.cli, cmd.name, "No such option '--no-such-thing'."));
        const help = await w.run(spec.cli, cmd.name, '--help');
        expect(help.exitCode).toBe(0);
        expect(help.stdout.startsWith(`Usage: ${spec.cli} ${cmd.name} [OPTIONS]\n`)).toBe(true);
        for (const o of cmd.options) expect(help.stdout).toContain(o.flag);
      });
    }
  }
});
