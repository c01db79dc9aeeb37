#!/usr/bin/env bash
# Builds a minimal Debian bookworm base image without any container registry:
# debootstrap (minbase + curl) from the Debian mirror apt already uses, then `podman import`.
# Usage: scripts/build-base-image.sh [TAG]   (default localhost/gaia2-base:bookworm)
set -euo pipefail
TAG=${1:-localhost/gaia2-base:bookworm}
if podman image exists "$TAG" 2>/dev/null; then echo "build-base-image: $TAG exists"; exit 0; fi
command -v debootstrap >/dev/null || { echo "build-base-image: debootstrap missing (run scripts/setup-engine.sh)" >&2; exit 1; }

# The mirror apt already uses (deb822 sources first, then the classic list).
mirror=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
[ -n "$mirror" ] || mirror=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | head -1 | awk '{print $2}')
[ -n "$mirror" ] || { echo "build-base-image: no Debian mirror found in apt sources" >&2; exit 1; }

dir=$(mktemp -d /tmp/gaia2-base.XXXXXX)
trap 'rm -rf "$dir"' EXIT
echo "build-base-image: debootstrap bookworm from $mirror"
debootstrap --variant=minbase --include=curl,ca-certificates bookworm "$dir" "$mirror" >/tmp/gaia2-debootstrap.log 2>&1 \
  || { echo "build-base-image: debootstrap failed, see /tmp/gaia2-debootstrap.log" >&2; exit 1; }
rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
tar -C "$dir" -c . | podman import --change 'CMD ["/bin/bash"]' - "$TAG" >/dev/null
echo "build-base-image: imported $TAG"
