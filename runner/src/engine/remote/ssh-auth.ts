// Which key and which known_hosts file an ssh:// engine connection uses. The runner speaks SSH
// itself (ssh2), so it does not read ~/.ssh/config: a key comes from GAIA2_SSH_IDENTITY, else
// ssh-agent (SSH_AUTH_SOCK), else the usual ~/.ssh/id_* files.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../plan/errors.js';

export interface SshAuth {
  /** A private key file (its path is for messages; the key itself never is). */
  identity?: { path: string; key: Buffer };
  /** ssh-agent socket. */
  agent?: string;
  knownHostsPath: string;
  /** How the key was found, for messages. */
  tried: string;
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

export function sshAuthFrom(env: NodeJS.ProcessEnv, display: string): SshAuth {
  const home = env.HOME || homedir();
  const knownHostsPath = env.GAIA2_SSH_KNOWN_HOSTS?.trim() || join(home, '.ssh', 'known_hosts');
  const explicit = env.GAIA2_SSH_IDENTITY?.trim();
  if (explicit) {
    if (!existsSync(explicit)) throw new ConfigError(`GAIA2_SSH_IDENTITY=${explicit} does not exist (the private key for DOCKER_HOST=${display})`);
    return { identity: { path: explicit, key: readFileSync(explicit) }, knownHostsPath, tried: `GAIA2_SSH_IDENTITY=${explicit}` };
  }
  const agent = env.SSH_AUTH_SOCK?.trim();
  if (agent) return { agent, knownHostsPath, tried: `ssh-agent (SSH_AUTH_SOCK)` };
  for (const name of DEFAULT_KEYS) {
    const path = join(home, '.ssh', name);
    if (existsSync(path)) return { identity: { path, key: readFileSync(path) }, knownHostsPath, tried: path };
  }
  throw new ConfigError(
    `DOCKER_HOST=${display} needs an SSH key: set GAIA2_SSH_IDENTITY to a private key file, start ssh-agent (SSH_AUTH_SOCK), ` +
      `or create ~/.ssh/${DEFAULT_KEYS[0]}`,
  );
}
