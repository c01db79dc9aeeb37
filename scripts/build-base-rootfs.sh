#!/usr/bin/env bash
# Builds the root filesystem of a minimal Debian bookworm base image without any container
# registry: debootstrap (minbase, curl, and the agent's shell tools jq, python3 and file) from
# the Debian mirror apt already uses, packed as a tar. The runner imports that tar through the
# engine API (POST /images/create?fromSrc=-), so the same file serves podman, Docker and a
# remote engine. Needs root and debootstrap.
# Usage: scripts/build-base-rootfs.sh OUT.tar
set -euo pipefail
out=${1:?usage: build-base-rootfs.sh OUT.tar}
command -v debootstrap >/dev/null || { echo "build-base-rootfs: debootstrap missing (run scripts/setup-engine.sh, or apt-get install debootstrap)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "build-base-rootfs: debootstrap needs root (or pass --base-image / GAIA2_BASE_IMAGE)" >&2; exit 1; }

# The mirror apt already uses (deb822 sources first, then the classic list).
mirror=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
[ -n "$mirror" ] || mirror=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
[ -n "$mirror" ] || { echo "build-base-rootfs: no Debian mirror found in apt sources" >&2; exit 1; }

dir=$(mktemp -d /tmp/gaia2-base.XXXXXX)
log=$(mktemp /tmp/gaia2-debootstrap.XXXXXX.log)
trap 'rm -rf "$dir" "$out.partial"' EXIT
echo "build-base-rootfs: debootstrap bookworm from $mirror"
debootstrap --variant=minbase --include=curl,ca-certificates,jq,python3,file,iptables bookworm "$dir" "$mirror" >"$log" 2>&1 \
  || { echo "build-base-rootfs: debootstrap failed, see $log" >&2; exit 1; }
rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
mkdir -p "$(dirname "$out")"
tar -C "$dir" --numeric-owner -cf "$out.partial" .
mv "$out.partial" "$out"
rm -f "$log"
echo "build-base-rootfs: wrote $out"
