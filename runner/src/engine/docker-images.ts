// The image store of a Docker Engine API engine (podman or Docker, local or remote): images
// inspected, listed, built from a context, pulled, pushed and imported, all through the API.
import Docker from 'dockerode';
import type { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { readdir, readlink, stat } from 'node:fs/promises';
import { join, relative, posix } from 'node:path';
import { withDeadline } from '../net/deadline.js';
import type { BuildOptions, ImageStore, PushOptions } from './types.js';
import { EngineError, engineErrorMessage, wrapEngineError } from './errors.js';
import { packStream, type TarEntry } from './archive.js';
import { readProgress } from './progress-stream.js';

export class DockerImageStore implements ImageStore {
  constructor(private readonly docker: Docker) {}

  async exists(ref: string): Promise<boolean> {
    return (await this.labels(ref)) !== null;
  }

  async withLabel(label: string): Promise<Array<{ tags: string[]; labels: Record<string, string> }>> {
    const list = await this.docker.listImages({ filters: { label: [label] } }).catch((e: unknown) => {
      throw wrapEngineError(e, `listing images labelled ${label}`);
    });
    return list.map((i) => ({ tags: (i.RepoTags ?? []).filter((t) => t !== '<none>:<none>'), labels: i.Labels ?? {} }));
  }

  async labels(ref: string): Promise<Record<string, string> | null> {
    const info = await this.inspect(ref);
    return info ? (info.Config?.Labels ?? {}) : null;
  }

  /** The image's inspect answer; null when it does not exist. */
  private async inspect(ref: string): Promise<Docker.ImageInspectInfo | null> {
    try {
      return await this.docker.getImage(ref).inspect();
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw wrapEngineError(e, `inspecting image ${ref}`);
    }
  }



  async id(ref: string): Promise<string | null> {
    return (await this.inspect(ref))?.Id ?? null;
  }



  async build(opts: BuildOptions): Promise<void> {
    // Streamed from disk as it is sent: an agent layer's context is hundreds of MB.
    const entries = await walkContext(opts.contextDir);
    const stream = (await this.docker.buildImage(packStream(entries) as unknown as NodeJS.ReadableStream, {
      t: opts.tag,
      dockerfile: opts.dockerfile ?? 'Dockerfile',
      // podman answers 400 when the parameter is absent
      buildargs: opts.buildArgs ?? {},
      networkmode: 'host',
      rm: true,
    } as Docker.ImageBuildOptions)) as Readable;
    try {
      await readProgress(stream, (ev) => {
        const line = (ev.stream ?? ev.error ?? '').trimEnd();
        if (line) opts.onProgress?.(line);
      });
    } catch (e) {
      throw new EngineError('internal_error', `image build failed: ${engineErrorMessage(e)}`);
    }
  }

  async push(source: string, ref: string, o: PushOptions = {}): Promise<void> {
    const { repo, tag } = splitRef(ref);
    const registry = repo.split('/')[0]!;
    const insecure = o.insecure || /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(registry);
    try {
      if (source !== ref) await this.docker.getImage(source).tag({ repo, tag });
      // Docker reads the credentials from X-Registry-Auth (an empty object when there are none);
      // podman also takes tlsVerify, Docker treats loopback registries as insecure by itself.
      const stream = (await this.docker.getImage(repo).push({
        tag,
        authconfig: o.auth ? { ...o.auth, serveraddress: registry } : {},
        ...(insecure ? { tlsVerify: false } : {}),
      } as Docker.ImagePushOptions)) as Readable;
      await readProgress(stream, (ev) => {
        if (ev.status) o.onProgress?.(`${ev.status}${ev.progress ? ` ${ev.progress}` : ''}`);
      });
    } catch (e) {
      throw new EngineError('engine_unavailable', `pushing ${ref}: ${engineErrorMessage(e)}`);
    }
  }

  async pull(ref: string, timeoutMs: number, log?: (line: string) => void): Promise<boolean> {
    const attempt = (async () => {
      // Docker answers an unreachable registry with 500 (dockerode rejects); podman answers 200
      // and puts the error into the stream; either way the image must exist afterwards.
      await readProgress((await this.docker.pull(ref)) as Readable);
      if (await this.exists(ref)) return true;
      log?.(`pull of ${ref} ended without the image`);
      return false;
    })().catch((e: unknown) => {
      log?.(`pull of ${ref} failed: ${engineErrorMessage(e)}`);
      return false;
    });
    return withDeadline(attempt, timeoutMs).catch((e: unknown) => {
      log?.(`pull of ${ref}: ${(e as Error).message}`);
      return false;
    });
  }

  async importImage(rootfsTar: Readable, ref: string, o: { changes?: string[] } = {}): Promise<void> {
    try {
      // `repo` carries the tag: podman 4 ignores a separate `tag` parameter on import.
      const stream = (await this.docker.importImage(rootfsTar as unknown as NodeJS.ReadableStream, {
        repo: ref,
        ...(o.changes?.length ? { changes: o.changes } : {}),
      } as Record<string, unknown>)) as Readable;
      await readProgress(stream);
    } catch (e) {
      throw new EngineError('internal_error', `importing ${ref} into the engine failed: ${engineErrorMessage(e)}`);
    }
    if (!(await this.exists(ref))) throw new EngineError('internal_error', `importing ${ref}: the engine answered but holds no such image`);
  }
}

/** REGISTRY/NAME:TAG → repository and tag (a port in the registry is not a tag). */
export function splitRef(ref: string): { repo: string; tag: string } {
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  return colon > slash ? { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) } : { repo: ref, tag: 'latest' };
}

async function walkContext(dir: string): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  async function walk(d: string): Promise<void> {
    for (const ent of await readdir(d, { withFileTypes: true })) {
      const p = join(d, ent.name);
      if (ent.isDirectory()) await walk(p);
      // (an agent package's node_modules/.bin holds links)
      else if (ent.isSymbolicLink()) out.push({ name: relative(dir, p).split('\\').join(posix.sep), content: '', linkname: await readlink(p) });
      else if (ent.isFile()) {
        const st = await stat(p);
        out.push({ name: relative(dir, p).split('\\').join(posix.sep), content: { size: st.size, open: () => createReadStream(p) }, mode: st.mode & 0o777 });
      }
    }
  }
  await walk(dir);
  return out;
}
