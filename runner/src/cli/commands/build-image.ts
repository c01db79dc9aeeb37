import type { Command } from 'commander';
import { connectEngine } from '../../engine/index.js';
import { buildImage, ensureImage, DEFAULT_IMAGE, projectRoot } from '../../image/index.js';

export function register(program: Command): void {
  program
    .command('build-image')
    .description('build the agent image (world, app CLIs, judge, agent runtimes)')
    .option('-t, --tag <image>', 'image tag', DEFAULT_IMAGE)
    .option('--base-image <image>', 'base image (default: local Debian bookworm, a pull, or an offline debootstrap base)')
    .option('--if-changed', 'build only when the image is missing or its content changed')
    .option('-q, --quiet', 'print only the result')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner build-image\n  $ gaia2-runner build-image --tag localhost/gaia2-agent:dev')
    .action(async (o: { tag: string; baseImage?: string; quiet?: boolean; ifChanged?: boolean }) => {
      const engine = await connectEngine();
      try {
        const log = o.quiet ? () => {} : (l: string) => process.stdout.write(`  ${l}\n`);
        const t0 = Date.now();
        const opts = { projectRoot: projectRoot(), tag: o.tag, baseImage: o.baseImage, log };
        if (o.ifChanged) {
          const r = await ensureImage(engine, opts);
          const secs = ((Date.now() - t0) / 1000).toFixed(1);
          process.stdout.write(r.built ? `built ${r.tag} in ${secs}s\n` : `${r.tag} is up to date\n`);
        } else {
          const tag = await buildImage(engine, opts);
          process.stdout.write(`built ${tag} in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
        }
      } finally {
        await engine.close();
      }
    });
}
