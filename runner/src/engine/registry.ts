// Every backend, registered by name in one table (as Inspect AI registers its sandbox
// providers): each provider owns its settings type and table and declares what it can do.
// What depends on the backend is answered through these functions, so no code outside
// engine/ compares a backend's kind (scripts/backend-seam.ts keeps it that way). A new backend
// adds its kind to plan/backend.ts, its settings type by declaration merging, and a row here.
import type { BackendKind, BackendSettings } from '../plan/backend.js';
import { ConfigError } from '../plan/errors.js';
import type { BackendProvider } from './backend-provider.js';
import { KUBERNETES_BACKEND } from './kubernetes/provider.js';
import { LOCAL_BACKEND } from './local-provider.js';
import type { ManifestOutput } from './types.js';

/** The registry: one provider per kind (the mapped type makes a kind without a provider a type error). */
export const BACKEND_REGISTRY: { readonly [K in BackendKind]: BackendProvider<K> } = {
  local: LOCAL_BACKEND,
  kubernetes: KUBERNETES_BACKEND,
};

/** The providers, each taking the plan's settings of any kind (the seam's one cast: a row's kind is its key). */
export const BACKEND_PROVIDERS = Object.values(BACKEND_REGISTRY) as readonly BackendProvider[];

export function backendProvider(kind: BackendKind): BackendProvider {
  return BACKEND_REGISTRY[kind] as BackendProvider;
}

/**
 * `[run].backend` and the backends' tables of a config → the plan's settings. A table of a
 * backend the run does not use is refused (it would be silently ignored).
 */
export function resolveBackend(kind: BackendKind | undefined, tables: Record<string, unknown>, resolvePath: (raw: string, name: string) => string): BackendSettings {
  const chosen = backendProvider(kind ?? 'local');
  for (const p of BACKEND_PROVIDERS)
    if (p !== chosen && p.table && tables[p.table.name] !== undefined)
      throw new ConfigError(`[${p.table.name}] is set but [run].backend is not "${p.kind}" (add backend = "${p.kind}" to [run], or remove the table)`);
  return chosen.resolve(chosen.table ? tables[chosen.table.name] : undefined, resolvePath);
}

/** `--dry-run --manifests DIR`: the backend's manifest writer, or a ConfigError naming those that have one. */
export async function manifestOutput(settings: BackendSettings, dir: string): Promise<ManifestOutput> {
  const p = backendProvider(settings.kind);
  if (p.manifests) return p.manifests(settings, dir);
  const writers = BACKEND_PROVIDERS.filter((x) => x.manifests).map((x) => `"${x.kind}"`);
  throw new ConfigError(`--manifests needs [run].backend = ${writers.join(' or ')} (${p.title} has no manifests)`);
}
