// Watches the output tree and rebuilds the viewer incrementally after artifacts change
// (debounced), plus a slow periodic pass in case file events are missed (inotify limits,
// network filesystems). The mode (run or pass@N root) is re-detected on every build.
import { relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { buildViewerDetailed } from '../viewer/index.js';

export interface RebuildWatcher {
  close(): Promise<void>;
}

const OWN_OUTPUT = /(\.html|\.tmp|\.gaia2-viewer\.json)$/;

export function watchAndRebuild(root: string, onPages: (urlPaths: string[]) => void, opts: { debounceMs?: number; pollMs?: number } = {}): RebuildWatcher {
  const debounceMs = opts.debounceMs ?? 200;
  let timer: NodeJS.Timeout | null = null;
  let building = false;
  let again = false;

  const rebuild = (): void => {
    if (building) {
      again = true;
      return;
    }
    building = true;
    try {
      const { written } = buildViewerDetailed(root, { incremental: true });
      onPages(written.map((f) => `/${relative(root, f).split(sep).join('/')}`));
    } catch (err) {
      process.stderr.write(`serve: rebuild failed: ${(err as Error).message}\n`);
    } finally {
      building = false;
    }
    if (again) {
      again = false;
      schedule();
    }
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(rebuild, debounceMs);
  };

  const watcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    ignored: (path: string) => OWN_OUTPUT.test(path) || path.split(sep).some((p) => p === 'node_modules'),
  });
  watcher.on('all', schedule);
  watcher.on('error', (err) => process.stderr.write(`serve: watcher: ${(err as Error).message}\n`));
  const poll = setInterval(schedule, opts.pollMs ?? 10_000);
  poll.unref();

  return {
    async close() {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
