// What a backend declares to be registered (engine/registry.ts): its name, what its units can
// do, its own settings table and how they read, how it describes itself, how to connect, and
// the optional outputs only some backends have. Everything outside engine/ that depends on the
// backend asks its provider or its capabilities, never its kind.
import type { z } from 'zod';
import type { BackendKind, BackendSettings } from '../plan/backend.js';
import type { ConnectOptions } from './index.js';
import type { EngineCapabilities, ManifestOutput, UnitBackend } from './types.js';

/** The plan's settings of one kind. */
export type SettingsOf<K extends BackendKind> = Extract<BackendSettings, { kind: K }>;

/** A backend's own TOML table (`[kubernetes]`): its schema and the keys of it and its sub-tables. */
export interface BackendTable {
  name: string;
  schema: z.ZodType;
  /** Known keys by table path (`kubernetes`, `kubernetes.resources`), for the unknown-key check. */
  keys: Record<string, readonly string[]>;
}

export interface BackendProvider<K extends BackendKind = BackendKind> {
  readonly kind: K;
  /** Who runs the units, for messages: "the local engine", "a Kubernetes cluster". */
  readonly title: string;
  /**
   * What its units can do at most; a connected instance may declare less (a remote engine's
   * units share no network with this machine). The run's preflight checks the instance's.
   */
  readonly capabilities: EngineCapabilities;
  /** Its settings table; null when it has none. */
  readonly table: BackendTable | null;
  /** `[run].backend = "<kind>"` and its table (already checked by table.schema) → the plan's settings. */
  resolve(table: unknown, resolvePath: (raw: string, name: string) => string): SettingsOf<K>;
  /** The plan summary's line on where the units run. */
  summary(settings: SettingsOf<K>, network: string): string;
  /** `doctor`'s advice when the backend does not answer. */
  doctorHint(settings: SettingsOf<K>, env: NodeJS.ProcessEnv): string;
  connect(settings: SettingsOf<K>, opts: ConnectOptions): Promise<UnitBackend>;
  /** `--dry-run --manifests DIR`: a backend that writes what it would create; absent when it has nothing to write. */
  manifests?(settings: SettingsOf<K>, dir: string): Promise<ManifestOutput>;
}
