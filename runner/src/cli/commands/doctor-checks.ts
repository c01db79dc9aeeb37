// `doctor`'s checks (engine, image, keys, dataset), loaded when the command runs.
import { existsSync } from 'node:fs';
import { loadRunConfig } from '../../config/resolve-toml.js';
import { DEFAULT_HF_DATASET, type RunPlan } from '../../plan/plan.js';
import { hfDatasetDir, isHfId } from '../../dataset/index.js';
import type { BackendSettings } from '../../plan/backend.js';
import { connectBackend } from '../../engine/connect.js';
import { backendProvider } from '../../engine/registry.js';
import type { UnitBackend } from '../../engine/index.js';
import { keyLookupVars, loadEnvForCli, lookupProviderKey } from '../../env/index.js';
import { redact } from '../../secrets/redact.js';
import { AGENT_LABELS } from '@gaia2/contract/agent-layer';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

async function checkEngine(backend: BackendSettings): Promise<{ check: Check; engine: UnitBackend | null }> {
  const t0 = Date.now();
  try {
    const engine = await connectBackend(backend);
    const d = await engine.describe();
    const what = `${d.kind} ${d.version ?? '(version unknown)'}, API ${d.apiVersion ?? 'unknown'}, at ${d.endpoint}${d.remote ? ' (remote)' : ''}`;
    return { check: { name: 'engine', ok: true, detail: `${what} answers (${Date.now() - t0} ms)` }, engine };
  } catch (e) {
    return { check: { name: 'engine', ok: false, detail: (e as Error).message, fix: backendProvider(backend.kind).doctorHint(backend, process.env) }, engine: null };
  }
}

async function checkImage(engine: UnitBackend | null, image: string): Promise<Check> {
  if (!engine) return { name: 'image', ok: false, detail: `${image}: engine unavailable`, fix: 'fix the engine first' };
  // A backend without an image store (a cluster) pulls the image when a unit needs it.
  if (!engine.images) return { name: 'image', ok: true, detail: `${image}: pulled by the ${engine.name} backend when a unit needs it` };
  const ok = await engine.images.exists(image).catch(() => false);
  if (ok) return { name: 'image', ok, detail: `${image} present` };
  // A reference image's name: our build under it would be driven as that agent's image.
  const { referenceImage, missingReferenceImageMessage } = await import('../../image/reference-images.js');
  const ref = referenceImage(image);
  return { name: 'image', ok, detail: `${image} not found`, fix: ref ? missingReferenceImageMessage(image, ref).replace(/^image \S+ not found in the engine\.\n/, '') : `gaia2-runner build-image --tag ${image}` };
}

/** The agent layers the engine holds (docs/agents.md): informational, never a failure. */
async function agentImages(engine: UnitBackend | null): Promise<Check | null> {
  if (!engine?.images) return null;
  const list = await engine.images.withLabel(AGENT_LABELS.name).catch(() => null);
  if (!list) return null;
  const rows = list
    .map((i) => `${i.tags[0] ?? '(untagged)'} (${i.labels[AGENT_LABELS.name]} ${i.labels[AGENT_LABELS.version] ?? 'unknown version'})`)
    .sort();
  return { name: 'agent images', ok: true, detail: rows.length ? rows.join(', ') : 'none (gaia2-runner build-image --agent NAME, or a run with --agent NAME, builds one)' };
}

function checkKey(role: 'agent' | 'judge', provider: string | null, explicit: { source: string } | null): Check {
  if (!provider) return { name: `${role} key`, ok: true, detail: role === 'agent' ? 'not needed (oracle/scripted agent)' : 'no judge LLM: hard checks only' };
  if (explicit) return { name: `${role} key`, ok: true, detail: `from ${explicit.source === 'explicit' ? 'the config' : '$' + explicit.source}` };
  const found = lookupProviderKey(provider, process.env);
  return found
    ? { name: `${role} key`, ok: true, detail: `${provider}: found in $${found.source}` }
    : { name: `${role} key`, ok: false, detail: `${provider}: none of ${keyLookupVars(provider).join(', ')} is set`, fix: `export ${keyLookupVars(provider)[0]}=… (or put it in .env, or set api_key_env in the TOML)` };
}

async function checkDataset(dataset: string): Promise<Check> {
  if (!isHfId(dataset)) {
    return existsSync(dataset)
      ? { name: 'dataset', ok: true, detail: `${dataset} exists` }
      : { name: 'dataset', ok: false, detail: `${dataset} does not exist`, fix: 'check the path (relative paths are relative to the current directory, or to the TOML file)' };
  }
  const cache = hfDatasetDir(dataset, process.env);
  try {
    const { listFiles } = await import('@huggingface/hub');
    const it = listFiles({ repo: { type: 'dataset', name: dataset }, hubUrl: process.env.HF_ENDPOINT || undefined, accessToken: process.env.HF_TOKEN || undefined });
    await it.next();
    return { name: 'dataset', ok: true, detail: `${dataset} reachable on the Hub${existsSync(cache) ? `; cache at ${cache}` : ''}` };
  } catch (e) {
    if (existsSync(cache)) return { name: 'dataset', ok: true, detail: `Hub unreachable (${(e as Error).message}) but a cache exists at ${cache}` };
    return { name: 'dataset', ok: false, detail: `${dataset}: ${(e as Error).message}`, fix: 'check network access to huggingface.co (or HF_ENDPOINT), and HF_TOKEN for gated datasets' };
  }
}

export type DoctorFlags = { config?: string; image: string; dataset: string };

export async function doctor(f: DoctorFlags, envFile: string | undefined): Promise<void> {
  loadEnvForCli(envFile, (l) => process.stderr.write(l + '\n'));
  const checks: Check[] = [];
  let plan: RunPlan | null = null;
  if (f.config) {
    try {
      plan = loadRunConfig(f.config, process.env);
      checks.push({ name: 'config', ok: true, detail: plan.configPath! });
    } catch (e) {
      checks.push({ name: 'config', ok: false, detail: (e as Error).message, fix: 'see docs/config.md' });
    }
  }
  const { check, engine } = await checkEngine(plan?.run.backend ?? { kind: 'local' });
  checks.push(check);
  try {
    checks.push(await checkImage(engine, plan?.agent.image ?? f.image));
    const agents = await agentImages(engine);
    if (agents) checks.push(agents);
  } finally {
    await engine?.close();
  }
  checks.push(checkKey('agent', plan ? plan.agent.provider : null, plan?.agent.apiKey ?? null));
  checks.push(checkKey('judge', plan?.judge?.provider ?? null, plan?.judge?.apiKey ?? null));
  const t = plan?.target;
  const dataset = t?.kind === 'hf' ? t.repo : t?.kind === 'local' ? t.path : t?.kind === 'scenario' ? t.scenario : f.dataset;
  checks.push(await checkDataset(dataset));
  for (const ch of checks) {
    process.stdout.write(redact(`${ch.ok ? 'ok  ' : 'FAIL'} ${ch.name}: ${ch.detail}${ch.fix ? `\n     fix: ${ch.fix}` : ''}`) + '\n');
  }
  process.exitCode = checks.every((ch) => ch.ok) ? 0 : 1;
}
