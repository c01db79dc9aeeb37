#!/bin/bash
# Image build step (root, after dist/image → /opt/gaia2 and rootfs → /): users, CLI links,
# permissions. See agent-image/rootfs/opt/gaia2-init-entrypoint.sh for the run-time layout.
set -euo pipefail

CLIS=(calendar contacts emails messages chats rent-a-flat cabs city shopping cloud-drive)

# gaia2 owns the world (state, scenario, daemon); agent runs the agent runtime.
id gaia2 >/dev/null 2>&1 || useradd --system --home-dir /var/gaia2 --no-create-home --shell /usr/sbin/nologin gaia2
id agent >/dev/null 2>&1 || useradd --uid 1000 --create-home --home-dir /home/agent --shell /bin/bash agent

mkdir -p /var/gaia2/state /run/gaia2 /home/agent/bin
chown gaia2:gaia2 /var/gaia2 /var/gaia2/state /run/gaia2
chmod 700 /var/gaia2 /var/gaia2/state
chmod 755 /run/gaia2
# The daemon's log and the simulated-clock file, ready for the entrypoint's builtin-only path.
install -o gaia2 -g gaia2 -m 600 /dev/null /tmp/gaia2-eventd.log
install -o gaia2 -g gaia2 -m 644 /dev/null /tmp/faketime.rc

chmod 755 /usr/local/lib/gaia2/gaia2-cli /usr/local/lib/gaia2/simclock-exec /opt/gaia2-init-entrypoint.sh
# The clock preload (put in /etc/ld.so.preload as the image's last build step) is read by every process.
chmod 644 /usr/local/lib/gaia2/libgaia2clock.so
for c in "${CLIS[@]}"; do
  ln -sf /usr/local/lib/gaia2/gaia2-cli "/usr/local/bin/$c"
  ln -sf /usr/local/lib/gaia2/gaia2-cli "/home/agent/bin/$c"
done
chown -R agent:agent /home/agent

# The world daemon starts from a V8 startup snapshot of its bundle: its modules are loaded
# and compiled here, once, instead of in every container (~20–30 ms of each boot). It must be
# built by the node binary that runs it, so it is built in the image. gaia2d.cjs stays as the
# fallback the entrypoint uses when the blob is missing.
node --snapshot-blob /opt/gaia2/gaia2d.blob --build-snapshot /opt/gaia2/gaia2d.cjs

# Bundled JS is read-only for everyone but root.
chmod -R a+rX,go-w /opt/gaia2
