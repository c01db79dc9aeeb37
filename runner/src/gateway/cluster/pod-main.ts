// The in-cluster gateway's process: the same gateway server the runner runs on its own
// machine (../server.ts), started inside a Pod of the run's namespace from the bundle the
// image carries (GATEWAY_BUNDLE). It reads its configuration (keys included) from the mounted
// Secret, serves scenario Pods on SERVE_PORT through the run's Service, and answers the
// runner's admin calls on ADMIN_PORT (pod proxy only, admin token required). Records are kept
// per container on the Pod's disk until the runner takes them when the container's run ends.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { registerSecret, redact } from '../../secrets/redact.js';
import { kindOf } from '../api-kinds.js';
import { replayOf } from '../replay.js';
import { startGateway } from '../server.js';
import { SpendBook } from '../spend.js';
import { TRAFFIC_FILE } from '../record.js';
import { startAdmin } from './pod-admin.js';
import { ADMIN_PORT, CONFIG_DIR, CONFIG_KEY, SERVE_PORT, type PodGatewayConfig } from './protocol.js';

const RECORDS = process.env.GAIA2_GATEWAY_RECORDS ?? '/tmp/gaia2-gateway/records';
const log = (l: string) => console.log(redact(l));

async function main(): Promise<void> {
  const file = join(process.env.GAIA2_GATEWAY_CONFIG_DIR ?? CONFIG_DIR, CONFIG_KEY);
  const config = JSON.parse(readFileSync(file, 'utf8')) as PodGatewayConfig;
  for (const u of config.upstreams) registerSecret(u.key);
  registerSecret(config.adminToken);
  const upstreams = config.upstreams.map((u) => {
    const spec = kindOf(u.provider, u.base);
    if (!spec) throw new Error(`${file}: provider "${u.provider}" is not one the gateway knows`);
    return { ...u, spec };
  });
  /** recordKey → the recorded traffic handed over with a container's registration (replay). */
  const replayRecords = new Map<string, string>();
  const replay = config.replay ? replayOf((k) => replayRecords.get(k) ?? null, (k) => `the record of ${k} (replayed run)`) : null;
  const spend = config.budget ? new SpendBook(config.budget) : null;
  const gateway = await startGateway({
    upstreams,
    plan: config.plan,
    prices: config.prices,
    replay,
    spend,
    listenHost: '0.0.0.0',
    port: Number(process.env.GAIA2_GATEWAY_PORT ?? SERVE_PORT),
    ...(config.backoff ? { backoff: config.backoff } : {}),
    log,
  });
  let n = 0;
  const dirs = new Map<string, string>();
  /** container → its record's key: a replayed record leaves memory when its container ends */
  const recordKeys = new Map<string, string>();
  const admin = await startAdmin({
    adminToken: config.adminToken,
    port: Number(process.env.GAIA2_GATEWAY_ADMIN_PORT ?? ADMIN_PORT),
    async register(body) {
      for (const { token, grant } of body.tokens) {
        let dir = dirs.get(grant.container);
        if (!dir) dirs.set(grant.container, (dir = join(RECORDS, String(++n))));
        gateway.tokens.register(token, { ...grant, dir });
        recordKeys.set(grant.container, grant.recordKey);
        if (body.replayRecord != null) replayRecords.set(grant.recordKey, body.replayRecord);
      }
    },
    async finish({ container }) {
      gateway.tokens.revoke(container);
      await gateway.endRun(container);
      const key = recordKeys.get(container);
      recordKeys.delete(container);
      if (key !== undefined) {
        replayRecords.delete(key);
        replay?.forget(key);
      }
      await gateway.recorder.flush();
      spend?.forget(container);
      const dir = dirs.get(container);
      dirs.delete(container);
      let record = '';
      if (dir) {
        record = await readFile(join(dir, TRAFFIC_FILE), 'utf8').catch(() => '');
        await rm(dir, { recursive: true, force: true });
      }
      return { record, failure: gateway.failureOf(container), stats: gateway.stats() };
    },
    stats: () => gateway.stats(),
    ...(spend ? { spend: () => ({ run: spend.runOver(), containers: spend.overContainers() }) } : {}),
  });
  await mkdir(RECORDS, { recursive: true });
  log(`model gateway in the cluster: serving on :${gateway.port}, admin on :${admin.port}; ${upstreams.map((u) => u.provider).join(', ')}${config.replay ? ' (replay)' : ''}`);
  const stop = () => {
    void Promise.all([gateway.close(), admin.close()]).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  console.error(redact(`model gateway: ${(e as Error).stack ?? String(e)}`));
  process.exit(1);
});
