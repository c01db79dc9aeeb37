import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the viewer with live updates while a run is in progress (loopback only by default)')
    .requiredOption('--output-dir <dir>', 'a run directory or a pass@N root')
    .option('--host <host>', 'interface to bind; anything but loopback exposes prompts and outputs to the network', '127.0.0.1')
    .option('--port <n>', 'port (default: first free of 44100-44109, else any free port)')
    .addHelpText('after', '\nExample:\n  $ gaia2-runner serve --output-dir out/ --port 7575')
    .action(async (f: { outputDir: string; host: string; port?: string }) => {
      const dir = resolve(f.outputDir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--output-dir is not a directory: ${dir}`);
      let port: number | undefined;
      if (f.port !== undefined) {
        port = Number(f.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer 0-65535, got "${f.port}"`);
      }
      if (!LOOPBACK.has(f.host)) process.stderr.write(`warning: serving on ${f.host}: anyone who can reach it can read every artifact (no authentication).\n`);
      // Loaded here, not at startup: the watcher (chokidar) is only needed by this command.
      const { serve } = await import('../../serve/index.js');
      const handle = await serve(dir, { host: f.host, port });
      process.stdout.write(`Serving ${dir} at ${handle.url} (Ctrl-C to stop)\n`);
      await new Promise<void>((done) => {
        const stop = (): void => {
          void handle.close().then(done);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
