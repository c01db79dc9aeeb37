// The model gateway's command-line flags, shared by run, run-dataset and run-config (where
// they replace the TOML's [gateway] and [limits] values).
import type { Command } from 'commander';
import { ConfigError } from '../plan/errors.js';
import type { GatewayInputs } from './gateway.js';
import type { ConfigFileData } from './toml-schema.js';

export interface GatewayFlags {
  /** true: --gateway, false: --no-gateway, undefined: neither. */
  gateway?: boolean;
  replay?: string;
  maxConcurrentRequests?: string;
  requestsPerMinute?: string;
  tokensPerMinute?: string;
}

export function addGatewayOptions(cmd: Command): Command {
  return cmd
    .option('--gateway', 'send all model traffic through the run\'s model gateway (the default for our image on local and remote engines; docs/gateway.md)')
    .option('--no-gateway', 'direct mode: each container gets the provider key itself, as the reference runs it')
    .option('--replay <run-dir>', 'answer every model request from a finished run\'s traffic record (no provider is called)')
    .option('--max-concurrent-requests <n>', 'gateway: requests in flight per provider at most (more wait in a queue)')
    .option('--requests-per-minute <n>', 'gateway: requests started per provider per minute at most')
    .option('--tokens-per-minute <n>', 'gateway: tokens (input + output) per provider per minute at most');
}

function posInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim()) || Number(v) < 1) throw new ConfigError(`${flag} must be a positive integer (got ${JSON.stringify(v)})`);
  return Number(v);
}

export function gatewayFlagValues(f: GatewayFlags): NonNullable<GatewayInputs['flags']> {
  return {
    ...(f.gateway !== undefined ? { enabled: f.gateway } : {}),
    ...(f.replay ? { replay: f.replay } : {}),
    ...(f.maxConcurrentRequests !== undefined ? { maxConcurrent: posInt(f.maxConcurrentRequests, '--max-concurrent-requests')! } : {}),
    ...(f.requestsPerMinute !== undefined ? { rpm: posInt(f.requestsPerMinute, '--requests-per-minute')! } : {}),
    ...(f.tokensPerMinute !== undefined ? { tpm: posInt(f.tokensPerMinute, '--tokens-per-minute')! } : {}),
  };
}

/** A run-config patch: the flags replace the file's [gateway] / [limits] values. */
export function withGatewayFlags(f: GatewayFlags): (data: ConfigFileData) => ConfigFileData {
  const v = gatewayFlagValues(f);
  return (data) => ({
    ...data,
    gateway: { ...data.gateway, ...(v.enabled !== undefined ? { enabled: v.enabled } : {}), ...(v.replay ? { replay: v.replay } : {}) },
    limits: ({
      ...data.limits,
      ...(v.maxConcurrent !== undefined ? { max_concurrent: v.maxConcurrent } : {}),
      ...(v.rpm !== undefined ? { requests_per_minute: v.rpm } : {}),
      ...(v.tpm !== undefined ? { tokens_per_minute: v.tpm } : {}),
    }) as ConfigFileData['limits'],
  });
}
