// run_config.json as each layout wrote it, for the reader's tests and its former readers':
// the current typed record, our earlier layout (a flat copy beside the option sections, as
// orchestrator/run-config-file.ts wrote it before the record was typed), and the reference
// runner's flat keys (spec runner §7.6).
import { RUN_RECORD_SCHEMA_VERSION, RunRecord } from '../../../runner/src/record/index.js';

const agentOptions = {
  name: 'claude-code', image: 'localhost/gaia2-claude-code:latest', runtime: 'podman', provider: 'anthropic', model: 'claude-sonnet-4', base_url: null,
  thinking: 'low', tools: 'shell', max_tokens: null, volumes: [], script: null, version: '2.1.3', api_key_env: 'ANTHROPIC_API_KEY', api_key: null,
};
const judgeOptions = { provider: 'openai', model: 'gpt-4.1', base_url: null, prompt_version: 'omnilingual-gaia2', extra_body: { reasoning_effort: 'low' }, api_key_env: 'OPENAI_API_KEY', api_key: null };
const target = { kind: 'hf', repo: 'meta-agents-research-environments/gaia2-cli', revision: 'main', splits: ['search'], subset: null, limit: null, language: 'spa_Latn' };
const runOptions = { timeout: 1800, health_timeout: 120, activity_timeout: 600, idle_timeout: 900, concurrency: 4, pass_at: 3, log_level: 'INFO', notification_mode: 'message', time_speed: null, network: 'bridge', adapter_port: 8090, enable_caching: false, errors_as_failures: true, backend: { kind: 'local' } };
const provenance = {
  runner: { version: '0.1.0', git_commit: 'abc', git_dirty: false }, engine: { name: 'podman' }, image_id: 'sha256:0123456789abcdef0123456789', image_context_hash: 'h',
  dataset_revision_sha: 'f00dfeed', scenario_hashes: { 'search/s1': 'aa' },
};
const facts = {
  run_id: 'r-1', started_at: '2026-05-10T12:00:43.123Z', user: 'me', agent: { name: 'claude-code', version: '2.1.3' },
  dataset_cache_dir: '/cache/gaia2', splits: ['search'], num_scenarios: 160, run_number: 2,
};

/** A record as the runner now holds and writes it: pass@3's run_2 of a judged Hugging Face run. */
export const currentRecord = (): RunRecord =>
  RunRecord.parse({
    schema_version: RUN_RECORD_SCHEMA_VERSION, command: 'run-dataset', target, agent_options: agentOptions, judge_options: judgeOptions,
    agent2agent_options: null, run_options: runOptions, noise: null, seeds: null, ...facts, ...provenance,
  });

/** The same run as the earlier layout wrote it (schema_version 1): every setting twice. */
export const layoutOneFile = (): Record<string, unknown> => ({
  schema_version: 1, command: 'run-dataset', run_id: 'r-1', started_at: facts.started_at, user: 'me',
  image: agentOptions.image, runtime: 'podman', agent: facts.agent, provider: 'anthropic', model: 'claude-sonnet-4', base_url: null,
  judge_model: 'gpt-4.1', judge_provider: 'openai', judge_base_url: null, judge_mode: 'llm', judge_prompt_version: 'omnilingual-gaia2', judge_extra_body: { reasoning_effort: 'low' },
  idle_timeout: 900, timeout: 1800, health_timeout: 120, activity_timeout: 600, network: 'bridge', concurrency: 4, pass_at: 3, limit: null, noise: null,
  dataset: target.repo, revision: 'main', dataset_cache_dir: '/cache/gaia2', language: 'spa_Latn', splits: ['search'], num_scenarios: 160, run_number: 2, total_runs: 3,
  target, agent_options: agentOptions, judge_options: judgeOptions, agent2agent_options: null, run_options: runOptions, seeds: null, ...provenance,
});

/** The reference runner's run_config.json of a local dataset run (spec runner §7.6), after a retry. */
export const referenceFile = (): Record<string, unknown> => ({
  command: 'run-dataset', started_at: '2026-05-10T12:00:43.123456+00:00', user: 'me', image: 'ghcr.io/meta/gaia2-oc:latest', runtime: 'podman',
  provider: 'openai', model: 'gpt-5', base_url: null, judge_model: 'gpt-4.1', judge_provider: 'openai', judge_base_url: null,
  timeout: 1800, health_timeout: 120, concurrency: 8, limit: 20, dataset: '/data/gaia2-cli/search', dataset_split: 'gaia2-cli',
  splits: ['search'], num_scenarios: 160, retry_num_scenarios: 25,
});
