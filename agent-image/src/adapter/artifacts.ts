// GET /artifacts: the run's artifact files read in the container and sent in one response,
// so the runner needs one local HTTP request instead of an engine archive per directory.
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_DIRS, ARTIFACT_FILES, CONTAINER_PATHS, ENV } from '../contract/paths.js';
import type { ArtifactsResponse } from '../contract/routes.js';

/** The top-level files of ARTIFACT_DIRS present now, as `<name>/<file>`. */
export function artifactDirFiles(dirs: ReadonlyArray<readonly [string, string]> = ARTIFACT_DIRS): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (const [dir, name] of dirs) {
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // no such directory: nothing to collect
    }
    for (const e of entries) if (e.isFile()) out.push([join(dir, e.name), `${name}/${e.name}`] as const);
  }
  return out;
}

/** ARTIFACT_FILES with the state directory, trace and faketime files this process was configured with. */
export function artifactPaths(env: NodeJS.ProcessEnv): Array<readonly [string, string]> {
  const stateDir = env[ENV.stateDir] || CONTAINER_PATHS.stateDir;
  const prefix = `${CONTAINER_PATHS.stateDir}/`;
  return [...ARTIFACT_FILES.map(([path, name]) => {
    if (path.startsWith(prefix)) return [join(stateDir, path.slice(prefix.length)), name] as const;
    if (path === CONTAINER_PATHS.trace && env[ENV.traceFile]) return [env[ENV.traceFile]!, name] as const;
    if (path === CONTAINER_PATHS.faketime && env.GAIA2_FAKETIME_FILE) return [env.GAIA2_FAKETIME_FILE, name] as const;
    return [path, name] as const;
  }), ...artifactDirFiles()];
}

export function readArtifacts(paths: ReadonlyArray<readonly [string, string]>): ArtifactsResponse {
  const out: ArtifactsResponse = { files: {}, missing: [], unreadable: [] };
  for (const [path, name] of paths) {
    try {
      out.files[name] = readFileSync(path).toString('base64');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      (code === 'ENOENT' ? out.missing : out.unreadable).push(name);
    }
  }
  return out;
}
