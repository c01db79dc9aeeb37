// The result cache's key is the run record's options minus what cannot change a run's outcome.
// The exclusions are listed here, each with its reason; every other recorded setting is in
// the key, so a setting added to the record is in the key unless someone says why not.
import type { RecordedOptions } from './schema.js';

export const CACHE_KEY_EXCLUDED: Readonly<Record<string, string>> = {
  command: 'which command started the run, not what ran',
  target: 'the scenario is keyed by its content hash, per run',
  seeds: 'always null',
  'agent_options.image': 'the image is keyed by its id',
  'agent_options.runtime': 'the reference CLI name, recorded for compatibility',
  'agent_options.script': 'a path; the script is keyed by script_sha256',
  'agent_options.instructions_file.path': 'a path; the instructions template is keyed by its sha256',
  'agent_options.api_key_env': 'a key is not a setting',
  'agent_options.api_key': 'a key is not a setting',
  'judge_options.api_key_env': 'a key is not a setting',
  'judge_options.api_key': 'a key is not a setting',
  'agent2agent_options.api_key_env': 'a key is not a setting',
  'agent2agent_options.api_key': 'a key is not a setting',
  'run_options.concurrency': 'how many run at once',
  'run_options.pass_at': 'the run index is keyed per run',
  'run_options.log_level': 'log verbosity',
  'run_options.adapter_port': 'a port inside the container',
  'run_options.enable_caching': 'the cache switch itself',
  'run_options.errors_as_failures': 'a report policy; errors are never cached',
  'run_options.backend': 'where the container runs, not what it does',
  'run_options.engine_outage_wait_s': 'how long an engine outage is waited out; a run it cut short is started again from scratch',
  gateway_options: 'how model traffic flows (retries, rate limits, replay), not what the agent is asked',
};

/** The options that decide a run's outcome: the record without the excluded fields. */
export function cacheKeyOptions(o: RecordedOptions): Record<string, unknown> {
  const out = structuredClone(o) as Record<string, unknown>;
  for (const path of Object.keys(CACHE_KEY_EXCLUDED)) {
    const parts = path.split('.');
    let at: Record<string, unknown> | null = out;
    for (const p of parts.slice(0, -1)) at = at && typeof at[p] === 'object' ? (at[p] as Record<string, unknown> | null) : null;
    if (at) delete at[parts[parts.length - 1]!];
  }
  return out;
}
