// An agent's package version as the npm registry has it: the newest release (its `latest`
// dist-tag), asked with the ordinary npm client so the user's registry settings (.npmrc, a
// mirror, npm_config_registry) apply exactly as for the package fetch itself. `--agent-version
// latest` is settled here once per process and package, so every phase of one invocation builds,
// runs and records the same exact version.
import { EXACT_VERSION, LATEST_VERSION, type AgentAdapter } from '../agents/index.js';
import { npmView } from './agent-package.js';

/** Lookups in this process, by package name and registry. */
const settled = new Map<string, Promise<string>>();

/** The exact version the registry's `latest` dist-tag names for a package. */
export function newestVersion(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const key = `${env.npm_config_registry ?? ''} ${name}`;
  let p = settled.get(key);
  if (!p) {
    p = ask(name, env);
    settled.set(key, p);
    p.catch(() => settled.delete(key)); // a failed lookup is asked again next time
  }
  return p;
}

async function ask(name: string, env: NodeJS.ProcessEnv): Promise<string> {
  let v: unknown;
  try {
    v = await npmView(`${name}@${LATEST_VERSION}`, 'version', env);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const why = (err.stderr || err.message).trim().split('\n').filter((l) => l.trim()).slice(-2).join(' ');
    throw new Error(`the npm registry did not say which release of ${name} is the newest (npm view ${name}@${LATEST_VERSION} version): ${why}`);
  }
  const version = String(Array.isArray(v) ? v.at(-1) : v).trim();
  if (!EXACT_VERSION.test(version)) throw new Error(`the npm registry's latest release of ${name} is "${version}", not an exact version`);
  return version;
}

/** The exact version an agent runs: as given, the adapter's pin when none, the registry's newest for `latest`. */
export async function settleAgentVersion(adapter: AgentAdapter, version: string | null | undefined, o: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {}): Promise<string> {
  const v = version?.trim() || adapter.package.version;
  if (v !== LATEST_VERSION) return v;
  const exact = await newestVersion(adapter.package.name, o.env);
  o.log?.(`${adapter.name}: --agent-version ${LATEST_VERSION} is ${adapter.package.name}@${exact} (the npm registry's newest; pinned: ${adapter.package.version})`);
  return exact;
}
