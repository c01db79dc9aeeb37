// The agent's shell in real containers, as a bring-your-own agent's launcher sees it (a layer
// FROM the world image, examples/agents/shell-agent's shape): every clock it can read is the
// scenario's simulated one — date with options, node, python3, a file it touched, a static
// binary under simclock-exec — never the host's day; the tools the reference's agent images put
// on their agents' PATH are all there; and the scenario, the world's state and the judge's key
// stay out of reach, from the shell and from python3 alike (docs/contract.md, "The agent's clock").
// Our own LLM agent's shell tool too: its runtime keeps the real clock for itself only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { DEFAULT_TIMEOUTS, runScenario } from '../../../runner/src/run/index.js';
import { connectE2eEngine, eachEngine } from '../helpers/engines.js';
import { call, say } from '../../helpers/fake-llm/index.js';
import { SHELL_TOOL_NAME } from '../../../agent-image/src/agents/default/shell-tool.js';
import { runWithFakeLlm, type LlmRun } from '../helpers/llm-run.js';

const root = join(import.meta.dirname, '..', '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const suffix = world.split(':').pop() ?? 'latest';
const SCENARIO = join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json'); // starts 2025-10-09 09:00
const SIM_DAY = '2025-10-09';
const REAL_DAY = new Date().toISOString().slice(0, 10);
// The judge's key, in two halves in the probe, so that the probe's own files never hold it whole.
const KEY_HALVES = ['judge-shell-', 'secret-4242'] as const;
const JUDGE_KEY = KEY_HALVES.join('');

/** On the agent's PATH in the reference's OpenClaw and Hermes images (gaia2-cli/containers/*\/Dockerfile), besides the app CLIs and their own agent program. */
const REFERENCE_TOOLS = [
  'ls', 'pwd', 'date', 'echo', 'cat', 'head', 'tail', 'grep', 'sed', 'awk', 'wc', 'sort', 'mkdir', 'cp', 'mv', 'rm', 'touch',
  'chmod', 'jq', 'seq', 'xargs', 'find', 'tee', 'cut', 'tr', 'paste', 'uniq', 'diff', 'base64', 'basename', 'dirname', 'file',
  'mktemp', 'sleep', 'expr', 'test', 'true', 'false', 'python3', 'curl', 'bash', 'sh',
];

/** The probe: one `name=value` line per look, in the trace directory (collected as agent-trace/shell.log). */
const LAUNCHER = `#!/bin/bash
cat >/dev/null
probe=/opt/gaia2-agent/bin/probe-static
{
  echo "date=$(date -u +%F)"
  echo "date_plain=$(date)"
  echo "tomorrow=$(date -u -d tomorrow +%F)"
  echo "node=$(node -e 'console.log(new Date().toISOString().slice(0, 10))')"
  echo "python=$(python3 -c 'import datetime; print(datetime.datetime.now(datetime.timezone.utc).date())')"
  echo "jq=$(echo '{"a":{"b":42}}' | jq .a.b)"
  echo "file=$(file -b "$probe" | cut -d, -f1-2)"
  echo "static=$(/usr/local/lib/gaia2/simclock-exec "$probe" | jq -r .day)"
  touch probe-file && echo "file_time=$(date -u -r probe-file +%F)"
  for t in ${REFERENCE_TOOLS.join(' ')}; do command -v "$t" >/dev/null || echo "missing=$t"; done
  for f in /var/gaia2/custom_scenario.json /var/gaia2/state/events.jsonl /var/gaia2/state/daemon_status.json /tmp/gaia2-eventd.log; do
    cat "$f" >/dev/null 2>&1 && echo "readable=$f"
  done
  ls /var/gaia2/state >/dev/null 2>&1 && echo "readable=/var/gaia2/state"
  python3 - <<'PY'
import glob, os
for path in ['/var/gaia2/custom_scenario.json', '/var/gaia2/state/events.jsonl', '/var/gaia2/state']:
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, 'rb').read()
        print('python_readable=' + path)
    except OSError as e:
        print('python_denied=%s:%s' % (path, type(e).__name__))
for p in glob.glob('/proc/[0-9]*'):
    for part in ('environ', 'cmdline'):
        try:
            if b'${KEY_HALVES[0]}' + b'${KEY_HALVES[1]}' in open(p + '/' + part, 'rb').read():
                print('judge_key_in=' + p + '/' + part)
        except OSError:
            pass
PY
  key='${KEY_HALVES[0]}'; key+='${KEY_HALVES[1]}'
  grep -rls "$key" /run /tmp /home /opt /etc 2>/dev/null | sed 's/^/judge_key_file=/'
  echo "done"
} >"$GAIA2_TRACE_DIR/shell.log" 2>&1
echo "Probed the shell."
`;

describe.each(eachEngine())("the agent's shell on %s (real containers)", (_kind, e) => {
  let engine: UnitBackend;
  let log = '';
  const layer = `localhost/shell-probe:${suffix}`;

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    const ctx = mkdtempSync(join(tmpdir(), 'gaia2-e2e-shell-probe-'));
    writeFileSync(join(ctx, 'agent'), LAUNCHER, { mode: 0o755 });
    // A static program (no C library of the image: the preload never loads into it).
    execFileSync('gcc', ['-O2', '-static', '-o', join(ctx, 'probe-static'), join(root, 'test/agent-image/native/programs/clock-probe.c')]);
    writeFileSync(
      join(ctx, 'Dockerfile'),
      'ARG WORLD_IMAGE\nFROM ${WORLD_IMAGE}\nCOPY agent probe-static /opt/gaia2-agent/bin/\n' +
        'LABEL gaia2.agent.name=shell-probe gaia2.agent.version=0.1.0\nENV GAIA2_AGENT=external\n',
    );
    await engine.images!.build({ contextDir: ctx, tag: layer, buildArgs: { WORLD_IMAGE: world } });
    const outputDir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-shell-run-'));
    const result = await runScenario({
      engine, image: layer, outputDir, agent: 'shell-probe', agentRecord: { name: 'shell-probe', version: '0.1.0' }, network: 'bridge',
      scenarioFile: SCENARIO,
      labels: { 'gaia2.run-id': `e2e-agent-shell-${process.pid}` },
      env: { GAIA2_JUDGE_API_KEY: JUDGE_KEY },
      timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 240 },
    });
    expect(result.agent_response).toBe('Probed the shell.');
    log = readFileSync(join(outputDir, 'agent-trace', 'shell.log'), 'utf8');
  }, 600_000);
  afterAll(async () => {
    await engine?.close();
  });

  const values = (name: string) => [...log.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1]);

  it('date with any options, node, python3, a touched file and a static program all read the simulated day', () => {
    expect(log).toContain('\ndone\n'); // the probe ran to its end
    expect(values('date')).toEqual([SIM_DAY]);
    expect(values('date_plain')[0]).toMatch(/^Thu Oct {1,2}9 \d\d:\d\d:\d\d UTC 2025$/);
    expect(values('tomorrow')).toEqual(['2025-10-10']);
    expect(values('node')).toEqual([SIM_DAY]);
    expect(values('python')).toEqual([SIM_DAY]);
    expect(values('file_time')).toEqual([SIM_DAY]);
    expect(values('file')).toEqual(['ELF 64-bit LSB executable, x86-64']);
    expect(values('static')).toEqual([SIM_DAY]);
    expect(log).not.toContain(REAL_DAY);
  });

  it('every tool of the reference agent images is on the PATH, jq and python3 working', () => {
    expect(values('missing')).toEqual([]);
    expect(values('jq')).toEqual(['42']);
  });

  it('the scenario, the state and the judge key stay unreadable, from the shell and from python3', () => {
    expect(values('readable')).toEqual([]);
    expect(values('python_readable')).toEqual([]);
    expect(values('python_denied')).toEqual([
      '/var/gaia2/custom_scenario.json:PermissionError',
      '/var/gaia2/state/events.jsonl:PermissionError',
      '/var/gaia2/state:PermissionError',
    ]);
    expect(values('judge_key_in')).toEqual([]);
    expect(values('judge_key_file')).toEqual([]);
  });
});

describe.each(eachEngine())("our LLM agent's shell tool on %s (real containers)", (_kind, e) => {
  let engine: UnitBackend;
  let run: LlmRun;

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    const command = "date -u +%F; date -u -d tomorrow +%F; node -e 'console.log(new Date().toISOString())'; python3 -c 'import time; print(int(time.time()))'";
    run = await runWithFakeLlm(engine, world, SCENARIO, 'sk-shell-e2e-0000', {
      format: 'anthropic',
      tools: 'shell',
      stream: false,
      script: [call(SHELL_TOOL_NAME, { command }), say('Looked at the clock.')],
    });
  }, 600_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('what its commands print is the simulated day, and no request to the model carries the real one', () => {
    expect(run.result.agent_response).toBe('Looked at the clock.');
    expect(run.fake.requests.length).toBeGreaterThanOrEqual(2);
    const after = JSON.stringify(run.fake.requests[1]!.body); // carries the shell tool's output
    expect(after).toContain(`${SIM_DAY}\\n2025-10-10\\n${SIM_DAY}T`);
    const epoch = Number(/\\n(\d{10})(?!\d)/.exec(after)?.[1]); // python3's time.time()
    expect(new Date(epoch * 1000).toISOString().slice(0, 10)).toBe(SIM_DAY);
    for (const r of run.fake.requests) expect(JSON.stringify(r.body)).not.toContain(REAL_DAY);
  });
});
