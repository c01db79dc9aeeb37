// The connection watch's reading of the kernel's connection tracking: lines as
// /proc/net/nf_conntrack prints them (recorded on this machine), the endpoints a container's
// environment names, and which flows are strays. No container: the e2e suites that use the
// watch (network.test.ts, openclaw-providers.test.ts) prove it sees real traffic.
import { describe, expect, it } from 'vitest';
import { endpointsOf, flowsTo, parseConntrackLine, strayFlows, type WatchedContainer } from '../e2e/agents/helpers/connection-watch.js';

const TCP = 'ipv4     2 tcp      6 73 TIME_WAIT src=10.88.3.81 dst=10.88.0.1 sport=39000 dport=34337 src=10.88.0.1 dst=10.88.3.81 sport=34337 dport=39000 [ASSURED] mark=0 zone=0 use=2';
const DNS = 'ipv4     2 udp      17 28 src=10.88.3.86 dst=10.255.255.53 sport=39448 dport=53 src=10.255.255.53 dst=192.0.2.2 sport=53 dport=39448 mark=0 zone=0 use=2';
const IGMP = 'ipv4     2 unknown  2 585 src=10.88.0.1 dst=224.0.0.22 [UNREPLIED] src=224.0.0.22 dst=10.88.0.1 mark=0 zone=0 use=2';

describe('connection watch', () => {
  it('reads the original direction of a flow, ports where the protocol has them', () => {
    expect(parseConntrackLine(TCP)).toEqual({ proto: 'tcp', src: '10.88.3.81', dst: '10.88.0.1', sport: 39000, dport: 34337 });
    expect(parseConntrackLine(DNS)).toEqual({ proto: 'udp', src: '10.88.3.86', dst: '10.255.255.53', sport: 39448, dport: 53 });
    expect(parseConntrackLine(IGMP)).toEqual({ proto: 'unknown', src: '10.88.0.1', dst: '224.0.0.22' });
    expect(parseConntrackLine('')).toBeNull();
  });

  it("takes the endpoints from the environment's *BASE_URL variables", () => {
    expect(endpointsOf(['BASE_URL=http://host.containers.internal:34337/anthropic', 'GAIA2_JUDGE_BASE_URL=https://judge.example/v1', 'HOME=/x', 'OTHER_URL=http://a:1'])).toEqual({
      BASE_URL: { host: 'host.containers.internal', port: 34337 },
      GAIA2_JUDGE_BASE_URL: { host: 'judge.example', port: 443 },
    });
  });

  it('a flow to the model endpoint is not a stray; a DNS query or any other destination is', () => {
    const c: WatchedContainer = {
      id: 'c1',
      ip: '10.88.3.81',
      endpoints: { BASE_URL: '10.88.0.1:34337' },
      flows: [parseConntrackLine(TCP)!, { proto: 'udp', src: '10.88.3.81', dst: '10.255.255.53', sport: 5, dport: 53 }, { proto: 'tcp', src: '10.88.3.81', dst: '10.88.0.1', sport: 6, dport: 443 }],
    };
    expect(flowsTo(c, 'BASE_URL')).toHaveLength(1);
    expect(strayFlows(c).map((f) => `${f.proto} ${f.dst}:${f.dport}`)).toEqual(['udp 10.255.255.53:53', 'tcp 10.88.0.1:443']);
  });
});
