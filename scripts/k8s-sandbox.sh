#!/usr/bin/env bash
# Local Kubernetes API-server double for the Kubernetes backend's tests and benches.
#   scripts/k8s-sandbox.sh start   start it in the background (if not running); prints the kubeconfig path
#   scripts/k8s-sandbox.sh stop    stop it and remove every podman pod/secret/volume it created
#   scripts/k8s-sandbox.sh status  print the state file, exit 1 when not running
# Env: K8SD_STATE_DIR (default <repo>/.k8s-sandbox), K8SD_FAKE=1 (in-process pods, no podman),
#      K8SD_PORT (default: a free port). Idempotent: start when running and stop when stopped do nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${K8SD_STATE_DIR:-$root/.k8s-sandbox}"
state="$dir/state.json"
kubeconfig="$dir/kubeconfig"
log="$dir/double.log"

field() { sed -n "s/.*\"$1\":\"\\{0,1\\}\\([^\",}]*\\).*/\\1/p" "$state" 2>/dev/null; }
running() { [[ -f "$state" ]] && kill -0 "$(field pid)" 2>/dev/null; }

remove_prefixed() { # podman objects named <prefix>-..., only this sandbox's
  local prefix="$1" kind
  [[ -n "$prefix" ]] && command -v podman >/dev/null || return 0
  podman pod ps --format '{{.Name}}' | { grep "^$prefix-" || true; } | while read -r p; do podman pod rm --force --time 0 "$p" >/dev/null || true; done
  for kind in secret volume; do
    podman "$kind" ls --format '{{.Name}}' | { grep "^$prefix-" || true; } | while read -r n; do podman "$kind" rm --force "$n" >/dev/null 2>&1 || podman "$kind" rm "$n" >/dev/null 2>&1 || true; done
  done
}

case "${1:-}" in
  start)
    if running; then echo "$kubeconfig"; exit 0; fi
    mkdir -p "$dir"
    # A state file without a live process is a crashed sandbox: clean up after it first.
    if [[ -f "$state" ]]; then remove_prefixed "$(field prefix)"; rm -f "$state"; fi
    args=(--kubeconfig "$kubeconfig" --state "$state")
    [[ "${K8SD_FAKE:-}" == 1 ]] && args+=(--fake)
    [[ -n "${K8SD_PORT:-}" ]] && args+=(--port "$K8SD_PORT")
    cd "$root"
    nohup node --import tsx test/helpers/k8s-api-double/main.ts "${args[@]}" >"$log" 2>&1 </dev/null &
    for _ in $(seq 1 150); do
      if [[ -f "$state" ]]; then echo "$kubeconfig"; exit 0; fi
      if ! kill -0 $! 2>/dev/null; then break; fi
      sleep 0.2
    done
    echo "k8s-sandbox: the API double did not start; log $log:" >&2
    tail -20 "$log" >&2 || true
    exit 3
    ;;
  stop)
    if [[ ! -f "$state" ]]; then exit 0; fi
    pid="$(field pid)"; prefix="$(field prefix)"
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    fi
    remove_prefixed "$prefix"
    rm -f "$state" "$kubeconfig"
    ;;
  status)
    if running; then cat "$state"; echo; else echo "k8s-sandbox: not running" >&2; exit 1; fi
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
