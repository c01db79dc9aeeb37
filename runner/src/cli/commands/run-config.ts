import type { Command } from 'commander';
import { ConfigError } from '../../plan/errors.js';
import { addGatewayOptions, withGatewayFlags, type GatewayFlags } from '../../config/gateway-flags.js';
import { resolve } from 'node:path';

interface RunConfigFlags extends GatewayFlags {
  config?: string;
  retry?: boolean;
  dryRun?: boolean;
  a2aAppProp?: string;
  refreshDataset?: boolean;
  enableCaching?: boolean;
  errorsAsFailures?: boolean;
  manifests?: string;
  shardId?: string;
  numShards?: string;
}

export function register(program: Command): void {
  addGatewayOptions(program
    .command('run-config'))
    .description('run what a TOML config describes ([target] [agent] [judge] [run]); see docs/config.md')
    .argument('[config]', 'TOML config (or --config)')
    .option('-c, --config <file>', 'TOML config')
    .option('--retry', 'rerun only runs without a judged result (OR-ed with [run].retry)')
    .option('--dry-run', 'validate, resolve the scenarios, print the plan; launch nothing')
    .option('--a2a-app-prop <x>', "Agent2Agent: fraction (0..1) of each scenario's apps operated by app agents (replaces [agent2agent].app_prop)")
    .option('--refresh-dataset', 'download a Hugging Face dataset again even when cached')
    .option('--enable-caching', 'reuse identical finished, judged runs from the result cache (OR-ed with [run].enable_caching)')
    .option('--errors-as-failures', "the run's report counts errors as failed runs (OR-ed with [run].errors_as_failures)")
    .option('--shard-id <i>', 'run only shard I (0-based) of --num-shards (replaces [run].shard_id); merge the shards with `aggregate`')
    .option('--num-shards <n>', 'how many shards the selection is split into (replaces [run].num_shards; needs [run].output_dir)')
    .option('--manifests <dir>', 'with --dry-run and backend = "kubernetes": write the objects each scenario run would create, one YAML file per run')
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner run-config examples/demo.toml --dry-run\n  $ gaia2-runner run-config cluster.toml --dry-run --manifests manifests/')
    .action(async (positional: string | undefined, f: RunConfigFlags, c: Command) => {
      if (f.manifests && !f.dryRun) throw new ConfigError('--manifests is a dry-run output: add --dry-run');
      const [{ loadRunConfig, withA2aAppProp, withShards }, { intFlag }, { runPlanCommand }, { writeManifests }] = await Promise.all([
        import('../../config/resolve-toml.js'),
        import('../../config/cli-flags.js'),
        import('../../orchestrator/session.js'),
        import('../manifests.js'),
      ]);
      const manifests = f.manifests ? resolve(f.manifests) : null;
      return runPlanCommand(
        c.optsWithGlobals().envFile,
        () => {
          const file = f.config ?? positional;
          if (!file) throw new ConfigError('run-config needs a TOML file: gaia2-runner run-config <file.toml> (or --config <file>)');
          if (f.config && positional && f.config !== positional) throw new ConfigError('give the config once: either as argument or with --config');
          const a2aAppProp = f.a2aAppProp === undefined ? undefined : Number(f.a2aAppProp);
          if (a2aAppProp !== undefined && (f.a2aAppProp!.trim() === '' || !Number.isFinite(a2aAppProp)))
            throw new ConfigError(`--a2a-app-prop must be a number (got ${JSON.stringify(f.a2aAppProp)})`);
          const a2a = withA2aAppProp(a2aAppProp);
          const gw = withGatewayFlags(f);
          const index = intFlag(f.shardId, '--shard-id', 0);
          const count = intFlag(f.numShards, '--num-shards');
          // a shard id alone takes the file's count; 0 is the shard of a count alone
          const shards = index !== undefined || count !== undefined ? withShards(index ?? 0, count) : null;
          const plan = loadRunConfig(file, process.env, (d) => {
            const patched = gw(a2a ? a2a(d) : d);
            return shards ? shards(patched) : patched;
          });
          plan.run.retry ||= Boolean(f.retry);
          if (f.refreshDataset && plan.target.kind === 'hf') plan.target.refresh = true;
          plan.run.enableCaching ||= Boolean(f.enableCaching);
          plan.run.errorsAsFailures ||= Boolean(f.errorsAsFailures);
          if (plan.run.retry && plan.target.kind === 'scenario') throw new ConfigError('--retry is only supported for dataset targets');
          return plan;
        },
        { summary: true, dryRun: Boolean(f.dryRun), ...(manifests ? { dryRunAction: (plan, ds, io) => writeManifests(plan, ds, manifests, io) } : {}) },
      );
    });
}

