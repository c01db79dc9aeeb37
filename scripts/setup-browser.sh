#!/usr/bin/env bash
# Installs Debian's Chromium for the viewer's browser tests (playwright-core drives it; no
# browser download). Idempotent.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then echo "setup-browser: $(chromium --version 2>/dev/null | head -1)"; exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "setup-browser: chromium missing; install your distribution's chromium package (Debian: apt-get install chromium)" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
echo "setup-browser: installed $(chromium --version 2>/dev/null | head -1)"
