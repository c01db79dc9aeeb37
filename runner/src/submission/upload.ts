// Uploads a submission to a Hugging Face dataset repo with @huggingface/hub: the repo is
// created (private unless asked otherwise; an existing repo keeps its visibility) and every
// file goes in one commit, large files through the Hub's LFS upload.
import { commit, createRepo, HubApiError } from '@huggingface/hub';
import { ConfigError } from '../plan/errors.js';
import { registerSecret } from '../secrets/redact.js';
import type { Submission } from './export.js';

export interface UploadOptions {
  repo: string;
  public: boolean;
  env: Record<string, string | undefined>;
  title: string;
}

export class UploadError extends Error {
  override name = 'UploadError';
}

export function checkRepoId(repo: string, flag = '--hf-upload'): string {
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(repo)) throw new ConfigError(`${flag} must be a Hugging Face dataset id "org/name" (got ${JSON.stringify(repo)})`);
  return repo;
}

export async function uploadSubmission(s: Submission, o: UploadOptions): Promise<{ commitUrl: string | null }> {
  const accessToken = o.env.HF_TOKEN?.trim();
  if (!accessToken) throw new ConfigError('uploading to the Hugging Face Hub needs HF_TOKEN (a token that can write to the target org)');
  registerSecret(accessToken);
  const hubUrl = o.env.HF_ENDPOINT?.trim() || undefined;
  const repo = { type: 'dataset' as const, name: checkRepoId(o.repo) };
  try {
    await createRepo({ repo, accessToken, hubUrl, private: !o.public });
  } catch (e) {
    // 409: the repo exists already; the commit below adds to it.
    if (!(e instanceof HubApiError && e.statusCode === 409)) throw wrap(e, `creating ${o.repo}`);
  }
  try {
    const out = await commit({
      repo,
      accessToken,
      hubUrl,
      title: o.title,
      operations: s.files.map((f) => ({ operation: 'addOrUpdate' as const, path: f.path, content: new Blob([f.content.slice()]) })),
    });
    return { commitUrl: out?.commit.url ?? null };
  } catch (e) {
    throw wrap(e, `uploading to ${o.repo}`);
  }
}

function wrap(e: unknown, what: string): UploadError {
  const status = e instanceof HubApiError ? ` (HTTP ${e.statusCode})` : '';
  const hint = e instanceof HubApiError && (e.statusCode === 401 || e.statusCode === 403) ? '; check that HF_TOKEN can write to this org' : '';
  return new UploadError(`Hugging Face Hub: ${what} failed${status}: ${(e as Error).message}${hint}`);
}
