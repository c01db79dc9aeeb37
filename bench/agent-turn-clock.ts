// How much simulated time an agent's own machinery costs a turn (issue R: "start-up off the
// clock, whatever the load"). Each agent plays the multi-turn sample against a provider double
// that answers every request at once with a short text (no tool calls), so a turn is the
// program's own work plus one model call; the figure is the simulated seconds from a message's
// delivery (send_message_to_agent) to the agent's reply (send_message_to_user) in events.jsonl.
// Measured idle (one run at a time) and loaded (8 runs of the agent at once), through the CLI as
// a user runs it (model gateway included). Goals: ≤ 0.5 s per turn in both, loaded ÷ idle ≤ 1.2.
// The loaded runs are measured twice: with the run's CPU wait kept off the clock (the image's
// default, --clock-cpu-wait exclude) and, as the baseline in the same run, counted on it
// (--clock-cpu-wait count, the reference's clock).
// Run: npm run bench agent-turn-clock   (BENCH_AGENTS=default,claude-code,…; BENCH_IDLE=3; BENCH_LOADED=8)
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findAdapter } from '../runner/src/agents/index.js';
import { connectEngine } from '../runner/src/engine/index.js';
import { DEFAULT_IMAGE, ensureImage } from '../runner/src/image/index.js';
import { say, startFakeLlm, type FakeFormat } from '../test/helpers/fake-llm/index.js';
import { SAMPLES, scenarioFile } from '../test/e2e/agents/helpers/agent-samples.js';

const root = join(import.meta.dirname, '..');
const image = process.env.GAIA2_BENCH_IMAGE ?? DEFAULT_IMAGE;
const IDLE = Number(process.env.BENCH_IDLE ?? 3);
const LOADED = Number(process.env.BENCH_LOADED ?? 8);
const AGENTS: Record<string, { format: FakeFormat; provider: string; model: string }> = {
  default: { format: 'anthropic', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  'claude-code': { format: 'anthropic', provider: 'anthropic', model: 'claude-sonnet-4-5' },
  codex: { format: 'openai-responses', provider: 'openai', model: 'gpt-5.1-codex' },
  'gemini-cli': { format: 'gemini', provider: 'google', model: 'gemini-2.5-flash' },
  openclaw: { format: 'openai-chat', provider: 'openai-compat', model: 'bench-model' },
};
const wanted = (process.env.BENCH_AGENTS ?? Object.keys(AGENTS).join(',')).split(',');
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);

interface Line {
  t: number;
  fn?: string;
}

/** Simulated seconds from each delivery to the reply that follows it, in every run under `dir`. */
function turnSeconds(dir: string): number[] {
  const out: number[] = [];
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!f.isFile() || f.name !== 'events.jsonl') continue;
    const lines = readFileSync(join(f.parentPath, f.name), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
    let delivered: number | null = null;
    for (const l of lines) {
      if (l.fn === 'send_message_to_agent' && delivered === null) delivered = l.t;
      if (l.fn === 'send_message_to_user' && delivered !== null) {
        out.push(l.t - delivered);
        delivered = null;
      }
    }
  }
  return out;
}

/** N runs of the multi-turn sample, all at once (-j N), against an instant double; each turn's simulated seconds. */
async function measure(agent: string, runs: number, parallel: number, cpuWait: 'exclude' | 'count' = 'exclude'): Promise<number[]> {
  const a = AGENTS[agent]!;
  const fake = await startFakeLlm({ format: a.format, respond: () => say('Done.') });
  const out = mkdtempSync(join(tmpdir(), `gaia2-bench-clock-${agent}-`));
  const args = [
    join(root, 'bin/gaia2-runner.mjs'), 'run-dataset', '-d', scenarioFile(SAMPLES.multi), '--image', image, '--agent', agent,
    '--provider', a.provider, '--model', a.model, '--base-url', fake.url, '--api-key-env', 'BENCH_KEY', '--output-dir', out,
    '--pass-at', String(runs), '--concurrency', String(parallel), '--timeout', '900', '--clock-cpu-wait', cpuWait,
  ];
  try {
    await promisify(execFile)('node', args, {
      cwd: root,
      env: { ...process.env, BENCH_KEY: 'sk-bench', GAIA2_JUDGE_MODEL: '', GAIA2_JUDGE_PROVIDER: '' },
      maxBuffer: 1 << 26,
    }).catch((e: { stderr?: string }) => {
      // The sample is judged FAIL (the double only talks): a non-zero exit is expected; no turns is not.
      if (turnSeconds(out).length === 0) throw new Error(`${agent}: no turn was played\n${e.stderr ?? ''}`);
    });
    return turnSeconds(out);
  } finally {
    await fake.close();
  }
}

// The world image as the sources say (an agent's layer is built by the run itself).
const engine = await connectEngine();
try {
  await ensureImage(engine.images!, { projectRoot: root, tag: image, log: (l) => process.stderr.write(`[build-image] ${l}\n`) });
} finally {
  await engine.close();
}

console.log(`image ${image}; multi-turn sample (${SAMPLES.multi}), instant double; idle: ${IDLE} runs one at a time; loaded: ${LOADED} runs at once`);
console.log('| agent | turns idle | idle median (sim s) | idle max | turns loaded | loaded median | loaded max | loaded ÷ idle (medians) | goals (≤ 0.5 s, ≤ 1.2) | baseline: wait counted, loaded median | its loaded ÷ idle |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
let failed = false;
for (const name of wanted) {
  if (!AGENTS[name] || (name !== 'default' && !findAdapter(name))) throw new Error(`BENCH_AGENTS: unknown agent ${name}`);
  const idle = await measure(name, IDLE, 1);
  const loaded = await measure(name, LOADED, LOADED);
  const counted = await measure(name, LOADED, LOADED, 'count');
  const [mi, ml, mc] = [median(idle), median(loaded), median(counted)];
  const ratio = ml / mi;
  const ok = Math.max(...idle, ...loaded) <= 0.5 && ratio <= 1.2;
  failed ||= !ok;
  console.log(
    `| ${name} | ${idle.length} | ${mi.toFixed(3)} | ${Math.max(...idle).toFixed(3)} | ${loaded.length} | ${ml.toFixed(3)} | ${Math.max(...loaded).toFixed(3)} | ${ratio.toFixed(2)} | ${ok ? 'met' : 'NOT met'} | ${mc.toFixed(3)} | ${(mc / mi).toFixed(2)} |`,
  );
}
// Goals not met are a result (the table says so), not a failure of the bench: `npm run bench` counts exit codes.
if (failed) console.log('goals not met: see the last column');
