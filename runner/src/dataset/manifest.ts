// Subset manifests (docs/runner.md, "Datasets"): `splits: {split: [ids]}`; the filter is the union
// of the ids. Shape errors name the file and the field.
import { z } from 'zod';
import { DatasetError } from './errors.js';
import { parseJsonFile } from './read-scenario.js';

const Manifest = z.looseObject({
  name: z.string().optional(),
  splits: z.record(z.string(), z.array(z.string({ error: 'must be a scenario id string' }), { error: 'must be a list of scenario ids' })).optional(),
});

export function readSubsetManifest(file: string): Set<string> {
  const r = Manifest.safeParse(parseJsonFile(file));
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new DatasetError(`${file}: subset manifest field "${i.path.join('.') || '(root)'}" ${i.message}`);
  }
  return new Set(Object.values(r.data.splits ?? {}).flat());
}
