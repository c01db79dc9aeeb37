// What a third-party agent adds to a scenario run, against our `default` agent in the same run:
// the single-turn bottle sample (two app commands and a reply), each agent driven through its
// own shell tool by a provider double that answers at once, so the difference is the agent
// program's own start-up and per-call cost. Runs are interleaved (default, agent, default,
// agent, …) so a change of machine load hits both alike; the first pair is a warm-up.
// Run: npm run bench agent-startup   (BENCH_AGENTS=claude-code,codex to choose; BENCH_N=5)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHELL_TOOL_NAME } from '../agent-image/src/agents/default/shell-tool.js';
import { findAdapter } from '../runner/src/agents/index.js';
import { connectEngine } from '../runner/src/engine/index.js';
import { ensureAgentLayer } from '../runner/src/image/agent-layer.js';
import { DEFAULT_IMAGE } from '../runner/src/image/index.js';
import { runScenario, DEFAULT_TIMEOUTS } from '../runner/src/run/index.js';
import { CLAUDE_CODE_SHELL, CODEX_SHELL, GEMINI_CLI_SHELL, openclawShell, shellDriver, startFakeLlm, type AgentShell } from '../test/helpers/fake-llm/index.js';
import { SAMPLES, samplePlay, scenarioFile } from '../test/e2e/agents/helpers/agent-samples.js';

const image = process.env.GAIA2_BENCH_IMAGE ?? DEFAULT_IMAGE;
const N = Number(process.env.BENCH_N ?? 3);
// Model names the programs know (Claude Code sends other requests for a model it does not know).
const AGENTS: Record<string, { shell: AgentShell; provider: string; model: string }> = {
  'claude-code': { shell: CLAUDE_CODE_SHELL, provider: 'anthropic', model: 'claude-sonnet-4-5' },
  codex: { shell: CODEX_SHELL, provider: 'openai', model: 'gpt-5.1-codex' },
  'gemini-cli': { shell: GEMINI_CLI_SHELL, provider: 'google', model: 'gemini-2.5-flash' },
  openclaw: { shell: openclawShell('openai-chat'), provider: 'openai-compat', model: 'bench-model' },
};
const wanted = (process.env.BENCH_AGENTS ?? Object.keys(AGENTS).join(',')).split(',');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const engine = await connectEngine();

/** Wall ms of one scenario run of `agent` (in `img`), its model a double on the host's loopback. */
async function timeRun(agent: string, img: string, shell: AgentShell, provider: string, model: string): Promise<number> {
  const driver = shellDriver(shell, samplePlay(SAMPLES.single));
  const fake = await startFakeLlm({ format: shell.format, respond: driver.respond });
  const env = { PROVIDER: provider, MODEL: model, API_KEY: 'sk-bench', BASE_URL: fake.url, GAIA2_AGENT_TOOLS: 'shell' };
  const relays = await engine.openRun({ runId: 'bench', env, network: 'bridge' });
  try {
    const t0 = performance.now();
    const r = await runScenario({
      engine, image: img, scenarioFile: scenarioFile(SAMPLES.single), outputDir: mkdtempSync(join(tmpdir(), 'gaia2-bench-agent-')),
      env: relays.env, agent: agent === 'default' ? 'default' : 'external', network: 'bridge', timeouts: DEFAULT_TIMEOUTS,
      labels: { 'gaia2.bench': 'agent-startup' },
    });
    const ms = performance.now() - t0;
    if (r.status !== 'pass') throw new Error(`${agent}: the bench run did not pass: ${r.error ?? r.failure_reasons}`);
    return ms;
  } finally {
    await relays.close();
    await fake.close();
  }
}

const defaultShell: AgentShell = { format: 'anthropic', tool: SHELL_TOOL_NAME, args: (command) => ({ command }) };
try {
  console.log(`engine: ${(await engine.describe()).kind}; ${N} interleaved pairs per agent after a warm-up pair`);
  console.log(`| agent | median run (ms) | default in the same run (ms) | added per run (ms) | run ÷ default | added ÷ default |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const name of wanted) {
    const a = AGENTS[name];
    const adapter = findAdapter(name);
    if (!a || !adapter) throw new Error(`BENCH_AGENTS: unknown agent ${name}`);
    const layer = await ensureAgentLayer(engine.images!, { projectRoot: join(import.meta.dirname, '..'), worldTag: image, adapter, version: adapter.package.version });
    const base: number[] = [];
    const agent: number[] = [];
    for (let i = -1; i < N; i++) {
      const b = await timeRun('default', image, defaultShell, 'anthropic', 'claude-sonnet-4-5');
      const x = await timeRun(name, layer.tag, a.shell, a.provider, a.model);
      if (i < 0) continue;
      base.push(b);
      agent.push(x);
    }
    const m = median(agent);
    const d = median(base);
    console.log(`| ${name} ${adapter.package.version} | ${m.toFixed(0)} | ${d.toFixed(0)} | ${(m - d).toFixed(0)} | ${(m / d).toFixed(2)}× | ${((m - d) / d).toFixed(2)}× |`);
  }
} finally {
  await engine.close();
}
