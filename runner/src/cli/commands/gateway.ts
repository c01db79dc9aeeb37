// `gaia2-runner gateway`: the run's model gateway on its own, for an agent run by hand or a
// harness of your own. It serves one provider endpoint, prints the base URL and a token to give
// the client (never the key), records the traffic in --record-dir and stops on Ctrl-C.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { addGatewayOptions, gatewayFlagValues, type GatewayFlags } from '../../config/gateway-flags.js';
import { kindOf, knownGatewayProviders } from '../../gateway/api-kinds.js';
import { registerSecret } from '../../secrets/redact.js';
import { UsageError } from '../errors.js';

interface Flags extends GatewayFlags {
  provider: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  host: string;
  port: string;
  recordDir?: string;
}

export function register(program: Command): void {
  addGatewayOptions(
    program
      .command('gateway')
      .description('run the model gateway on its own: one provider endpoint, a token for the client, limits, retries, a traffic record (docs/gateway.md)')
      .requiredOption('--provider <name>', `provider (${knownGatewayProviders().join(', ')})`)
      .option('--base-url <url>', "the provider's base URL (default: the provider's public API)")
      .option('--api-key-env <VAR>', "variable holding the provider's key (default: the provider's usual variable, then API_KEY)")
      .option('--host <addr>', 'address to listen on', '127.0.0.1')
      .option('--port <n>', 'port (0: any free port)', '0')
      .option('--record-dir <dir>', 'write the traffic record (model_traffic.jsonl) here'),
  )
    .addHelpText('after', '\nExample:\n  $ gaia2-runner gateway --provider anthropic --record-dir traffic/ --max-concurrent-requests 4')
    .action(async (f: Flags) => {
      const spec = kindOf(f.provider, f.baseUrl ?? null);
      if (!spec) throw new UsageError(`--provider: the gateway does not know "${f.provider}" (known: ${knownGatewayProviders().join(', ')})`);
      const base = f.baseUrl ?? spec.defaultBase;
      if (!base) throw new UsageError(`--provider ${f.provider} needs --base-url`);
      const port = Number(f.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer 0-65535, got "${f.port}"`);
      // The gateway's code (HTTP client, schemas, prices) loads only when it runs.
      const [{ resolveGateway }, { lookupProviderKey }, { replayFrom, startGateway }, { loadPriceTable }] = await Promise.all([
        import('../../config/gateway.js'), import('../../env/providers.js'), import('../../gateway/index.js'), import('../../tokens/index.js'),
      ]);
      const key = f.apiKeyEnv ? process.env[f.apiKeyEnv]?.trim() || null : (lookupProviderKey(f.provider, process.env)?.value ?? null);
      if (f.apiKeyEnv && !key) throw new UsageError(`--api-key-env: ${f.apiKeyEnv} is not set`);
      registerSecret(key);
      const plan = resolveGateway({ flags: gatewayFlagValues(f), path: (raw) => resolve(raw) });
      const id = f.provider.toLowerCase();
      const gw = await startGateway({
        upstreams: [{ id, provider: f.provider, spec, base, key }],
        plan,
        prices: loadPriceTable(),
        replay: plan.replay ? replayFrom(plan.replay) : null,
        listenHost: f.host,
        port,
        log: (l) => process.stderr.write(`${l}\n`),
      });
      const dir = f.recordDir ? resolve(f.recordDir) : null;
      const token = gw.tokens.issue({ runId: 'standalone', container: 'client', role: 'agent', upstream: id, dir, scenario: 'standalone', runIndex: null, recordKey: '.' });
      process.stdout.write(`BASE_URL=${gw.baseUrl(id)}\nAPI_KEY=${token}\n`);
      process.stderr.write(`Model gateway for ${f.provider} (${base}) on ${f.host}:${gw.port}${dir ? `, recording to ${dir}` : ''}; Ctrl-C to stop\n`);
      await new Promise<void>((done) => {
        const stop = (): void => {
          const s = gw.stats();
          process.stderr.write(`requests=${s.requests} throttled=${s.throttled} retried=${s.retried} gave_up=${s.gave_up} refused=${s.refused}\n`);
          void gw.close().then(done);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
