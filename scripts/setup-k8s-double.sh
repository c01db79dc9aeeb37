#!/usr/bin/env bash
# What the Kubernetes API-server double (test/helpers/k8s-api-double, scripts/k8s-sandbox.sh)
# needs beyond the container engine: the openssl CLI, which makes its throwaway CA and serving
# certificate. (Pods run through podman, installed by scripts/setup-engine.sh.) Idempotent.
set -euo pipefail
if command -v openssl >/dev/null; then
  echo "setup-k8s-double: openssl present"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "setup-k8s-double: the openssl CLI is missing; install it (Debian/Ubuntu: apt-get install openssl)" >&2
  exit 3
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssl >/dev/null
echo "setup-k8s-double: installed openssl"
