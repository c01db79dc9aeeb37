// The scripted runtime's script (GAIA2_SCRIPT): per run, the app commands to execute and the
// reply that ends the run. Used for tests and negative controls.
//
//   {"turns": [{"commands": [["calendar", "add-event", "--title", "Sync"]], "reply": "Done."}, …]}
//   (a bare array of turns works too; GAIA2_SCRIPT may also be "@/path/to/script.json")
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const TurnSchema = z.object({
  commands: z.array(z.array(z.string()).min(1)).default([]),
  reply: z.string().default(''),
});

const ScriptSchema = z.preprocess((v) => (Array.isArray(v) ? { turns: v } : v), z.object({ turns: z.array(TurnSchema) }));

export type ScriptTurn = z.infer<typeof TurnSchema>;
export interface Script {
  turns: ScriptTurn[];
}

export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** Parses GAIA2_SCRIPT (JSON text or "@file"); `source` names it in errors. */
export function parseScript(raw: string, source = 'GAIA2_SCRIPT'): Script {
  let text = raw.trim();
  if (text.startsWith('@')) {
    const file = text.slice(1);
    source = file;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ScriptError(`${source}: cannot read (${(e as Error).message})`);
    }
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ScriptError(`${source}: invalid JSON (${(e as Error).message})`);
  }
  const r = ScriptSchema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ScriptError(`${source}: field "${issue.path.join('.')}": ${issue.message}`);
  }
  return r.data;
}
