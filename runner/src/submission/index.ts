// Submission export (and optional upload) of a finished gaia2-run root; used by `gaia2-run`
// after its phases and by `submission` on an existing root.
import { buildSubmission, writeSubmission } from './export.js';
import { checkRepoId, uploadSubmission } from './upload.js';

export { buildSubmission, writeSubmission, type Submission } from './export.js';
export { SUBMISSION_COLUMNS, DEFAULT_SUBMISSION_SPLIT, configName, validateRows } from './format.js';
export { checkRepoId } from './upload.js';

export interface SubmitOptions {
  split: string;
  hfUpload: string | null;
  hfPublic: boolean;
  env: Record<string, string | undefined>;
  out: (text: string) => void;
}

export async function exportSubmission(root: string, o: SubmitOptions): Promise<void> {
  if (o.hfUpload) checkRepoId(o.hfUpload);
  const s = buildSubmission(root, { split: o.split });
  writeSubmission(s);
  const configs = Object.entries(s.configs).map(([c, n]) => `${c} (${n})`).join(', ');
  o.out(`Submission: ${s.dir} — ${s.rows} rows, ${s.success} successful; configs: ${configs}\n`);
  if (!o.hfUpload) return;
  const rate = ((100 * s.success) / s.rows).toFixed(2);
  const { commitUrl } = await uploadSubmission(s, {
    repo: o.hfUpload,
    public: o.hfPublic,
    env: o.env,
    title: `Gaia2 submission: ${rate}% (${s.success}/${s.rows}) on split ${o.split}`,
  });
  o.out(`Uploaded to Hugging Face dataset ${o.hfUpload} (${o.hfPublic ? 'public' : 'private'})${commitUrl ? `: ${commitUrl}` : ''}\n`);
}
