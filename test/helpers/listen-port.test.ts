import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { listenOutsideEphemeral } from './listen-port.js';

describe('listenOutsideEphemeral', () => {
  it("listens below the kernel's ephemeral range, where podman picks the host ports it publishes", async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const servers = Array.from({ length: 20 }, () => createServer());
    try {
      for (const s of servers) await listenOutsideEphemeral(s, '127.0.0.1');
      const ports = servers.map((s) => (s.address() as AddressInfo).port);
      for (const p of ports) expect(p).toBeGreaterThanOrEqual(10_000), expect(p).toBeLessThan(low);
      expect(new Set(ports).size).toBe(ports.length);
    } finally {
      for (const s of servers) s.close();
    }
  });

  it('draws again when the port it drew is held', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const held = createServer();
    await listenOutsideEphemeral(held, '127.0.0.1');
    const heldPort = (held.address() as AddressInfo).port;
    // The first draw lands on the held port.
    vi.spyOn(Math, 'random').mockReturnValueOnce((heldPort - 10_000 + 0.5) / (low - 10_000));
    const other = createServer();
    try {
      await listenOutsideEphemeral(other, '127.0.0.1');
      expect(Math.random).toHaveBeenCalledTimes(2);
      expect((other.address() as AddressInfo).port).not.toBe((held.address() as AddressInfo).port);
    } finally {
      vi.restoreAllMocks();
      held.close();
      other.close();
    }
  });
});
