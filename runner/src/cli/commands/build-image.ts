import type { Command } from 'commander';
import { connectEngine } from '../../engine/index.js';
import { buildImage, DEFAULT_IMAGE, projectRoot } from '../../image/index.js';

export function register(program: Command): void {
  program
    .command('build-image')
    .description('build the agent image (world, app CLIs, judge, agent runtimes)')
    .option('-t, --tag <image>', 'image tag', DEFAULT_IMAGE)
    .option('--base-image <image>', 'base image (default: local Debian bookworm, a pull, or an offline debootstrap base)')
    .option('-q, --quiet', 'print only the result')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner build-image\n  $ gaia2-runner build-image --tag localhost/gaia2-agent:dev')
    .action(async (o: { tag: string; baseImage?: string; quiet?: boolean }) => {
      const engine = await connectEngine();
      try {
        const log = o.quiet ? () => {} : (l: string) => process.stdout.write(`  ${l}\n`);
        const t0 = Date.now();
        const tag = await buildImage(engine, { projectRoot: projectRoot(), tag: o.tag, baseImage: o.baseImage, log });
        process.stdout.write(`built ${tag} in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
      } finally {
        await engine.close();
      }
    });
}
