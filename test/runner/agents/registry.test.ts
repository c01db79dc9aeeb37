import { describe, expect, it } from 'vitest';
import { agentRegistry, createRegistry, unknownAgentMessage } from '../../../runner/src/agents/index.js';
import { fixtureAdapter } from './fixture-adapter.js';

describe('agent registry', () => {
  it('knows our runtimes, the adapters by name, and external last', () => {
    const r = createRegistry([fixtureAdapter({ name: 'zeta' }), fixtureAdapter()]);
    expect(r.names()).toEqual(['oracle', 'default', 'scripted', 'acme', 'zeta', 'external']);
    expect(r.find('acme')?.package.name).toBe('@acme/agent-cli');
    expect(r.find('default')).toBeNull();
    expect(r.find('nope')).toBeNull();
  });

  it('refuses a malformed, duplicate or reserved name and an adapter without providers', () => {
    expect(() => createRegistry([fixtureAdapter({ name: 'Acme' })])).toThrow(/lower case/);
    expect(() => createRegistry([fixtureAdapter(), fixtureAdapter()])).toThrow(/"acme" is taken/);
    expect(() => createRegistry([fixtureAdapter({ name: 'default' })])).toThrow(/"default" is taken/);
    expect(() => createRegistry([fixtureAdapter({ name: 'external' })])).toThrow(/taken/);
    expect(() => createRegistry([fixtureAdapter({ providers: [] })])).toThrow(/no providers/);
  });

  it('names the field and lists every known agent for an unknown name', () => {
    const r = createRegistry([fixtureAdapter()]);
    expect(unknownAgentMessage('claude', '--agent', r)).toBe('--agent = "claude" is not a known agent; known agents: oracle, default, scripted, acme, external');
  });

  it("the runner's own registry is well-formed", () => {
    const names = agentRegistry().names();
    expect(names.slice(0, 3)).toEqual(['oracle', 'default', 'scripted']);
    expect(names.at(-1)).toBe('external');
  });
});
