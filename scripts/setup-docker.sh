#!/usr/bin/env bash
# A private Docker Engine for the test suite and CI, next to podman (Debian, root):
#   scripts/setup-docker.sh start    installs Debian's docker.io when dockerd is missing, then
#                                    starts dockerd on its own socket, with its own bridge and a
#                                    data root created EMPTY (no base image, no cache: the suite
#                                    proves the fresh-machine path on it); prints DOCKER_HOST=…
#   scripts/setup-docker.sh stop     stops that dockerd by its PID, removes its bridge, restores
#                                    the FORWARD policy it changed, deletes its data root
#   scripts/setup-docker.sh status   exits 0 when the private dockerd answers
#   scripts/setup-docker.sh restart  stops the running dockerd as a service manager does
#                                    (SIGTERM: it stops its containers) and starts it again
#                                    with the same command line, data root kept: the fault of
#                                    test/e2e/dockerd-restart.test.ts (a routine upgrade)
# Idempotent: `start` on a running instance first stops it (so every start is from nothing).
# Settings (environment): GAIA2_DOCKER_RUN (socket, pid, exec root; default /run/gaia2-docker),
# GAIA2_DOCKER_DATA (data root; default /var/lib/gaia2-docker), GAIA2_DOCKER_BRIDGE (default
# gaia2-docker0), GAIA2_DOCKER_CIDR (the bridge's address; default 10.213.0.1/24).
set -euo pipefail

RUN=${GAIA2_DOCKER_RUN:-/run/gaia2-docker}
DATA=${GAIA2_DOCKER_DATA:-/var/lib/gaia2-docker}
BRIDGE=${GAIA2_DOCKER_BRIDGE:-gaia2-docker0}
CIDR=${GAIA2_DOCKER_CIDR:-10.213.0.1/24}
SOCK=$RUN/docker.sock
PIDFILE=$RUN/docker.pid
LOG=$RUN/dockerd.log
say() { echo "setup-docker: $*"; }
die() { echo "setup-docker: $*" >&2; exit 1; }

answers() { curl -sf --max-time 2 --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; }

# Mounts dockerd leaves under its roots when it dies without cleaning up (overlay layers, netns).
unmount_under() {
  local root=$1
  awk -v r="$root" 'index($2, r "/") == 1 || $2 == r { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done
}

# 10.213.0.1/24 → 10.213.0.0/24 (how iptables prints the subnet).
network_of() {
  local ip=${1%/*} bits=${1#*/} a b c d n
  IFS=. read -r a b c d <<<"$ip"
  n=$(( (a << 24 | b << 16 | c << 8 | d) & ((0xFFFFFFFF << (32 - bits)) & 0xFFFFFFFF) ))
  echo "$(( n >> 24 & 255 )).$(( n >> 16 & 255 )).$(( n >> 8 & 255 )).$(( n & 255 ))/$bits"
}

# dockerd leaves its NAT and forwarding rules for the bridge behind when it stops; those naming
# our bridge (or its subnet) go with it. Its generic chains (DOCKER, DOCKER-USER, …) stay: another
# dockerd on this machine may use them, and they match nothing without a bridge.
drop_bridge_rules() {
  command -v iptables >/dev/null || return 0
  local net table rule
  net=$(network_of "$CIDR")
  for table in filter nat; do
    { iptables -t "$table" -S 2>/dev/null || true; } | { grep -E -- "-A .*( $BRIDGE( |$)| $net( |$))" || true; } | sed 's/^-A /-D /' | while read -r rule; do
      eval "iptables -t $table $rule" 2>/dev/null || true
    done
  done
}

stop() {
  if [ -f "$PIDFILE" ]; then
    local pid
    pid=$(cat "$PIDFILE")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && grep -q dockerd "/proc/$pid/cmdline" 2>/dev/null; then
      kill -TERM "$pid"
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      if kill -0 "$pid" 2>/dev/null; then say "dockerd $pid did not stop in 20 s: killing it"; kill -KILL "$pid" || true; fi
      say "stopped dockerd $pid"
    fi
    rm -f "$PIDFILE"
  fi
  # The containerd this dockerd started (its socket is under our exec root) ends with it; a
  # SIGKILLed dockerd can leave it behind.
  local cpid
  for cpid in $(pgrep -f "containerd --config $RUN/exec/containerd/containerd.toml" 2>/dev/null || true); do
    kill -TERM "$cpid" 2>/dev/null || true
  done
  if ip link show "$BRIDGE" >/dev/null 2>&1; then ip link delete "$BRIDGE" && say "removed bridge $BRIDGE"; fi
  drop_bridge_rules
  if [ -f "$RUN/forward-policy" ]; then
    iptables -P FORWARD "$(cat "$RUN/forward-policy")" 2>/dev/null || true
    rm -f "$RUN/forward-policy"
  fi
  unmount_under "$RUN/exec"
  unmount_under "$DATA"
  rm -rf "$DATA" "$RUN/exec" "$SOCK"
}

install_docker() {
  command -v dockerd >/dev/null && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    die "dockerd is missing: install Docker Engine (Debian: apt-get install docker.io) and re-run"
  fi
  say "installing docker.io"
  apt-get update -qq
  # policy-rc.d or not: never let the package start the system's own docker service here.
  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends docker.io iptables >/dev/null
}

start() {
  install_docker
  stop
  mkdir -p "$RUN" "$RUN/exec" "$DATA"
  iptables -S FORWARD 2>/dev/null | awk '$1 == "-P" { print $3 }' >"$RUN/forward-policy" || rm -f "$RUN/forward-policy"
  [ -s "$RUN/forward-policy" ] || rm -f "$RUN/forward-policy"
  # Our own bridge (not docker0): this dockerd never meets another engine's network.
  ip link add name "$BRIDGE" type bridge
  ip addr add "$CIDR" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  nohup dockerd --data-root "$DATA" --exec-root "$RUN/exec" -H "unix://$SOCK" -p "$PIDFILE" \
    --bridge "$BRIDGE" --storage-driver overlay2 >"$LOG" 2>&1 </dev/null &
  for _ in $(seq 1 150); do
    if answers; then
      say "dockerd $(cat "$PIDFILE") answers on unix://$SOCK (data root $DATA, empty)"
      echo "DOCKER_HOST=unix://$SOCK"
      return 0
    fi
    sleep 0.2
  done
  tail -20 "$LOG" >&2 || true
  stop
  die "dockerd did not answer on $SOCK within 30 s (log above, full log in $LOG)"
}

# The same dockerd again, from its own command line: nothing of its data root is touched.
restart() {
  [ -f "$PIDFILE" ] || die "no dockerd of ours runs ($PIDFILE missing)"
  local pid t0
  pid=$(cat "$PIDFILE")
  grep -q dockerd "/proc/$pid/cmdline" 2>/dev/null || die "process $pid ($PIDFILE) is not a dockerd"
  local -a argv
  mapfile -d '' -t argv <"/proc/$pid/cmdline"
  t0=$(date +%s%N)
  kill -TERM "$pid"
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && die "dockerd $pid did not stop within 30 s"
  nohup "${argv[@]}" >>"$LOG" 2>&1 </dev/null &
  for _ in $(seq 1 300); do
    if answers; then
      say "dockerd restarted: $(cat "$PIDFILE") answers on unix://$SOCK after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
      return 0
    fi
    sleep 0.1
  done
  die "dockerd did not answer on $SOCK within 30 s of its restart (log: $LOG)"
}

[ "$(id -u)" = 0 ] || die "needs root (it starts dockerd and creates a bridge)"
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) answers ;;
  restart) restart ;;
  *) die "usage: $0 start|stop|status|restart" ;;
esac
