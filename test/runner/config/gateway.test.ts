// [gateway] and [limits] from a TOML file and from flags: values, precedence, and errors that
// name the table and key.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limitsFor, resolveGateway } from '../../../runner/src/config/gateway.js';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { withGatewayFlags } from '../../../runner/src/config/gateway-flags.js';
import { providerToolsAllowed } from '../../../runner/src/plan/gateway.js';
import { engineNetwork, sealedNetwork } from '../../../runner/src/plan/plan.js';

function config(extra: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  writeFileSync(join(dir, 's.json'), '{}');
  const f = join(dir, 'c.toml');
  writeFileSync(f, `[target]\nscenario = "s.json"\n[agent]\nname = "oracle"\n${extra}`);
  return f;
}

describe('[gateway] and [limits]', () => {
  it('reads limits per provider and per model, falling back field by field', () => {
    const plan = loadRunConfig(
      config('[gateway]\nretry_attempts = 4\nreplay = "old"\n[limits]\nmax_concurrent = 8\ntokens_per_minute = 1000\n[limits.anthropic]\nmax_concurrent = 2\n[limits."anthropic/claude-x"]\nrequests_per_minute = 30\n'),
      {},
    );
    const g = plan.gateway!;
    expect(g.mode).toBe('on'); // a replay needs the gateway
    expect(g.replay).toMatch(/gw-config-.*\/old$/); // relative to the file
    expect(g.retryAttempts).toBe(4);
    expect(limitsFor(g.limits, 'anthropic', 'claude-x')).toEqual({ maxConcurrent: 2, requestsPerMinute: 30, tokensPerMinute: 1000 });
    expect(limitsFor(g.limits, 'anthropic', 'other')).toEqual({ maxConcurrent: 2, requestsPerMinute: null, tokensPerMinute: 1000 });
    expect(limitsFor(g.limits, 'openai', null)).toEqual({ maxConcurrent: 8, requestsPerMinute: null, tokensPerMinute: 1000 });
  });

  it('flags replace the file (run-config) and --no-gateway turns it off', () => {
    const f = config('[gateway]\nenabled = true\n[limits]\nmax_concurrent = 8\n');
    const plan = loadRunConfig(f, {}, withGatewayFlags({ gateway: false, maxConcurrentRequests: '3' }));
    expect(plan.gateway!.mode).toBe('off');
    expect(plan.gateway!.limits.default.maxConcurrent).toBe(3);
    expect(loadRunConfig(config(''), {}).gateway!.mode).toBe('auto');
  });

  it('bad values are errors naming the file, table and key', () => {
    expect(() => loadRunConfig(config('[limits]\nmax_concurrent = 0\n'), {})).toThrow(/c\.toml: \[limits\]\.max_concurrent must be at least 1/);
    expect(() => loadRunConfig(config('[limits.anthropic]\nmax_concurent = 2\n'), {})).toThrow(/max_concurent/);
    expect(() => loadRunConfig(config('[gateway]\nenable = true\n'), {})).toThrow(/enable/);
    expect(() => resolveGateway({ flags: { enabled: false, replay: '/x' } })).toThrow(/--replay needs the gateway/);
  });
});

// The sealed network's settings: [run] network = "open" opts out (the bridge, unsealed), and the
// provider tools a sealed run allows come from [gateway] allow_provider_tools.
describe('sealed network', () => {
  it('bridge is the sealed default; open is the bridge unsealed; host is never sealed', () => {
    const plain = loadRunConfig(config(''), {});
    expect(plain.run.network).toBe('bridge');
    expect(sealedNetwork(plain.run.network)).toBe(true);
    const open = loadRunConfig(config('[run]\nnetwork = "open"\n'), {});
    expect([open.run.network, engineNetwork(open.run.network), sealedNetwork(open.run.network)]).toEqual(['open', 'bridge', false]);
    expect([engineNetwork('host'), sealedNetwork('host')]).toEqual(['host', false]);
    expect(() => loadRunConfig(config('[run]\nnetwork = "sealed"\n'), {})).toThrow(/network/);
  });

  it('[gateway] allow_provider_tools names the tools a sealed run lets through; an unsealed run lets all through', () => {
    const g = loadRunConfig(config('[gateway]\nallow_provider_tools = ["web_search", "web_search"]\n'), {}).gateway!;
    expect(g.allowProviderTools).toEqual(['web_search']);
    expect(providerToolsAllowed(g, true)).toEqual(['web_search']);
    expect(providerToolsAllowed(g, false)).toBe('all');
    expect(loadRunConfig(config(''), {}).gateway!.allowProviderTools).toEqual([]);
    expect(() => loadRunConfig(config('[gateway]\nallow_provider_tools = ["browse"]\n'), {})).toThrow(/allow_provider_tools.*web_search, web_fetch, code_execution/s);
  });
});
