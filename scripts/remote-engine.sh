#!/usr/bin/env bash
# A real remote container engine on this machine, for the remote-engine tests and for trying
# DOCKER_HOST=tcp:// / ssh:// by hand: a network namespace with its own addresses (a veth
# pair, 10.213.7.0/30), a podman API service inside it on TCP with its own storage, a TLS
# front (socat, client certificates), the API on a unix socket too, and an sshd, each listening
# only on the namespace address.
#
#   bash scripts/remote-engine.sh start [--image REF]...   # idempotent; prints the settings
#   bash scripts/remote-engine.sh env                      # prints the settings of a running one
#   bash scripts/remote-engine.sh stop                     # removes everything it created
#
# --image copies an image from the local engine (unix socket, Docker Engine API) into the
# remote one unless it already holds the same image id.
#
# Needs root, iproute2, nsenter/unshare (util-linux), podman, runc, curl, openssl, socat, iptables
# and openssh-server (installed with apt-get when missing). Nothing is routed anywhere but between
# the two namespace addresses; the containers inside reach the host side through the
# namespace's own NAT (netavark's masquerade).
set -euo pipefail

NS=${GAIA2_REMOTE_NS:-gaia2-remote}
HOST_IF=g2r-host
NS_IF=g2r-ns
HOST_IP=10.213.7.1
NS_IP=10.213.7.2
API_PORT=2375
TLS_PORT=2376
SSH_PORT=22
# Connections to this port are dropped in the namespace: an engine address that never answers.
BLACKHOLE_PORT=2399
DIR=${GAIA2_REMOTE_DIR:-/var/lib/gaia2-remote-engine}
LOCAL_SOCK=${GAIA2_LOCAL_ENGINE_SOCK:-}

log() { echo "remote-engine: $*" >&2; }
die() { log "$*"; exit 1; }

local_sock() {
  if [ -n "$LOCAL_SOCK" ]; then echo "$LOCAL_SOCK"; return; fi
  local dh=${DOCKER_HOST:-}
  for s in "${dh#unix://}" /run/podman/podman.sock /var/run/docker.sock; do
    if [ -n "$s" ] && [ -S "$s" ]; then echo "$s"; return; fi
  done
  die "no local engine socket to copy images from (set GAIA2_LOCAL_ENGINE_SOCK)"
}

api_ok() { curl -sf --max-time 2 "http://$NS_IP:$API_PORT/_ping" >/dev/null 2>&1; }

print_env() {
  cat <<EOF
DOCKER_HOST_TCP=tcp://$NS_IP:$API_PORT
DOCKER_HOST_TLS=tcp://$NS_IP:$TLS_PORT
DOCKER_CERT_PATH=$DIR/tls/client
DOCKER_HOST_SSH=ssh://root@$NS_IP:$SSH_PORT
DOCKER_HOST_SSH_SOCKET=ssh://root@$NS_IP:$SSH_PORT$DIR/api.sock
DOCKER_HOST_BLACKHOLE=tcp://$NS_IP:$BLACKHOLE_PORT
GAIA2_SSH_IDENTITY=$DIR/ssh/id_ed25519
GAIA2_SSH_KNOWN_HOSTS=$DIR/ssh/known_hosts
GAIA2_REMOTE_HOST_SIDE=$HOST_IP
GAIA2_REMOTE_NETNS=/run/netns/$NS
EOF
}

install_missing() {
  local need=()
  command -v podman >/dev/null || need+=(podman)
  command -v runc >/dev/null || need+=(runc)
  command -v socat >/dev/null || need+=(socat)
  command -v openssl >/dev/null || need+=(openssl)
  command -v curl >/dev/null || need+=(curl)
  command -v iptables >/dev/null || need+=(iptables)
  [ -x /usr/sbin/sshd ] || need+=(openssh-server)
  [ ${#need[@]} -eq 0 ] && return
  command -v apt-get >/dev/null || die "missing ${need[*]}; install them and re-run"
  log "installing ${need[*]}"
  # policy-rc.d keeps the package's own sshd from starting on the host's addresses.
  local policy=/usr/sbin/policy-rc.d created=
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod +x "$policy"; created=1; fi
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${need[@]}" >/dev/null
  [ -n "$created" ] && rm -f "$policy"
  return 0
}

# Runs a command in the namespace's network only (nsenter --net keeps the cgroup mounts that
# `ip netns exec` hides by remounting /sys), detached, its pid in $DIR/NAME.pid.
spawn_in_ns() {
  local name=$1; shift
  nohup nsenter --net="/run/netns/$NS" "$@" >"$DIR/$name.log" 2>&1 &
  echo $! >"$DIR/$name.pid"
}

alive() { [ -f "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null; }

start_network() {
  if ! ip netns list | grep -qw "$NS"; then ip netns add "$NS"; fi
  if ! ip link show "$HOST_IF" >/dev/null 2>&1; then
    ip link add "$HOST_IF" type veth peer name "$NS_IF"
    ip link set "$NS_IF" netns "$NS"
    ip addr add "$HOST_IP/30" dev "$HOST_IF"
    ip -n "$NS" addr add "$NS_IP/30" dev "$NS_IF"
  fi
  ip link set "$HOST_IF" up
  ip -n "$NS" link set lo up
  ip -n "$NS" link set "$NS_IF" up
  local drop=(INPUT -p tcp -d "$NS_IP" --dport "$BLACKHOLE_PORT" -j DROP)
  nsenter --net="/run/netns/$NS" iptables -C "${drop[@]}" 2>/dev/null || nsenter --net="/run/netns/$NS" iptables -I "${drop[@]}"
}

write_podman_config() {
  mkdir -p "$DIR/storage" "$DIR/run" "$DIR/tmp" "$DIR/networks"
  # Own lock files and network configs: nothing shared with the host's podman.
  cat >"$DIR/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]

[engine]
runtime = "runc"
lock_type = "file"
tmp_dir = "$DIR/tmp"

[network]
network_config_dir = "$DIR/networks"
default_subnet = "10.213.8.0/24"
EOF
}

start_podman() {
  alive podman && api_ok && return
  write_podman_config
  # A private mount namespace with its own /dev/shm: the container rootfs mounts stay inside
  # it and vanish with the service.
  CONTAINERS_CONF="$DIR/containers.conf" spawn_in_ns podman unshare --mount --propagation private \
    bash -c "mount -t tmpfs -o size=64m tmpfs /dev/shm && exec podman --root '$DIR/storage' --runroot '$DIR/run' \
      --tmpdir '$DIR/tmp' system service --time=0 tcp://$NS_IP:$API_PORT"
  for _ in $(seq 1 100); do api_ok && return; sleep 0.2; done
  die "podman API service did not answer on $NS_IP:$API_PORT (see $DIR/podman.log)"
}

make_tls() {
  local t=$DIR/tls
  [ -f "$t/client/key.pem" ] && return
  mkdir -p "$t/server" "$t/client"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=gaia2 remote-engine test CA" \
    -keyout "$t/ca-key.pem" -out "$t/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$NS_IP" -keyout "$t/server/key.pem" -out "$t/server.csr" 2>/dev/null
  printf 'subjectAltName=IP:%s\nextendedKeyUsage=serverAuth\n' "$NS_IP" >"$t/server.ext"
  openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca-key.pem" -CAcreateserial -days 30 \
    -extfile "$t/server.ext" -out "$t/server/cert.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=gaia2-runner" -keyout "$t/client/key.pem" -out "$t/client.csr" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' >"$t/client.ext"
  openssl x509 -req -in "$t/client.csr" -CA "$t/ca.pem" -CAkey "$t/ca-key.pem" -CAcreateserial -days 30 \
    -extfile "$t/client.ext" -out "$t/client/cert.pem" 2>/dev/null
  cp "$t/ca.pem" "$t/client/ca.pem"
  chmod 600 "$t/ca-key.pem" "$t/server/key.pem" "$t/client/key.pem"
}

start_tls() {
  alive tls && return
  make_tls
  # The engine's TLS front, as dockerd --tlsverify would be: client certificates required.
  spawn_in_ns tls socat "OPENSSL-LISTEN:$TLS_PORT,bind=$NS_IP,fork,reuseaddr,cert=$DIR/tls/server/cert.pem,key=$DIR/tls/server/key.pem,cafile=$DIR/tls/ca.pem,verify=1" \
    "TCP:$NS_IP:$API_PORT"
}

start_socket() {
  alive socket && return
  # The engine API on a unix socket of the engine host too, as podman's own ssh:// form expects.
  spawn_in_ns socket socat "UNIX-LISTEN:$DIR/api.sock,fork,unlink-early,mode=600" "TCP:$NS_IP:$API_PORT"
}

start_sshd() {
  local s=$DIR/ssh
  mkdir -p "$s/bin" /run/sshd
  [ -f "$s/host_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -f "$s/host_ed25519"
  [ -f "$s/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C gaia2-remote-test -f "$s/id_ed25519"
  cp "$s/id_ed25519.pub" "$s/authorized_keys"
  chmod 600 "$s/authorized_keys"
  echo "$NS_IP $(cut -d' ' -f1,2 "$s/host_ed25519.pub")" >"$s/known_hosts"
  # What `docker` means on this engine host: the Docker CLI's ssh transport runs
  # `docker system dial-stdio` there; podman has the same subcommand.
  cat >"$s/bin/docker" <<EOF
#!/bin/sh
exec podman --url tcp://$NS_IP:$API_PORT "\$@"
EOF
  chmod +x "$s/bin/docker"
  cat >"$s/sshd_config" <<EOF
ListenAddress $NS_IP:$SSH_PORT
HostKey $s/host_ed25519
AuthorizedKeysFile $s/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
AllowTcpForwarding yes
PidFile $DIR/sshd.real.pid
SetEnv PATH=$s/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
EOF
  alive sshd && return
  spawn_in_ns sshd /usr/sbin/sshd -D -e -f "$s/sshd_config"
  for _ in $(seq 1 50); do
    nsenter --net="/run/netns/$NS" bash -c "exec 3<>/dev/tcp/$NS_IP/$SSH_PORT" 2>/dev/null && return
    sleep 0.1
  done
  die "sshd did not listen on $NS_IP:$SSH_PORT (see $DIR/sshd.log)"
}

image_id() { curl -sf --max-time 10 "$@" | sed -n 's/^{"Id":"\([^"]*\)".*/\1/p; s/.*"Id": *"\([^"]*\)".*/\1/p' | head -1; }

copy_image() {
  local ref=$1 sock enc
  sock=$(local_sock)
  enc=$(printf %s "$ref" | sed 's|/|%2F|g')
  local here there
  here=$(image_id --unix-socket "$sock" "http://d/images/$enc/json")
  [ -n "$here" ] || die "image $ref is not in the local engine ($sock); build it first"
  there=$(image_id "http://$NS_IP:$API_PORT/images/$enc/json" || true)
  if [ "$here" = "$there" ]; then log "image $ref already in the remote engine"; return; fi
  log "copying image $ref into the remote engine"
  curl -sf --unix-socket "$sock" "http://d/images/$enc/get" |
    curl -sf -X POST -H 'Content-Type: application/x-tar' --data-binary @- "http://$NS_IP:$API_PORT/images/load" >/dev/null
  there=$(image_id "http://$NS_IP:$API_PORT/images/$enc/json" || true)
  [ -n "$there" ] || die "image $ref did not arrive in the remote engine"
}

cmd_start() {
  [ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
  local images=()
  while [ $# -gt 0 ]; do
    case $1 in
      --image) images+=("$2"); shift 2 ;;
      *) die "unknown argument $1" ;;
    esac
  done
  install_missing
  mkdir -p "$DIR"
  start_network
  start_podman
  start_tls
  start_socket
  start_sshd
  for i in "${images[@]}"; do copy_image "$i"; done
  print_env
}

kill_pidfile() {
  local f=$DIR/$1.pid
  [ -f "$f" ] || return 0
  local pid; pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$f"
}

cmd_stop() {
  if api_ok; then
    # Containers first, through the engine, so podman tears down their network namespaces.
    for id in $(curl -sf --max-time 10 "http://$NS_IP:$API_PORT/containers/json?all=1" | grep -o '"Id":"[0-9a-f]*"' | cut -d'"' -f4); do
      curl -sf --max-time 30 -X DELETE "http://$NS_IP:$API_PORT/containers/$id?force=1&v=1" >/dev/null || true
    done
  fi
  kill_pidfile tls
  kill_pidfile socket
  kill_pidfile sshd
  kill_pidfile podman
  if ip netns list | grep -qw "$NS"; then
    # Anything still running in the namespace was started by this script or by its engine.
    for pid in $(ip netns pids "$NS" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$NS"
  fi
  ip link del "$HOST_IF" 2>/dev/null || true
  rm -rf "$DIR"
  log "stopped; namespace, veth pair, processes and storage removed"
}

case ${1:-} in
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  env) api_ok || die "not running (bash scripts/remote-engine.sh start)"; print_env ;;
  *) die "usage: remote-engine.sh start [--image REF]... | env | stop" ;;
esac
