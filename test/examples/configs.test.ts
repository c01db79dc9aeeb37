// Every TOML config in examples/ resolves as a user would run it (`run-config FILE --dry-run`,
// the key variables it names set): the agent it names is known, its options and provider are
// ones that agent takes, and its dataset resolves to scenarios. Keeps the examples from drifting
// away from the config format.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../runner/config/in-process-cli.js';

const root = join(import.meta.dirname, '..', '..');
const examples = join(root, 'examples');
const configs = (readdirSync(examples, { recursive: true }) as string[]).filter((f) => f.endsWith('.toml')).sort();
const keys = { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k', OPENROUTER_API_KEY: 'k', OPENAI_COMPAT_API_KEY: 'k' };

describe('examples/*.toml', () => {
  it('there is a config for each third-party agent', async () => {
    const { listAdapters } = await import('../../runner/src/agents/index.js');
    for (const a of listAdapters()) {
      // acp names its program in its options: a config per program, third-party/acp-<program>.toml
      if (a.fromOptions) expect(configs.filter((f) => f.startsWith(join('third-party', `${a.name}-`))).length).toBeGreaterThanOrEqual(2);
      else expect(configs).toContain(join('third-party', `${a.name}.toml`));
    }
  });

  it.each(configs)('%s resolves with --dry-run to scenarios and the agent it names', async (file) => {
    const dir = mkdtempSync(join(tmpdir(), 'example-config-'));
    const r = await runCliInProcess(['run-config', join(examples, file), '--dry-run'], dir, keys);
    expect(r.code, `${relative(root, join(examples, file))}: ${r.err}`).toBe(0);
    expect(r.out).toMatch(/Resolved scenarios: [1-9]/);
    const agent = file.startsWith('third-party/acp-') ? 'acp' : file.slice('third-party/'.length, -'.toml'.length);
    if (file.startsWith('third-party/')) expect(r.out).toContain(`Agent: ${agent} `);
  });
});
