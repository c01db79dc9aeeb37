// The Kubernetes backend: connect with the [kubernetes] settings.
import type { KubernetesSettings } from './settings.js';
import { connectKube } from './client.js';
import { KubernetesEngine } from './engine.js';

export { KubernetesEngine } from './engine.js';

export async function connectKubernetes(settings: KubernetesSettings, env: NodeJS.ProcessEnv = process.env): Promise<KubernetesEngine> {
  const engine = new KubernetesEngine(connectKube(settings, env), settings);
  await engine.ping();
  return engine;
}
