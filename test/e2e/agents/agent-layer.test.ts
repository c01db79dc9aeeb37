// A third-party agent's layer built the way `--agent NAME` builds it, from an empty package
// cache, in real containers: the npm package comes from a registry double through the npm
// client on the host, the layer carries the agent's name, version and world hash as labels, a
// second build is skipped, and the launcher gets the contract's variables, works through an
// app CLI as user agent (scenario unreadable, simulated `date`) and passes the scenario.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitBackend } from '../../../runner/src/engine/index.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
import { HASH_LABEL } from '../../../runner/src/image/build-image.js';
import { ensureAgentLayer } from '../../../runner/src/image/agent-layer.js';
import { agentLayerEnv } from '../../../runner/src/env/agent-layer-env.js';
import { DEFAULT_TIMEOUTS, runScenario } from '../../../runner/src/run/index.js';
import { npmEnvFor, startNpmRegistryDouble, type NpmRegistryDouble } from '../../helpers/npm-registry-double.js';
import { fixtureAdapter } from '../../runner/agents/fixture-adapter.js';
import { connectE2eEngine, eachEngine } from '../helpers/engines.js';

const root = join(import.meta.dirname, '..', '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const BOTTLE = 'ececbe590b923620bc5384dc4ef7bd0e';

// The "agent program" of the package: records what it was given, then does the task.
const PROGRAM = `#!/bin/bash
set -euo pipefail
msg=$(cat)
{
  echo "turn=$GAIA2_TURN kind=$GAIA2_MESSAGE_KIND tools=$GAIA2_TOOLS msg_file_same=$([[ $(<"$GAIA2_MESSAGE_FILE") == "$msg" ]] && echo yes)"
  echo "provider=$PROVIDER model=$MODEL thinking=$THINKING key=\${API_KEY:+set} anthropic_key=\${ANTHROPIC_API_KEY:+set}"
  echo "opt_max_turns=\${GAIA2_AGENT_OPT_MAX_TURNS:-} options=$GAIA2_AGENT_OPTIONS name=$GAIA2_AGENT_NAME version=$GAIA2_AGENT_VERSION"
  echo "user=$(id -un) pwd=$PWD home=$HOME agent_home=$GAIA2_AGENT_HOME"
  echo "date=$(date +%Y-%m-%d) scenario=$([[ -r /var/gaia2/custom_scenario.json ]] && echo readable || echo hidden)"
  echo "judge_key=\${GAIA2_JUDGE_API_KEY:-absent}"
} >>"$GAIA2_TRACE_DIR/contract.log"
shopping add-to-cart --item-id ${BOTTLE} --quantity 2 >/dev/null
shopping checkout --discount-code HYDRATE5 >/dev/null
echo "Ordered two bottles with HYDRATE5."
`;

describe.each(eachEngine())('agent layer from an npm package on %s (real containers)', (_kind, e) => {
  let engine: UnitBackend;
  let reg: NpmRegistryDouble;
  const cacheDir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-agent-cache-'));
  const adapter = fixtureAdapter({ launcher: '#!/bin/bash\nexec "$GAIA2_AGENT_HOME/pkg/bin/acme.sh"\n' });

  beforeAll(async () => {
    engine = await connectE2eEngine(e);
    reg = await startNpmRegistryDouble([
      { name: '@acme/agent-cli', version: '1.2.3', files: { 'bin/acme.sh': PROGRAM }, bin: { acme: './bin/acme.sh' } },
    ]);
  });
  afterAll(async () => {
    await reg?.close();
    await engine?.close();
  });

  it('builds from an empty cache, labels the layer, skips an unchanged rebuild, and the launcher plays by the contract', async () => {
    const npmEnv = npmEnvFor(reg.url, join(cacheDir, 'npm'));
    const log: string[] = [];
    const o = { projectRoot: root, worldTag: world, adapter, version: '1.2.3', cacheDir, npmEnv, force: true, log: (l: string) => log.push(l) };
    const layer = await ensureAgentLayer(engine.images!, o);
    expect(layer).toMatchObject({ name: 'acme', version: '1.2.3', built: true });
    expect(log.join('\n')).toMatch(/fetching @acme\/agent-cli@1\.2\.3 with npm pack/);
    expect(reg.requests.some((r) => r.endsWith('.tgz'))).toBe(true);
    const labels = (await engine.images!.labels(layer.tag))!;
    const worldLabels = (await engine.images!.labels(world))!;
    expect(labels['gaia2.agent.name']).toBe('acme');
    expect(labels['gaia2.agent.version']).toBe('1.2.3');
    expect(labels['gaia2.agent.world']).toBe(worldLabels[HASH_LABEL]);

    const seen = reg.requests.length;
    expect((await ensureAgentLayer(engine.images!, { ...o, force: false })).built).toBe(false);
    expect(reg.requests.length).toBe(seen);

    const outputDir = mkdtempSync(join(tmpdir(), 'gaia2-e2e-agent-run-'));
    const result = await runScenario({
      engine, image: layer.tag, outputDir, agent: 'acme', agentRecord: { name: 'acme', version: '1.2.3' }, network: 'bridge',
      scenarioFile: join(root, 'examples/scenarios/execution/exec_shopping_bottle_order.json'),
      labels: { 'gaia2.run-id': `e2e-agent-layer-${process.pid}` },
      env: { PROVIDER: 'anthropic', MODEL: 'claude-test', THINKING: 'high', API_KEY: 'sk-e2e-layer-0000', ANTHROPIC_API_KEY: 'sk-e2e-layer-0000', GAIA2_JUDGE_API_KEY: 'judge-e2e-1111', ...agentLayerEnv({ max_turns: 7 }) },
      timeouts: { ...DEFAULT_TIMEOUTS, healthSeconds: 60, scenarioSeconds: 180 },
    });
    expect(result.failure_reasons ?? result.error ?? null).toBeNull();
    expect(result.status).toBe('pass');
    expect(result.agent).toEqual({ name: 'acme', version: '1.2.3' });
    const contract = readFileSync(join(outputDir, 'agent-trace', 'contract.log'), 'utf8');
    expect(contract).toContain('turn=1 kind=user tools=shopping msg_file_same=yes');
    expect(contract).toContain('provider=anthropic model=claude-test thinking=high key=set anthropic_key=set');
    expect(contract).toContain('opt_max_turns=7 options={"max_turns":7} name=acme version=1.2.3');
    expect(contract).toContain('user=agent pwd=/home/agent/work home=/home/agent agent_home=/opt/gaia2-agent');
    expect(contract).toMatch(/date=2025-\d\d-\d\d scenario=hidden/);
    expect(contract).toContain('judge_key=absent');
  });
});
