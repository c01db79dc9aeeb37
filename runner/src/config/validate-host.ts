// Checks on the host, before any container starts, of what would otherwise fail only inside
// one (or after hours of runs): provider names, the keys they need, base URL syntax, and an
// output directory that can be written. Errors name the option as the user wrote it.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PROVIDERS } from '@gaia2/contract/lib/llm/config';
import { keyLookupVars, knownKeyProviders, lookupProviderKey } from '../env/providers.js';
import { isTypesafeProvider } from '@gaia2/contract/lib/judge/backend';
import { parseTypesafeOptions } from '@gaia2/contract/lib/judge/typesafe';
import { ConfigError } from '../plan/errors.js';
import type { RunPlan } from '../plan/plan.js';
import { nearestName } from '../plan/suggest.js';

/** Every provider name some image or the runner understands. */
export const KNOWN_PROVIDERS: readonly string[] = [...new Set<string>([...PROVIDERS, ...knownKeyProviders()])].sort();

/** Providers that may run without a key (local OpenAI-compatible servers: vLLM, Ollama). */
const KEYLESS = new Set(['openai-compat', 'openai-completions']);

interface Labels {
  provider: string;
  baseUrl: string;
  keyEnv: string;
  role: string;
}

function labelsFor(plan: RunPlan, role: 'agent' | 'judge'): Labels {
  const toml = plan.configPath !== null;
  if (role === 'agent')
    return toml
      ? { provider: '[agent].provider', baseUrl: '[agent].base_url', keyEnv: '[agent].api_key_env', role: 'the agent' }
      : { provider: '--provider', baseUrl: '--base-url', keyEnv: '--api-key-env', role: 'the agent' };
  return toml
    ? { provider: '[judge].provider', baseUrl: '[judge].base_url', keyEnv: '[judge].api_key_env', role: 'the judge' }
    : { provider: '--judge-provider', baseUrl: '--judge-base-url', keyEnv: '--judge-api-key-env', role: 'the judge' };
}

export function checkProviderName(provider: string, label: string): void {
  if (KNOWN_PROVIDERS.includes(provider.toLowerCase())) return;
  const near = nearestName(provider, KNOWN_PROVIDERS);
  throw new ConfigError(`${label}: unknown provider "${provider}"${near ? ` (did you mean ${near}?)` : ''}; known: ${KNOWN_PROVIDERS.join(', ')}`);
}

export function checkBaseUrl(url: string, label: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError(`${label} is not a URL: ${JSON.stringify(url)} (expected e.g. http://127.0.0.1:8000/v1)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${label} must be an http:// or https:// URL (got ${JSON.stringify(url)})`);
  if (!u.hostname) throw new ConfigError(`${label} has no host: ${JSON.stringify(url)}`);
}

function checkRole(plan: RunPlan, role: 'agent' | 'judge', env: Record<string, string | undefined>): void {
  const s = role === 'agent' ? plan.agent : plan.judge;
  if (!s?.provider) return;
  const l = labelsFor(plan, role);
  checkProviderName(s.provider, l.provider);
  if (isTypesafeProvider(s.provider)) checkTypesafe(plan, role, l);
  if (s.baseUrl) checkBaseUrl(s.baseUrl, l.baseUrl);
  const provider = s.provider.toLowerCase();
  if (KEYLESS.has(provider)) {
    if (!s.baseUrl) throw new ConfigError(`${l.baseUrl} is required with provider ${provider} (the chat-completions base, e.g. http://127.0.0.1:8000/v1)`);
    return;
  }
  if (s.apiKey || lookupProviderKey(provider, env)) return;
  throw new ConfigError(`no API key for ${l.role}'s provider ${provider}: set ${keyLookupVars(provider).join(' or ')}, or name a variable with ${l.keyEnv}`);
}

/** TypeSafe's Jev service scores, it does not chat: a judge only, with its options in extra_body. */
function checkTypesafe(plan: RunPlan, role: 'agent' | 'judge', l: Labels): void {
  if (role === 'agent') throw new ConfigError(`${l.provider}: provider "typesafe" (TypeSafe's Jev scoring service) can only judge, not drive an agent`);
  try {
    parseTypesafeOptions(plan.judge?.extraBody ?? undefined, plan.configPath !== null ? '[judge].extra_body' : '--judge-extra-body');
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/** The output directory exists as a writable directory, or can be created. */
export function checkWritableDir(dir: string, label: string): void {
  let probe = dir;
  while (!existsSync(probe)) {
    const up = dirname(probe);
    if (up === probe) break;
    probe = up;
  }
  if (!statSync(probe).isDirectory()) throw new ConfigError(`${label} is not a directory: ${probe}`);
  try {
    accessSync(probe, constants.W_OK | constants.X_OK);
  } catch {
    throw new ConfigError(`${label} is not writable: ${probe === dir ? dir : `${dir} (cannot create it in ${probe})`}`);
  }
}

export function validateOnHost(plan: RunPlan, env: Record<string, string | undefined>): void {
  const where = (e: unknown) => (plan.configPath && e instanceof ConfigError ? new ConfigError(`${plan.configPath}: ${e.message}`) : e);
  try {
    if (plan.agent.name === 'default') checkRole(plan, 'agent', env);
    checkRole(plan, 'judge', env);
    if (plan.run.outputDir) checkWritableDir(plan.run.outputDir, plan.configPath ? '[run].output_dir' : '--output-dir');
  } catch (e) {
    throw where(e);
  }
}
