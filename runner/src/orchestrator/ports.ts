// Adapter ports for host networking, where every container needs its own. Drawn when a
// task starts (not at submission), unique within this invocation (spec §7.2 semantics).
import { createServer } from 'node:net';

export const PORT_ALLOCATION_ATTEMPTS = 1000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function allocatePort(reserved: Set<number>, draw: () => Promise<number> = freePort, attempts = PORT_ALLOCATION_ATTEMPTS): Promise<number> {
  for (let i = 0; i < attempts; i++) {
    const p = await draw();
    if (!reserved.has(p)) {
      reserved.add(p);
      return p;
    }
  }
  throw new Error('Unable to allocate a unique free port');
}
