// Where scenario runs execute: the local engine (Docker Engine API: Docker or Podman, local
// or DOCKER_HOST) or a Kubernetes cluster; `[run] backend` picks one. The plan only names the
// kinds: each backend declares its own settings type next to its code (engine/kubernetes/
// settings.ts adds `kubernetes` to BackendSettingsByKind), so this bottom layer never
// imports a backend. Each name has one provider in engine/registry.ts, which alone answers
// what depends on the kind (scripts/backend-seam.ts keeps other code from comparing it).
export const BACKENDS = ['local', 'kubernetes'] as const;
export type BackendKind = (typeof BACKENDS)[number];

/** Settings of each backend kind, keyed by kind; backends extend it by declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BackendSettingsByKind {
  local: {};
}

export type BackendSettings = { [K in keyof BackendSettingsByKind]: { kind: K } & BackendSettingsByKind[K] }[keyof BackendSettingsByKind];
