#!/usr/bin/env bash
# Sets up a container engine that serves the Docker Engine API on this kind of machine
# (Debian, root, no Docker daemon, no registry). Idempotent: safe to run every time.
# A remote DOCKER_HOST (anything but unix://) is left alone.
#   - installs podman + runc (+ debootstrap for the offline base image) when missing
#   - runc instead of crun (crun fails here: "cgroups in hybrid mode not supported")
#   - default ulimits the sandbox allows (raising rlimits is not permitted here)
#   - starts `podman system service` on /run/podman/podman.sock when nothing answers
set -euo pipefail

SOCK=${GAIA2_PODMAN_SOCK:-/run/podman/podman.sock}

dh=${DOCKER_HOST:-}
# A remote engine (tcp://, ssh://, …) is the user's: nothing to install or start here. The
# runner checks it when it connects (and says what is wrong with the value).
if [ -n "$dh" ] && [ "${dh#unix://}" = "$dh" ]; then
  echo "setup-engine: DOCKER_HOST=$(printf %s "$dh" | sed -E 's#//[^@/]*@#//…@#') names a remote engine; leaving it alone (check it with: gaia2-runner doctor)"
  exit 0
fi

# An engine that already answers (Docker, or a podman service) is all we need.
for s in "${dh#unix://}" /var/run/docker.sock "$SOCK"; do
  if [ -n "$s" ] && [ -S "$s" ] && curl -sf --max-time 2 --unix-socket "$s" http://d/_ping >/dev/null 2>&1; then
    echo "setup-engine: engine API answers on unix://$s"
    exit 0
  fi
done

need_install=()
command -v podman >/dev/null || need_install+=(podman)
command -v runc >/dev/null || need_install+=(runc)
command -v debootstrap >/dev/null || need_install+=(debootstrap)
if [ ${#need_install[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "setup-engine: missing ${need_install[*]}. Install podman (or Docker) and re-run;" >&2
    echo "  on Debian/Ubuntu as root this script does it: sudo bash scripts/setup-engine.sh" >&2
    exit 1
  fi
  echo "setup-engine: installing ${need_install[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_install[@]}" >/dev/null
fi

if [ "$(id -u)" = 0 ]; then
  conf=/etc/containers/containers.conf
  mkdir -p /etc/containers
  if ! grep -q 'gaia2-runner engine settings' "$conf" 2>/dev/null; then
    cat >>"$conf" <<'CONF'

# gaia2-runner engine settings (scripts/setup-engine.sh)
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]

[engine]
runtime = "runc"
CONF
  fi
fi

if curl -sf --max-time 2 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; then
  echo "setup-engine: engine API answers on unix://$SOCK"
  exit 0
fi
mkdir -p "$(dirname "$SOCK")"
rm -f "$SOCK"
nohup podman system service --time=0 "unix://$SOCK" >/tmp/podman-service.log 2>&1 &
for _ in $(seq 1 50); do
  if curl -sf --max-time 1 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; then
    echo "setup-engine: started podman API service on unix://$SOCK"
    exit 0
  fi
  sleep 0.2
done
echo "setup-engine: podman API service did not answer on $SOCK (see /tmp/podman-service.log)" >&2
exit 1
