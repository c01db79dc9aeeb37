// Which agent a run evaluated, from what its record holds: the recorded {name, version}
// (newer runs), a reference image's own agent, else the runner's agent name.
import { describe, expect, it } from 'vitest';
import { agentIdentity, agentLabel, runAgentIdentity } from '../../../runner/src/report/agent-identity.js';
import { readReportMeta } from '../../../runner/src/report/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('agentIdentity', () => {
  it("takes a third-party agent's recorded {name, version} first, whatever its layer's image is called", () => {
    expect(agentIdentity({ agent: { name: 'openclaw', version: '2026.1.5' }, image: 'localhost/gaia2-agent:latest-openclaw-2026.1.5' })).toEqual({ name: 'openclaw', version: '2026.1.5', source: 'recorded' });
    expect(agentIdentity({ agent: { name: 'codex' } })).toEqual({ name: 'codex', version: null, source: 'recorded' });
  });

  it("names a reference image's own agent (it plays it whatever the runner's agent was)", () => {
    expect(agentIdentity({ agent: 'default', image: 'ghcr.io/meta/gaia2-oc:latest' })).toEqual({ name: 'openclaw', version: null, source: 'image' });
    expect(agentIdentity({ agent: { name: 'default', version: '0.1.0' }, image: 'gaia2-hermes:1' })).toEqual({ name: 'hermes', version: null, source: 'image' });
    // our own image: the recorded runner agent and its version
    expect(agentIdentity({ agent: { name: 'default', version: '0.1.0' }, image: 'localhost/gaia2-agent:latest' })).toEqual({ name: 'default', version: '0.1.0', source: 'recorded' });
  });

  it("falls back to the runner's agent name (result.json's agent, or a run record's agent_options.name), then to unknown", () => {
    expect(agentIdentity({ agent: 'default', image: 'localhost/gaia2-agent:latest' })).toEqual({ name: 'default', version: null, source: 'agent-option' });
    expect(agentIdentity({ agent: 'codex', agent_version: '0.46.0' })).toEqual({ name: 'codex', version: '0.46.0', source: 'agent-option' });
    expect(runAgentIdentity({ agent: null, agent_options: { name: 'scripted', image: 'localhost/gaia2-agent:latest' } as never })).toEqual({ name: 'scripted', version: null, source: 'agent-option' });
    expect(runAgentIdentity({ agent: null, agent_options: { name: 'default', image: 'ghcr.io/meta/gaia2-oc:latest' } as never })).toEqual({ name: 'openclaw', version: null, source: 'image' });
    expect(runAgentIdentity({ agent: null, agent_options: null })).toEqual({ name: null, version: null, source: 'unknown' });
    expect(agentIdentity({ agent: { version: '1' } })).toEqual({ name: null, version: null, source: 'unknown' });
    expect(agentIdentity({})).toEqual({ name: null, version: null, source: 'unknown' });
  });

  it("is in the report's meta, with the run's setting", () => {
    const d = mkdtempSync(join(tmpdir(), 'agent-id-'));
    writeFileSync(join(d, 'run_config.json'), JSON.stringify({ agent: { name: 'gemini-cli', version: '0.9.0' }, model: 'gemini-2.5-pro', noise: { tool_failure_probability: 0.1 }, a2a_app_prop: 1 }));
    expect(readReportMeta(d)).toMatchObject({ agent_identity: { name: 'gemini-cli', version: '0.9.0', source: 'recorded' }, setting: 'agent2agent+noise' });
    writeFileSync(join(d, 'run_config.json'), JSON.stringify({ agent: 'default', noise: null }));
    expect(readReportMeta(d)).toMatchObject({ agent: 'default', agent_identity: { name: 'default', version: null }, setting: 'standard' });
  });
});

describe('agentLabel', () => {
  it('is name and version, the name alone without one, empty when nobody is known', () => {
    expect(agentLabel({ name: 'codex', version: '0.169.0' })).toBe('codex 0.169.0');
    expect(agentLabel(agentIdentity({ agent: 'default', image: 'ghcr.io/meta/gaia2-oc:latest' }))).toBe('openclaw');
    expect(agentLabel(agentIdentity({}))).toBe('');
  });
});
