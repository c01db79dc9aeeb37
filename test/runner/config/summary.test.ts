// run-config's summary is read from the run record: a record read back from run_config.json
// prints the same summary as the plan it was written from, and keys show only where they come from.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../runner/src/config/resolve-toml.js';
import { formatRecordSummary, formatSummary } from '../../../runner/src/config/summary.js';
import { RecordedOptions, toRecord } from '../../../runner/src/record/index.js';

const dir = mkdtempSync(join(tmpdir(), 'gaia2-summary-'));
mkdirSync(join(dir, 'data', 'search'), { recursive: true });
writeFileSync(join(dir, 'data', 'search', 's.json'), '{}');

function plan(body: string, env: Record<string, string>) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, body);
  return loadRunConfig(file, env);
}

const FULL = `[target]
dataset_root = "${join(dir, 'data')}"
splits = ["search"]
[agent]
provider = "anthropic"
model = "claude-x"
api_key_env = "MAIN_KEY"
base_url = "http://127.0.0.1:9000"
thinking = "high"
[judge]
provider = "openai-compat"
model = "judge-m"
api_key = "sk-literal-judge-canary"
prompt_version = "omnilingual-gaia2"
extra_body = { reasoning_effort = "low" }
[agent2agent]
app_prop = 0.5
seed = 3
[run]
concurrency = 3
pass_at = 2
idle_timeout = 900.0
enable_caching = true
output_dir = "${join(dir, 'out')}"
`;

describe('run-config summary', () => {
  it('a record read back from run_config.json prints what the plan printed', () => {
    const p = plan(FULL, { MAIN_KEY: 'sk-main-canary' });
    const fromPlan = formatSummary(p, null);
    const stored = RecordedOptions.parse(JSON.parse(JSON.stringify(toRecord(p))));
    const fromRecord = formatRecordSummary(stored, { configPath: p.configPath, resolvedScenarios: null, retry: false, outputDir: p.run.outputDir, output: p.run.output });
    expect(fromRecord).toEqual(fromPlan);
    const text = fromPlan.join('\n');
    // every setting above shows up as recorded
    for (const part of ['Agent: anthropic/claude-x', 'Agent base URL: http://127.0.0.1:9000', 'Thinking: high', 'Judge: openai-compat/judge-m', 'Judge prompts: omnilingual-gaia2', 'Judge extra body: {"reasoning_effort":"low"}', 'app agents operate 50%', 'seed: 3', 'Concurrency: 3', 'Pass@: 2', 'idle 900s, host activity 960s (raised above the idle timeout)', 'Result cache: on']) {
      expect(text).toContain(part);
    }
  });

  it('keys: the variable they come from, or that they were given; never the value', () => {
    const text = formatSummary(plan(FULL, { MAIN_KEY: 'sk-main-canary' }), 1).join('\n');
    expect(text).toContain('Agent API key: from $MAIN_KEY');
    expect(text).toContain('Judge API key: given in config (redacted)');
    expect(text).not.toContain('sk-main-canary');
    expect(text).not.toContain('sk-literal-judge-canary');
  });
});
