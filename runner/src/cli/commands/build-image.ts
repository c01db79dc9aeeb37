import type { Command } from 'commander';
import { ConfigError } from '../../plan/errors.js';
import { DEFAULT_IMAGE } from '../../plan/plan.js';
import { registerSecret } from '../../secrets/redact.js';
import { findAdapter, listAdapters } from '../../agents/index.js';
import { resolveAgentChoice } from '../../config/agent-choice.js';

const AGENT_FLAG_NAMES = { name: '--agent', version: '--agent-version', options: '--agent-option', provider: '--provider' };

/** Only third-party agents have a layer to build; ours are in the world image. */
function requireAdapter(name: string) {
  const a = findAdapter(name);
  if (!a) {
    const names = listAdapters().map((x) => x.name);
    throw new ConfigError(`--agent ${name}: not a third-party agent with a layer to build; ${names.length ? `those are: ${names.join(', ')}` : 'none is registered'} (oracle, default and scripted are part of the world image)`);
  }
  // build-image takes no [agent.options]: such an agent's layer is built by the run that names its program.
  if (a.fromOptions) throw new ConfigError(`--agent ${name}: its program is named by [agent.options]; its layer is built by run or run-dataset with those options`);
  return a;
}

/** Registry credentials from the environment (both or neither). */
export function registryAuth(env: NodeJS.ProcessEnv): { username: string; password: string } | null {
  const username = env.GAIA2_REGISTRY_USER?.trim();
  const password = env.GAIA2_REGISTRY_PASSWORD;
  if (!username && !password) return null;
  if (!username || !password) throw new ConfigError('set both GAIA2_REGISTRY_USER and GAIA2_REGISTRY_PASSWORD (or neither)');
  registerSecret(password);
  return { username, password };
}

export function register(program: Command): void {
  program
    .command('build-image')
    .description('build the agent image (world, app CLIs, judge, agent runtimes)')
    .option('-t, --tag <image>', 'image tag', DEFAULT_IMAGE)
    .option('--base-image <image>', 'base image (default: local Debian bookworm, a pull, or an offline debootstrap base)')
    .option('--if-changed', 'build only when the image is missing or its content changed')
    .option('--agent <name>', "then a third-party agent's layer on it (docs/agents.md); --tag stays the world image's tag")
    .option('--agent-version <version>', "the agent's package version, or latest (the npm registry's newest) (default: the one the runner pins)")
    .option('-q, --quiet', 'print only the result')
    .option('--push <ref>', 'then tag it REGISTRY/NAME:TAG and push it there (for a cluster backend; credentials from GAIA2_REGISTRY_USER/GAIA2_REGISTRY_PASSWORD)')
    .option('--insecure-registry', 'push over plain HTTP / without TLS verification (loopback registries need no flag)')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner build-image\n  $ gaia2-runner build-image --agent claude-code\n  $ gaia2-runner build-image --agent openclaw --agent-version latest\n  $ gaia2-runner build-image --tag localhost/gaia2-agent:dev\n  $ gaia2-runner build-image --if-changed --push registry.example.com/gaia2/agent:v1')
    .action(async (o: { tag: string; baseImage?: string; quiet?: boolean; ifChanged?: boolean; push?: string; insecureRegistry?: boolean; agent?: string; agentVersion?: string }) => {
      const { refuseReferenceName } = await import('../../image/reference-images.js');
      refuseReferenceName('--tag', o.tag);
      if (o.push) refuseReferenceName('--push', o.push);
      const auth = registryAuth(process.env);
      const [{ connectEngine }, { buildImage, ensureImage, projectRoot }, { ensureAgentLayer }, { settleAgentVersion }] = await Promise.all([
        import('../../engine/index.js'), import('../../image/index.js'), import('../../image/agent-layer.js'), import('../../image/agent-version.js'),
      ]);
      const adapter = o.agent ? requireAdapter(o.agent) : null;
      const engine = await connectEngine();
      try {
        const log = o.quiet ? () => {} : (l: string) => process.stdout.write(`  ${l}\n`);
        const t0 = Date.now();
        const opts = { projectRoot: projectRoot(), tag: o.tag, baseImage: o.baseImage, log };
        if (o.ifChanged) {
          const r = await ensureImage(engine.images, opts);
          const secs = ((Date.now() - t0) / 1000).toFixed(1);
          process.stdout.write(r.built ? `built ${r.tag} in ${secs}s\n` : `${r.tag} is up to date\n`);
        } else {
          const tag = await buildImage(engine.images, opts);
          process.stdout.write(`built ${tag} in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
        }
        let pushed = o.tag;
        if (adapter) {
          const t1 = Date.now();
          const version = await settleAgentVersion(adapter, resolveAgentChoice(adapter.name, { version: o.agentVersion }, AGENT_FLAG_NAMES).version, { log });
          const layer = await ensureAgentLayer(engine.images, { ...opts, worldTag: o.tag, adapter, version, force: !o.ifChanged });
          const secs = ((Date.now() - t1) / 1000).toFixed(1);
          process.stdout.write(layer.built ? `built ${layer.tag} (${adapter.name} ${version}) in ${secs}s\n` : `${layer.tag} is up to date\n`);
          pushed = layer.tag;
        }
        if (o.push) {
          await engine.images.push(pushed, o.push, { ...(auth ? { auth } : {}), ...(o.insecureRegistry ? { insecure: true } : {}), onProgress: log });
          process.stdout.write(`pushed ${o.push}\n`);
        }
      } finally {
        await engine.close();
      }
    });
}
