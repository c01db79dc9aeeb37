// Connects to the engine a remote DOCKER_HOST names: settings checked first (ConfigError,
// nothing dialed), then a TCP connect with a short deadline (an unreachable host fails in
// under two seconds), then the engine's own ping over plain HTTP, TLS or SSH.
import type { Agent } from 'node:http';
import https from 'node:https';
import type { DockerOptions } from 'dockerode';
import { EngineError } from '../errors.js';
import { parseRemoteDockerHost, type RemoteTarget } from './docker-host.js';
import { RemoteDockerEngine } from './remote-engine.js';
import { sshAuthFrom } from './ssh-auth.js';
import { CONNECT_TIMEOUT_MS, connectWithin, resolveHost } from './tcp-reach.js';
import { withDeadline } from '../../net/deadline.js';

export async function connectRemoteEngine(value: string, env: NodeJS.ProcessEnv): Promise<RemoteDockerEngine> {
  const target = parseRemoteDockerHost(value, env);
  const source = `DOCKER_HOST=${target.display}`;
  // Read before anything is dialed, so a missing key is a settings error, not a network one.
  const auth = target.kind === 'ssh' ? sshAuthFrom(env, target.display) : null;
  let ip: string;
  try {
    ip = await withDeadline(resolveHost(target.host), CONNECT_TIMEOUT_MS);
  } catch (e) {
    throw new EngineError('engine_unavailable', `${source}: cannot resolve ${target.host} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let engine: RemoteDockerEngine;
  if (target.kind === 'ssh') {
    // ssh2 is loaded only when an ssh:// engine is used (a local runner never needs it).
    const { SshConnection } = await import('./ssh-connection.js');
    const ssh = await SshConnection.open({ ...target, host: ip }, auth!, CONNECT_TIMEOUT_MS);
    const modem: ModemOptions = { host: ip, port: target.port, protocol: 'http', agent: ssh.httpAgent(), ...noEnvTls };
    engine = new RemoteDockerEngine(target, { modem, source, publishIp: '127.0.0.1' }, ip, ssh);
  } else {
    (await connectWithin(ip, target.port, CONNECT_TIMEOUT_MS, source)).destroy();
    engine = new RemoteDockerEngine(target, { modem: tcpModem(target, ip), source, publishIp: ip }, ip, null);
  }
  try {
    await engine.ping();
  } catch (e) {
    await engine.close();
    throw e;
  }
  return engine;
}

/** docker-modem takes an http(s).Agent (its typings omit it). */
type ModemOptions = DockerOptions & { agent?: Agent };

/**
 * docker-modem fills unset options from DOCKER_CERT_PATH and friends on its own (and would
 * turn https on by the port number); every TLS setting is given explicitly instead.
 */
const noEnvTls = { ca: undefined, cert: undefined, key: undefined } as const;

function tcpModem(target: Extract<RemoteTarget, { kind: 'tcp' }>, ip: string): ModemOptions {
  const tls = target.tls;
  if (!tls) return { host: ip, port: target.port, protocol: 'http', ...noEnvTls };
  const agent = new https.Agent({
    keepAlive: true,
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}),
    rejectUnauthorized: tls.verify,
  });
  return { host: target.host, port: target.port, protocol: 'https', agent, ...noEnvTls };
}
