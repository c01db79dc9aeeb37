// SSH engines publish on their own loopback: the runner reaches a port through a local
// listener that forwards over the SSH connection, closed with the container.
import type { Reach } from '../reach.js';
import type { SshConnection } from './ssh-connection.js';

export function sshReach(ssh: SshConnection): Reach {
  return async (host, port) => {
    const forward = await ssh.localForward(host, port);
    return { endpoint: { url: `http://127.0.0.1:${forward.port}`, accepting: () => ssh.accepts(host, port) }, close: forward.close };
  };
}
