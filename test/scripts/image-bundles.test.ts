// The world daemon's startup snapshot (scripts/image-bundles.mjs, agent-image/setup.sh), built
// and started here with the host's node: a daemon restored from the snapshot reads the
// environment it is started with (not the builder's) and plays a scenario to the end; module
// code that reads process.env while the snapshot is built fails the build, naming the variable.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
// @ts-expect-error plain ESM build script without types
import { buildImageBundle, DAEMON_ENTRY, SNAPSHOT_ENV_ERROR } from '../../scripts/image-bundles.mjs';
import { GOLDEN } from '../agent-image/world/golden.js';

const ROOT = join(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'gaia2-snapshot-'));
const bundle = join(out, `${DAEMON_ENTRY}.cjs`);
const blob = join(out, `${DAEMON_ENTRY}.blob`);
const kids: ReturnType<typeof spawn>[] = [];

const buildSnapshot = (script: string, target: string) =>
  spawnSync(process.execPath, ['--snapshot-blob', target, '--build-snapshot', script], { cwd: out, encoding: 'utf8', env: { PATH: process.env.PATH } });

/** Starts the daemon (from the snapshot or the plain bundle) on an oracle scenario; its final status. */
async function playOracle(args: string[]): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'gaia2-snapshot-run-'));
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH,
      GAIA2_SCENARIO: join(GOLDEN, 'scenarios/search/search_email_flight_code.json'),
      GAIA2_STATE_DIR: dir,
      GAIA2_ADAPTER_PORT: String(port),
      GAIA2_AGENT: 'oracle',
      GAIA2_CLI_SOCKET: join(dir, 'cli.sock'),
      GAIA2_FAKETIME_FILE: join(dir, 'faketime.rc'),
      GAIA2_JUDGE_FINAL_TURN: '1',
    },
    stdio: 'ignore',
  });
  kids.push(child);
  const end = Date.now() + 30_000;
  for (;;) {
    const st = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.json() as Promise<Record<string, unknown>>, () => null);
    if (st && ['complete', 'failed', 'error'].includes(String(st.status))) {
      // the status file is in the state directory this process was given
      expect(JSON.parse(readFileSync(join(dir, 'daemon_status.json'), 'utf8')).status).toBe(st.status);
      return st;
    }
    if (Date.now() > end) throw new Error(`daemon ${args.join(' ')} did not finish`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  await buildImageBundle(DAEMON_ENTRY, join(ROOT, 'agent-image/src/main', `${DAEMON_ENTRY}.ts`), out);
}, 60_000);
afterAll(() => {
  for (const k of kids) k.kill('SIGKILL');
});

describe('the world daemon as a startup snapshot', () => {
  it('builds, and a daemon restored from it reads its own environment and plays a scenario to the end', async () => {
    const r = buildSnapshot(bundle, blob);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const st = await playOracle(['--snapshot-blob', blob]);
    expect(st).toMatchObject({ status: 'complete', judgment: { success: true }, agent: 'oracle' });
  }, 60_000);

  it('the plain bundle (no snapshot) runs the same scenario the same way', async () => {
    const st = await playOracle([bundle]);
    expect(st).toMatchObject({ status: 'complete', judgment: { success: true }, agent: 'oracle' });
  }, 60_000);

  it('module code that reads process.env while the snapshot is built fails the build, naming the variable', () => {
    const text = readFileSync(bundle, 'utf8');
    const firstLine = text.indexOf('\n') + 1;
    const bad = join(out, 'reads-env.cjs');
    writeFileSync(bad, `${text.slice(0, firstLine)}const __home = process.env.GAIA2_STATE_DIR;\n${text.slice(firstLine)}`);
    const r = buildSnapshot(bad, join(out, 'bad.blob'));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`process.env.GAIA2_STATE_DIR ${SNAPSHOT_ENV_ERROR}`);
  }, 60_000);
});
