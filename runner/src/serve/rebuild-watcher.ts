// Watches the output tree and rebuilds the viewer incrementally after artifacts change
// (debounced), plus a slow periodic pass in case file events are missed (inotify limits,
// network filesystems). The mode (run or pass@N root) is re-detected on every build.
import { relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { buildViewerDetailed } from '../viewer/index.js';

export interface RebuildWatcher {
  close(): Promise<void>;
}

const OWN_OUTPUT = /(\.html|\.tmp|\.gaia2-viewer\.json|_viewer\.js|_viewer\.css)$/;

export function watchAndRebuild(root: string, onPages: (urlPaths: string[]) => void, opts: { debounceMs?: number; pollMs?: number } = {}): RebuildWatcher {
  const debounceMs = opts.debounceMs ?? 200;
  let timer: NodeJS.Timeout | null = null;
  let building = false;
  let again = false;
  /** Paths seen since the last build; null = unknown (periodic pass): rescan everything. */
  let pending: Set<string> | null = new Set();

  const rebuild = (): void => {
    if (building) {
      again = true;
      return;
    }
    building = true;
    const changed = pending ? [...pending] : undefined;
    pending = new Set();
    try {
      const { written } = buildViewerDetailed(root, { incremental: true, changed });
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
  watcher.on('all', (_event, path) => {
    pending?.add(path);
    schedule();
  });
  watcher.on('error', (err) => process.stderr.write(`serve: watcher: ${(err as Error).message}\n`));
  const poll = setInterval(() => {
    pending = null;
    schedule();
  }, opts.pollMs ?? 10_000);
  poll.unref();

  return {
    async close() {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
