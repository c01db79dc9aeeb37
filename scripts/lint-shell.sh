#!/usr/bin/env bash
# Every shell program of the repository through ShellCheck (Debian's package; installed here when
# missing and we are root): the tracked files named *.sh or starting with a sh/bash #! line —
# the image's entrypoint and CLI wrapper, the setup scripts, .ci/run, the example agent.
# Any finding (all levels, info included) fails. Usage: scripts/lint-shell.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v shellcheck >/dev/null; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "lint-shell: shellcheck is missing; install it (Debian: apt-get install shellcheck)" >&2
    exit 1
  fi
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends shellcheck >/dev/null
fi
files=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  if [[ $f == *.sh ]] || head -n 1 "$f" | grep -qE '^#!.*[/ ](ba|da)?sh( |$)'; then files+=("$f"); fi
done < <(git ls-files -z)
[ ${#files[@]} -gt 0 ] || { echo "lint-shell: no shell programs found (not a git checkout?)" >&2; exit 1; }
shellcheck "${files[@]}"
echo "lint-shell: ${#files[@]} shell programs, no findings"
