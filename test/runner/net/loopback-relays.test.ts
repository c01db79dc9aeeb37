import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { inSubnet, startLoopbackRelays, urlHost, type LoopbackRelays } from '../../../runner/src/net/index.js';

// The bridge lookup is asked only when a relay is needed; one that fails exercises the notice.
const noBridge = async (): Promise<never> => {
  throw new Error('engine none does not expose its API endpoint');
};
const loopbackBridge = { gateway: '127.0.0.1', subnet: '127.0.0.0/8' };

let servers: Server[] = [];
let open: LoopbackRelays[] = [];
afterEach(async () => {
  await Promise.all(open.map((r) => r.close()));
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  open = [];
});

async function service(reply: string): Promise<number> {
  const s = createServer((req, res) => res.end(`${reply} ${req.url}`));
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

describe('startLoopbackRelays', () => {
  it('rewrites loopback and host-alias URLs to one relay per target port and forwards through it', async () => {
    const llm = await service('llm');
    const proxy = await service('proxy');
    const r = await startLoopbackRelays(
      {
        BASE_URL: `http://host.containers.internal:${llm}/v1`,
        GAIA2_JUDGE_BASE_URL: `http://127.0.0.1:${llm}/v1?x=1`,
        HTTP_PROXY: `http://user:pw@localhost:${proxy}`,
        OTHER: 'https://api.example.com/v1',
        NO_PROXY: '127.0.0.1,localhost',
        API_KEY: 'sk-canary',
      },
      { bridge: loopbackBridge },
    );
    open.push(r);
    expect(r.relays).toHaveLength(2);
    const llmRelay = r.relays.find((x) => x.vars.includes('BASE_URL'))!;
    expect(llmRelay.vars).toEqual(['BASE_URL', 'GAIA2_JUDGE_BASE_URL']);
    const p = llmRelay.relay.port;
    expect(r.env.BASE_URL).toBe(`http://host.containers.internal:${p}/v1`);
    expect(r.env.GAIA2_JUDGE_BASE_URL).toBe(`http://host.containers.internal:${p}/v1?x=1`);
    expect(r.env.HTTP_PROXY).toMatch(/^http:\/\/user:pw@host\.containers\.internal:\d+$/);
    expect(r.env.OTHER).toBe('https://api.example.com/v1');
    expect(r.env.NO_PROXY).toBe('127.0.0.1,localhost');
    expect(r.env.API_KEY).toBe('sk-canary');
    // The alias is the gateway (here loopback), so the rewritten URL's port works from there.
    expect(await (await fetch(`http://127.0.0.1:${p}/v1/models`)).text()).toBe('llm /v1/models');
    await r.close();
    await expect(fetch(`http://127.0.0.1:${p}/`)).rejects.toThrow();
  });

  it('points URLs at the relay address itself when asked (a remote engine reaches the runner by its address)', async () => {
    const llm = await service('llm');
    const r = await startLoopbackRelays(
      { BASE_URL: `http://127.0.0.1:${llm}/v1`, HTTPS_PROXY: `http://u:p@localhost:${llm}` },
      { bridge: { gateway: '127.0.0.1', subnet: '127.0.0.1/32' }, urlHost: 'listen-address' },
    );
    open.push(r);
    const p = r.relays[0]!.relay.port;
    expect(r.env.BASE_URL).toBe(`http://127.0.0.1:${p}/v1`);
    expect(r.env.HTTPS_PROXY).toBe(`http://u:p@127.0.0.1:${p}`);
    expect(await (await fetch(`${r.env.BASE_URL}/models`)).text()).toBe('llm /v1/models');
  });

  it('leaves an environment without loopback URLs alone and never asks the engine', async () => {
    const env = { BASE_URL: 'https://api.anthropic.com', MODEL: 'm' };
    const r = await startLoopbackRelays(env, { bridge: noBridge });
    expect(r.env).toEqual(env);
    expect(r.relays).toEqual([]);
  });

  it('keeps the alias rewrite and says why when the gateway cannot be found', async () => {
    const lines: string[] = [];
    const env = { BASE_URL: 'http://host.containers.internal:8000/v1' };
    const r = await startLoopbackRelays(env, { bridge: noBridge, log: (l) => lines.push(l) });
    expect(r.env).toEqual(env);
    expect(lines.join('\n')).toMatch(/No relay for host-loopback URLs in BASE_URL: engine none does not expose its API endpoint/);
  });
});

describe('inSubnet', () => {
  it.each([
    ['10.88.0.5', '10.88.0.0/16', true],
    ['::ffff:10.88.3.4', '10.88.0.0/16', true],
    ['10.89.0.5', '10.88.0.0/16', false],
    ['192.0.2.2', '10.88.0.0/16', false],
    ['172.17.0.2', '172.17.0.0/16', true],
    ['fe80::1', '10.88.0.0/16', false],
    ['10.88.0.5', 'nonsense', false],
    // a remote engine host on IPv6 (the relay admits exactly that address)
    ['2001:db8::2', '2001:db8::2/128', true],
    ['2001:db8::3', '2001:db8::2/128', false],
    ['10.88.0.5', '2001:db8::/32', false],
  ])('%s in %s → %s', (a, cidr, want) => expect(inSubnet(a, cidr)).toBe(want));
});

describe('urlHost', () => {
  it('brackets IPv6 addresses only, so a URL built from it parses back to the same host', () => {
    expect(urlHost('2001:db8::2')).toBe('[2001:db8::2]');
    expect(urlHost('10.1.2.3')).toBe('10.1.2.3');
    expect(urlHost('engine.example')).toBe('engine.example');
    expect(new URL(`http://${urlHost('2001:db8::2')}:41234`).hostname).toBe('[2001:db8::2]');
  });
});
