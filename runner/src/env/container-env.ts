// The container environment, built from a resolved plan (docs/reference-runner.md and docs/config.md with the
// fixes of §10: no silent host BASE_URL leak, gemini keys, host-loopback URLs rewritten so a
// bridged container can reach a service on the host).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { ENV } from '@gaia2/contract/paths';
import { AGENT_LAYER_ENV } from '@gaia2/contract/agent-layer';
import { engineNetwork, type RunPlan, type SecretRef } from '../plan/plan.js';
import { registerSecret } from '../secrets/redact.js';
import { detectProfile } from './profiles.js';
import { keyExportVars, lookupProviderKey } from './providers.js';
import { addAgentToAgentEnv } from './a2a-env.js';
import { HOST_GATEWAY_ALIAS } from '../net/gateway.js';
import { agentLayerEnv } from './agent-layer-env.js';
import { isOwnAgent } from '../agents/index.js';

export { HOST_GATEWAY_ALIAS };
export const CA_BUNDLE_PATH = '/etc/ssl/certs/gaia2-host-ca-bundle.crt';
const PROXY_VARS = ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY'] as const;
export const CA_ENV_VARS = ['NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE'] as const;

export type { ModelRole, ModelRoute } from './model-route.js';
import type { ModelRoute } from './model-route.js';


export interface ContainerEnvBase {
  env: Record<string, string>;
  /** Every role that calls a model, with its endpoint (filled in env unless keys are withheld). */
  routes: ModelRoute[];
  /** Files to place in the container before start (CA bundle), each with the setting that asks for it. */
  files: Array<{ path: string; content: string; setting: string }>;
  /** Notices for stderr (never containing secret values). */
  notices: string[];
}

/** Rewrites http(s)://127.0.0.1|localhost|[::1] to the host gateway alias. */
export function rewriteLoopback(url: string): string {
  return url.replace(/^(\w+:\/\/(?:[^@/]*@)?)(127\.0\.0\.1|localhost|\[::1\])(?=[:/]|$)/i, `$1${HOST_GATEWAY_ALIAS}`);
}

function agentKey(plan: RunPlan, hostEnv: Record<string, string | undefined>, notices: string[]): SecretRef | null {
  if (plan.agent.apiKey) return plan.agent.apiKey;
  const found = lookupProviderKey(plan.agent.provider, hostEnv);
  if (found) notices.push(`Agent API key not given explicitly; using ${found.source}`);
  return found;
}

function judgeKey(plan: RunPlan, hostEnv: Record<string, string | undefined>, notices: string[]): SecretRef | null {
  const judge = plan.judge!;
  if (judge.apiKey) return judge.apiKey;
  const found = lookupProviderKey(judge.provider, hostEnv);
  if (found) notices.push(`Judge API key not given explicitly; using ${found.source}`);
  return found;
}

/**
 * Environment shared by every scenario run of a plan. `withholdKeys`: no key and no base URL of
 * a model route goes into the environment (the model gateway fills them per container).
 */
export function buildBaseEnv(plan: RunPlan, hostEnv: Record<string, string | undefined> = process.env, o: { withholdKeys?: boolean } = {}): ContainerEnvBase {
  const env: Record<string, string> = {};
  const files: ContainerEnvBase['files'] = [];
  const notices: string[] = [];
  const routes: ModelRoute[] = [];
  const direct = !o.withholdKeys;
  const bridged = engineNetwork(plan.run.network) === 'bridge';
  const url = (u: string) => (bridged ? rewriteLoopback(u) : u);
  const profile = detectProfile(plan.agent.image);

  env[ENV.thinking] = plan.agent.thinking;
  if (plan.run.notificationMode !== 'message') env[ENV.notificationMode] = plan.run.notificationMode;
  if (plan.run.timeSpeed !== null) env[ENV.timeSpeed] = pyFloat(plan.run.timeSpeed);
  if (plan.run.clockCpuWait !== null) env[ENV.clockCpuWait] = plan.run.clockCpuWait;
  // Only when set, as the reference: otherwise the daemon keeps its own 300 s.
  if (plan.run.idleTimeout != null) env[ENV.idleTimeout] = pyFloat(plan.run.idleTimeout);
  if (plan.noise) env[ENV.noise] = JSON.stringify(plan.noise);

  if (plan.judge) {
    env[ENV.judgeModel] = plan.judge.model;
    env[ENV.judgeProvider] = plan.judge.provider;
    if (plan.judge.baseUrl && direct) env[ENV.judgeBaseUrl] = url(plan.judge.baseUrl);
    const k = judgeKey(plan, hostEnv, notices);
    if (k) {
      registerSecret(k.value);
      if (direct) env[ENV.judgeApiKey] = k.value; // never under provider-specific names (pinned upstream)
    }
    routes.push({ role: 'judge', provider: plan.judge.provider, model: plan.judge.model, baseUrl: plan.judge.baseUrl, key: k, baseUrlVars: [ENV.judgeBaseUrl], keyVars: [ENV.judgeApiKey] });
    if (plan.judge.promptVersion) env[ENV.judgePromptVersion] = plan.judge.promptVersion;
    if (plan.judge.extraBody) env[ENV.judgeExtraBody] = JSON.stringify(plan.judge.extraBody);
  }

  // Ours (default) and agent layers given a provider (a third-party agent always is).
  const llmAgent = (plan.agent.name === 'default' || plan.agent.provider !== null) && !profile.oracleOnly;
  if (llmAgent) {
    env[ENV.provider] = plan.agent.provider ?? profile.defaultProvider;
    if (plan.agent.model) env[ENV.model] = plan.agent.model;
    Object.assign(env, profile.extra);
    env[ENV.agentTools] = plan.agent.tools;
    if (plan.agent.maxTokens) env[ENV.maxTokens] = String(plan.agent.maxTokens);
    if (plan.agent.contextWindow) env[AGENT_LAYER_ENV.contextWindow] = String(plan.agent.contextWindow);
    if (plan.agent.baseUrl && direct) for (const k of profile.baseUrlKeys) env[k] = url(plan.agent.baseUrl);
    const k = agentKey(plan, hostEnv, notices);
    const keyVars = [ENV.apiKey, ...keyExportVars(plan.agent.provider)];
    if (k) {
      registerSecret(k.value);
      if (direct) for (const name of keyVars) env[name] = k.value;
    }
    routes.push({ role: 'agent', provider: env[ENV.provider]!, model: plan.agent.model, baseUrl: plan.agent.baseUrl, key: k, baseUrlVars: profile.baseUrlKeys, keyVars });
  }
  for (const name of profile.hostVars) {
    const v = hostEnv[name]?.trim();
    if (v) env[name] = v;
  }
  if (plan.agent.name === 'scripted' && plan.agent.script) env[ENV.script] = readFileSync(plan.agent.script, 'utf8');
  if (!isOwnAgent(plan.agent.name)) Object.assign(env, agentLayerEnv(plan.agent.options ?? {}, plan.agent.instructions));
  const a2a = addAgentToAgentEnv(plan, env, hostEnv, url, notices, direct);
  if (a2a) routes.push(a2a);

  applyProxies(env, hostEnv, url, [env[profile.baseUrlKeys[0] ?? ''], env[ENV.judgeBaseUrl]]);
  const ca = hostEnv.GAIA2_CA_BUNDLE?.trim();
  if (ca) {
    if (existsSync(ca) && statSync(ca).isFile()) {
      files.push({ path: CA_BUNDLE_PATH, content: readFileSync(ca, 'utf8'), setting: 'GAIA2_CA_BUNDLE' });
      for (const k of CA_ENV_VARS) env[k] = CA_BUNDLE_PATH;
    } else notices.push(`GAIA2_CA_BUNDLE=${ca} is not a file; no CA bundle is installed in the containers`);
  }
  return { env, routes, files, notices };
}

/**
 * Proxies: a relay URL (GAIA2_PROXY_RELAY_URL) becomes every proxy variable; otherwise the
 * host's proxy variables pass through. Loopback proxies are rewritten for bridged containers.
 */
function applyProxies(env: Record<string, string>, hostEnv: Record<string, string | undefined>, url: (u: string) => string, baseUrls: Array<string | undefined>): void {
  const relay = hostEnv.GAIA2_PROXY_RELAY_URL?.trim();
  const noProxy = new Set<string>(['127.0.0.1', 'localhost']);
  for (const k of ['NO_PROXY', 'no_proxy']) for (const p of (hostEnv[k] ?? '').split(',')) if (p.trim()) noProxy.add(p.trim());
  // The model servers are reached directly, never through a proxy (the reference does the
  // same since OpenClaw's in-container proxy broke remote judges): their hosts join no_proxy.
  const modelHosts = hostsOf(baseUrls).filter((h) => !noProxy.has(h));
  for (const h of modelHosts) noProxy.add(h);
  if (relay) {
    const full = relay.includes('://') ? relay : `http://${relay}`;
    let host = '';
    try {
      host = new URL(full).hostname;
    } catch {
      /* reported below */
    }
    if (!host) throw Object.assign(new Error(`Invalid GAIA2_PROXY_RELAY_URL value '${relay}': missing proxy host`), { name: 'ConfigError' });
    for (const k of PROXY_VARS) env[k] = url(full);
    env.NO_PROXY = env.no_proxy = [...noProxy].join(',');
    return;
  }
  let any = false;
  for (const k of PROXY_VARS) {
    const v = hostEnv[k]?.trim();
    if (v) {
      env[k] = url(v);
      any = true;
    }
  }
  if (any || modelHosts.length) env.NO_PROXY = env.no_proxy = [...noProxy].join(',');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Distinct host names of the URLs, in order, without loopback ones; unparseable text is skipped. */
export function hostsOf(urls: Array<string | null | undefined>): string[] {
  const out: string[] = [];
  for (const u of urls) {
    if (!u?.trim()) continue;
    let host: string;
    try {
      host = new URL(u.trim()).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (host && !LOOPBACK_HOSTS.has(host) && !out.includes(host)) out.push(host);
  }
  return out;
}

/** A number as Python prints a float (600 → "600.0"), as the reference passes such settings. */
const pyFloat = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n));
