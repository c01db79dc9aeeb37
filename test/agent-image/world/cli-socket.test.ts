// The app CLI thin client (rootfs bash + curl) against the daemon's CLI socket: same stdout,
// stderr and exit code as the in-process command, actions logged by the daemon only, no way
// to pass an event id. (Call latency is measured in bench/daemon.mjs.)
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeWorld, type ComposedWorld } from '../../../agent-image/src/main/compose/compose-world.js';
import { serveCliSocket, encodeStderr } from '../../../agent-image/src/world/sockets.js';
import { parseLog, readGolden } from './golden.js';
import { tempStateDir, testSettings } from './run-world.js';

const run = promisify(execFile);
const CLIENT = join(import.meta.dirname, '../../../agent-image/rootfs/usr/local/lib/gaia2/gaia2-cli');

let composed: ComposedWorld;
let server: http.Server;
let binDir: string;
let sock: string;
let stateDir: string;

async function cli(argv: string[], extraEnv: Record<string, string> = {}) {
  try {
    const r = await run(join(binDir, argv[0]!), argv.slice(1), { env: { PATH: '/usr/bin:/bin', GAIA2_CLI_SOCKET: sock, ...extraEnv } });
    return { stdout: r.stdout, stderr: r.stderr, code: 0 };
  } catch (e) {
    const x = e as { stdout: string; stderr: string; code: number };
    return { stdout: x.stdout, stderr: x.stderr, code: x.code };
  }
}

beforeAll(async () => {
  stateDir = tempStateDir();
  composed = await composeWorld({
    scenario: readGolden('scenarios/execution/exec_shopping_bottle_order.json'),
    stateDir,
    settings: testSettings({ agent: 'scripted' }),
  });
  binDir = mkdtempSync(join(tmpdir(), 'gaia2-bin-'));
  for (const c of ['shopping', 'calendar']) symlinkSync(CLIENT, join(binDir, c));
  sock = join(binDir, 'cli.sock');
  server = await serveCliSocket(composed.world, sock, new Set(composed.tools));
});

afterAll(() => {
  server?.close();
});

describe('CLI thin client over the daemon socket', () => {
  it('prints what the in-process command prints (read)', async () => {
    const viaSocket = await cli(['shopping', 'list-all-products', '--limit', '2']);
    const direct = await composed.world.agentCli(['shopping', 'list-all-products', '--limit', '2']);
    expect(viaSocket.code).toBe(0);
    expect(viaSocket.stdout).toBe(direct.stdout);
    expect(viaSocket.stdout).toContain('"products"');
    expect(viaSocket.stderr).toBe('');
  });

  it('reproduces usage errors (exit 2) and app errors (exit 1) byte for byte', async () => {
    const usage = await cli(['shopping', 'add-to-cart', '--bogus', 'x%y\\z é']);
    const direct = await composed.world.agentCli(['shopping', 'add-to-cart', '--bogus', 'x%y\\z é']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(direct.stderr);
    expect(usage.stderr).toContain('Usage:');
    const missing = await cli(['shopping', 'get-product-details', '--product-id', 'prod-404']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Product does not exist');
  });

  it('hides CLIs of apps the scenario does not have', async () => {
    const r = await cli(['calendar', 'list-events']);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('command not found');
  });

  it('logs writes as agent actions; GAIA2_EVENT_ID in the client environment is ignored', async () => {
    const before = parseLog(readFileSync(join(stateDir, 'events.jsonl'), 'utf8')).length;
    const r = await cli(['shopping', 'add-to-cart', '--item-id', 'ececbe590b923620bc5384dc4ef7bd0e', '--quantity', '1'], {
      GAIA2_EVENT_ID: 'Event-ENV-forged',
      GAIA2_STATE_DIR: '/tmp/elsewhere',
    });
    expect(r.code).toBe(0);
    const lines = parseLog(readFileSync(join(stateDir, 'events.jsonl'), 'utf8'));
    expect(lines.length).toBe(before + 1);
    const last = lines[lines.length - 1]!;
    expect(last.fn).toBe('add_to_cart');
    expect(last.event_id).toBeUndefined();
    expect(last.sim_t).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('percent-encodes every byte outside [A-Za-z0-9_.-]', () => {
    expect(encodeStderr('a b%\n')).toBe('a%20b%25%0A');
    expect(encodeStderr('é')).toBe('%C3%A9');
  });
});
