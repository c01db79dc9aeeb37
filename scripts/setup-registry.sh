#!/usr/bin/env bash
# Installs the Docker registry (Debian package `docker-registry`) that the image-push e2e test
# starts on 127.0.0.1 for itself. Installs only; nothing is started here (the package's own
# service is left stopped). Idempotent.
set -euo pipefail
if command -v docker-registry >/dev/null; then exit 0; fi
if [[ $(id -u) -ne 0 ]]; then echo "setup-registry: run as root (apt-get install docker-registry)" >&2; exit 3; fi
install() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker-registry >/dev/null; }
install || { apt-get update -qq && install; }
# Debian enables a system registry on :5000; the tests start their own on loopback instead.
systemctl disable --now docker-registry >/dev/null 2>&1 || true
