// What the viewer's headers show of a run, taken from its typed run record (record/): the
// viewer reads no field of run_config.json by name. A run without a readable record shows
// nothing of it (its pages still list what its artifacts hold).
import { join } from 'node:path';
import { findRunRecord, RUN_RECORD_FILE, type RunRecord } from '../../record/index.js';
import { agentLabel, runAgentIdentity } from '../../report/agent-identity.js';
import { reportMetaOf } from '../../report/meta.js';

export interface RunFacts {
  model: string;
  provider: string;
  /** "claude-code 2.1.332" (report/agent-identity.ts), '' when unknown. */
  agent: string;
  image: string;
  language: string;
  /** The judge's prompt set when it is not the default one, else ''. */
  judgePrompts: string;
  startedAt: string;
  /** The scenarios the run planned (its whole selection), null when unknown. */
  expected: number | null;
  /** The concrete splits the run read. */
  splits: string[];
}

export const NO_RUN_FACTS: RunFacts = { model: '', provider: '', agent: '', image: '', language: '', judgePrompts: '', startedAt: '', expected: null, splits: [] };

export function runFactsOf(rec: RunRecord | null): RunFacts {
  if (!rec) return NO_RUN_FACTS;
  const m = reportMetaOf(rec);
  const prompts = rec.judge_options?.prompt_version ?? '';
  return {
    model: m.model ?? '',
    provider: m.provider ?? '',
    agent: agentLabel(runAgentIdentity(rec)),
    image: rec.agent_options?.image ?? '',
    language: m.language ?? '',
    judgePrompts: prompts === 'default' ? '' : prompts,
    startedAt: rec.started_at ?? '',
    expected: rec.num_scenarios ? rec.num_scenarios : null,
    splits: rec.splits ?? [],
  };
}

/** The facts of <runDir>/run_config.json (this directory's own record, not a run_1's). */
export const readRunFacts = (runDir: string): RunFacts => runFactsOf(findRunRecord(join(runDir, RUN_RECORD_FILE)));
