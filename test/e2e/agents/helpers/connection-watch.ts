// Every connection a container opens, seen from the host: the kernel's connection tracking
// (/proc/net/nf_conntrack) holds an entry for each TCP and UDP flow that leaves a bridged
// container — DNS queries, a TCP SYN that is refused or never answered included — for tens of
// seconds after it ends (UDP 30 s, a closed TCP flow 10–120 s). Polling it every half second
// while the containers of one image run, keyed by each container's address, records every
// attempt to reach anything. What a container may reach are the endpoints its environment
// names (`BASE_URL`, `GAIA2_JUDGE_BASE_URL`, `GAIA2_A2A_BASE_URL`: the run's gateway, through
// the relay on the bridge's gateway address); anything else is reported.
import { readFileSync } from 'node:fs';
import { dockerAt } from '../../helpers/gateway-canary.js';

const CONNTRACK = '/proc/net/nf_conntrack';

/** One flow, in the direction the container opened it. */
export interface Flow {
  proto: string;
  src: string;
  dst: string;
  /** Ports (absent for protocols without ports, e.g. ICMP). */
  sport?: number;
  dport?: number;
}

/** What one container of the image was, and every flow it opened. */
export interface WatchedContainer {
  id: string;
  ip: string;
  /** `ip:port` of each endpoint its environment names, by variable (BASE_URL: the agent's model). */
  endpoints: Record<string, string>;
  flows: Flow[];
}

/** One conntrack line → its original-direction flow (null for lines it cannot read). */
export function parseConntrackLine(line: string): Flow | null {
  const fields = line.trim().split(/\s+/);
  const proto = fields[2];
  const field = (k: string) => fields.find((f) => f.startsWith(`${k}=`))?.slice(k.length + 1);
  const src = field('src');
  const dst = field('dst');
  if (!proto || !src || !dst) return null;
  const sport = field('sport');
  const dport = field('dport');
  return { proto, src, dst, ...(sport ? { sport: Number(sport) } : {}), ...(dport ? { dport: Number(dport) } : {}) };
}

/** The endpoints a container's environment names (`*BASE_URL` variables), as `host:port` with the host as written. */
export function endpointsOf(env: readonly string[]): Record<string, { host: string; port: number }> {
  const out: Record<string, { host: string; port: number }> = {};
  for (const kv of env) {
    const [name = '', value = ''] = kv.split(/=(.*)/s);
    if (!/(^|_)BASE_URL$/.test(name)) continue;
    try {
      const u = new URL(value);
      out[name] = { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) };
    } catch {
      /* not a URL */
    }
  }
  return out;
}

/** Flows of a container to anything but the endpoints its environment names. */
export const strayFlows = (c: WatchedContainer): Flow[] => c.flows.filter((f) => !Object.values(c.endpoints).includes(`${f.dst}:${f.dport}`));

/** Flows of a container to the endpoint of one variable. */
export const flowsTo = (c: WatchedContainer, variable: string): Flow[] => c.flows.filter((f) => `${f.dst}:${f.dport}` === c.endpoints[variable]);

export interface ConnectionWatch {
  /** Stops polling (after one last look) and returns every container of the image seen. */
  stop(): Promise<WatchedContainer[]>;
  /** Every image a listed container had, and the last listing error (for a watch that saw nothing). */
  diagnostics(): { images: string[]; error: string | null };
}

/**
 * Watches the containers of `image` on the engine at `socketPath` (a local engine: the
 * containers' flows cross this host's connection tracking). Host aliases in the environment
 * (`host.containers.internal`, `host.docker.internal`) stand for the bridge's gateway address.
 */
export function watchConnections(socketPath: string, image: string, everyMs = 500): ConnectionWatch {
  try {
    readFileSync(CONNTRACK, 'utf8');
  } catch (e) {
    throw new Error(`connection watch needs ${CONNTRACK} (root, netfilter connection tracking): ${(e as Error).message}`);
  }
  const docker = dockerAt(`unix://${socketPath}`);
  // Only containers made after the watch began (not one left running by an earlier, killed run).
  const since = Math.floor(Date.now() / 1000) - 1;
  const seen = new Map<string, WatchedContainer>();
  const flowKeys = new Set<string>();
  let stopped = false;
  const images = new Set<string>();
  let error: string | null = null;

  async function look(): Promise<void> {
    const list = await docker.listContainers({ all: true }).catch((e: Error) => {
      error = e.message;
      return [];
    });
    for (const c of list) {
      images.add(c.Image);
      if (c.Image !== image || c.Created < since || seen.has(c.Id)) continue;
      const info = await docker.getContainer(c.Id).inspect().catch(() => null);
      const net = info ? Object.values(info.NetworkSettings.Networks ?? {})[0] : undefined;
      if (!info || !net?.IPAddress) continue; // not started yet: the next look
      const gateway = net.Gateway;
      const endpoints = Object.fromEntries(
        Object.entries(endpointsOf(info.Config.Env ?? [])).map(([k, e]) => [k, `${/^host\.(containers|docker)\.internal$/.test(e.host) ? gateway : e.host}:${e.port}`]),
      );
      seen.set(c.Id, { id: c.Id, ip: net.IPAddress, endpoints, flows: [] });
    }
    const byIp = new Map([...seen.values()].map((c) => [c.ip, c]));
    for (const line of readFileSync(CONNTRACK, 'utf8').split('\n')) {
      const f = parseConntrackLine(line);
      const c = f && byIp.get(f.src);
      if (!f || !c) continue;
      // One flow shows up in many states (SYN_SENT, ESTABLISHED, TIME_WAIT): its tuple names it.
      const key = `${c.id} ${f.proto} ${f.src}:${f.sport} ${f.dst}:${f.dport}`;
      if (flowKeys.has(key)) continue;
      flowKeys.add(key);
      c.flows.push(f);
    }
  }

  let chain = look();
  const timer = setInterval(() => {
    if (!stopped) chain = chain.then(look, look);
  }, everyMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await chain.then(look, look);
      return [...seen.values()];
    },
    diagnostics: () => ({ images: [...images], error }),
  };
}
