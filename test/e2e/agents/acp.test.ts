// `--agent acp` end to end (docs/agents.md, "Any ACP program: --agent acp"): the generic ACP
// adapter with four real programs named only by options — OpenCode (its linux-x64 build, the
// version the opencode adapter pins, `opencode acp`) through the whole agent suite (three
// samples PASS, a wrong play FAIL, the key kept out, trace.jsonl), and Gemini CLI (`gemini
// --acp`, the version the gemini-cli adapter pins, ACP authenticate), GitHub Copilot CLI
// (`copilot --acp`, offline, its provider variables on the gateway) and Kilo Code CLI (`kilo acp`,
// OpenCode's configuration under KILO_CONFIG_CONTENT) on the single-turn sample,
// their layers built by the CLI itself. Each program's ACP updates are its steps in acp-steps.jsonl.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { geminiCli } from '../../../runner/src/agents/gemini-cli.js';
import { opencode } from '../../../runner/src/agents/opencode.js';
import { copilotShell, GEMINI_CLI_SHELL, opencodeShell } from '../../helpers/fake-llm/index.js';
import { scenarioDirs } from './helpers/acp-traces.js';
import { expectOneStartPerSample } from './helpers/acp-suite-checks.js';
import { describeAgentSuite } from './helpers/agent-suite.js';
import { SAMPLES } from './helpers/agent-samples.js';
import { readResults, runSingleSample, type AgentUnderTest, type DrivenRun } from './helpers/third-party-run.js';
import { DEFAULT_IMAGE } from '../../../runner/src/image/index.js';
// @ts-expect-error the layer's helpers are plain JavaScript
import { KEY_VARIABLE, opencodeConfig } from '../../../runner/src/agents/opencode/layer/lib/opencode-config.mjs';

const image = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;

/**
 * OpenCode's whole configuration in one variable: the one the opencode adapter writes, built with
 * ${…} in place of the gateway's URL and the model, filled in inside the container.
 */
const OPENCODE_CONFIG = JSON.stringify(opencodeConfig({ PROVIDER: 'openai-compat', MODEL: '${MODEL}', BASE_URL: '${BASE_URL}' }));

/** A program on an OpenAI-compatible endpoint whose shell tool is `bash` with AGENTS.md as its instructions. */
const bashProgram = (pkg: string, command: string, env: string[], shell = opencodeShell('openai-chat')): AgentUnderTest => ({
  name: 'acp',
  shell,
  provider: 'openai-compat',
  model: 'gaia2-double-model',
  options: { package: pkg, command, env: env.join('\n'), context_file: 'AGENTS.md', tool_name: 'bash' },
});

const opencodeAcp = bashProgram(`opencode-linux-x64@${opencode.package.version}`, 'opencode acp --pure', [
  `OPENCODE_CONFIG_CONTENT=${OPENCODE_CONFIG}`,
  `${KEY_VARIABLE}=\${API_KEY}`,
  'OPENCODE_DISABLE_MODELS_FETCH=1',
  'OPENCODE_DISABLE_AUTOUPDATE=1',
  'OPENCODE_DISABLE_LSP_DOWNLOAD=1',
  'OPENCODE_DISABLE_DEFAULT_PLUGINS=1',
]);

const geminiAcp: AgentUnderTest = {
  name: 'acp',
  shell: GEMINI_CLI_SHELL,
  provider: 'google',
  model: 'gemini-2.5-flash',
  options: {
    package: `@google/gemini-cli@${geminiCli.package.version}`,
    command: 'gemini --acp --yolo -m ${MODEL}',
    // The gateway's BASE_URL ends in /v1beta; Gemini CLI adds the version itself.
    env: ['GEMINI_API_KEY=${API_KEY}', 'GOOGLE_GEMINI_BASE_URL=${BASE_URL%/v1beta}', 'GEMINI_CLI_NO_RELAUNCH=true', 'GEMINI_CLI_TRUST_WORKSPACE=true'].join('\n'),
    auth_method: 'gemini-api-key',
    context_file: 'GEMINI.md',
    tool_name: 'run_shell_command',
  },
};

/**
 * GitHub Copilot CLI (docs/agents.md: it reaches other models than GitHub's): its linux-x64
 * program in ACP mode, offline (no GitHub sign-in), its own provider variables on the gateway,
 * bash its only tool.
 */
const COPILOT_VERSION = '1.0.102';
const copilotAcp = bashProgram(
  `@github/copilot-linux-x64@${COPILOT_VERSION}`,
  'copilot-linux-x64 --acp --allow-all-tools --available-tools bash --no-auto-update',
  ['COPILOT_OFFLINE=1', 'COPILOT_PROVIDER_TYPE=openai', 'COPILOT_PROVIDER_BASE_URL=${BASE_URL}', 'COPILOT_PROVIDER_API_KEY=${API_KEY}', 'COPILOT_MODEL=${MODEL}'],
  copilotShell('openai-chat'),
);

/**
 * Kilo Code CLI (an OpenCode fork: the same configuration under KILO_* variables): its linux-x64
 * program in ACP mode (`kilo acp`), the configuration the opencode adapter writes, its cloud
 * features (session ingest, share, models fetch, update) off.
 */
const KILO_VERSION = '7.7.9';
const kiloAcp = bashProgram(`@kilocode/cli-linux-x64@${KILO_VERSION}`, 'kilo acp --pure', [
  `KILO_CONFIG_CONTENT=${OPENCODE_CONFIG}`,
  `${KEY_VARIABLE}=\${API_KEY}`,
  ...['MODELS_FETCH', 'AUTOUPDATE', 'LSP_DOWNLOAD', 'DEFAULT_PLUGINS', 'SHARE', 'SESSION_INGEST', 'CODEBASE_INDEXING', 'CLAUDE_CODE', 'EXTERNAL_SKILLS', 'PROJECT_CONFIG'].map((k) => `KILO_DISABLE_${k}=1`),
]);

type Step = { turn: number; step: string; title?: string; input?: unknown; output?: string; status?: string; text?: string };
const stepsOf = (dir: string): Step[] => readFileSync(join(dir, 'agent-trace', 'acp-steps.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Step);

/**
 * A program's single-turn sample: PASS under its version, only `bash` offered (by every request,
 * or by every request that offers tools at all), the checkout command and its output in its steps.
 */
function expectSingleSample(run: DrivenRun, version: string, bashOnly: 'every' | 'with-tools'): void {
  const [r] = readResults(run.dir);
  expect([r!.status, r!.error ?? null], `${run.err}\n${run.dir}`).toEqual(['pass', null]);
  expect(r!.agent).toEqual({ name: 'acp', version });
  const offered = run.fake.requests.map((q) => (q.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((t) => t.function.name));
  const judged = bashOnly === 'every' ? offered : offered.filter((t) => t?.length);
  expect(judged.length).toBeGreaterThan(0);
  for (const t of judged) expect(t).toEqual(['bash']);
  const dir = scenarioDirs(run.dir).values().next().value!;
  const checkout = stepsOf(dir).find((s) => s.step === 'tool' && JSON.stringify(s).includes('shopping checkout'));
  expect(checkout, JSON.stringify(stepsOf(dir))).toMatchObject({ status: 'completed', output: expect.stringMatching(/order_id/) });
}

describeAgentSuite(
  opencodeAcp,
  { tools: { exactly: ['bash'] }, keyHeader: 'authorization' },
  {
    extra: async (env) => ({ gemini: await runSingleSample(image, geminiAcp, env), copilot: await runSingleSample(image, copilotAcp, env), kilo: await runSingleSample(image, kiloAcp, env) }) as Record<string, DrivenRun>,
    tests: (suite) => {
      it('OpenCode as acp: one program and one ACP session played each sample, every turn one prompt', () => {
        expectOneStartPerSample(suite().good.dir, 'acp');
      });

      it("OpenCode's ACP updates are the run's steps: each command with its output, the agent's messages", () => {
        const dirs = scenarioDirs(suite().good.dir);
        const single = stepsOf(dirs.get(SAMPLES.single.split('/')[1]!)!);
        const checkout = single.find((s) => s.step === 'tool' && JSON.stringify(s.input).includes('shopping checkout'));
        expect(checkout, JSON.stringify(single)).toMatchObject({ turn: 1, status: 'completed', output: expect.stringMatching(/order_id/) });
        expect(single.some((s) => s.step === 'message' && s.text!.trim() !== '')).toBe(true);
        const multi = stepsOf(dirs.get(SAMPLES.multi.split('/')[1]!)!);
        expect(new Set(multi.map((s) => s.turn))).toEqual(new Set([1, 2]));
        // the record of what was started names the variables, never their values (the key)
        const program = readFileSync(join(dirs.get(SAMPLES.single.split('/')[1]!)!, 'agent-trace', 'acp-program.json'), 'utf8');
        expect(JSON.parse(program)).toMatchObject({ package: opencodeAcp.options!.package, command: 'opencode acp --pure' });
      });

      it('Gemini CLI as acp (its layer built by the CLI, ACP authenticate): the single-turn sample PASS, its commands in its steps', () => {
        const run = suite().extra.gemini!;
        const [r] = readResults(run.dir);
        expect([r!.status, r!.error ?? null], `${run.err}\n${run.dir}`).toEqual(['pass', null]);
        expect(r!.agent).toEqual({ name: 'acp', version: geminiCli.package.version });
        const dir = scenarioDirs(run.dir).values().next().value!;
        expect(readFileSync(join(dir, 'agent-trace', 'serve-1.acp.jsonl'), 'utf8')).toContain('"method":"authenticate","params":{"methodId":"gemini-api-key"}');
        const checkout = stepsOf(dir).find((s) => s.step === 'tool' && JSON.stringify(s).includes('shopping checkout'));
        expect(checkout, JSON.stringify(stepsOf(dir))).toMatchObject({ status: 'completed', output: expect.stringMatching(/order_id/) });
      });

      it('GitHub Copilot CLI as acp (offline, its provider variables on the gateway, bash only): the single-turn sample PASS, its commands in its steps', () => {
        // every model request offered bash and nothing else
        expectSingleSample(suite().extra.copilot!, COPILOT_VERSION, 'every');
      });

      it('Kilo Code CLI as acp (the OpenCode configuration under KILO_CONFIG_CONTENT, bash only): the single-turn sample PASS, its commands in its steps', () => {
        // every request that offered tools offered bash and nothing else (a session title request offers none)
        expectSingleSample(suite().extra.kilo!, KILO_VERSION, 'with-tools');
      });
    },
  },
);
