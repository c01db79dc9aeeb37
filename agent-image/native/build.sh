#!/bin/sh
# Builds the clock readers (docs/contract.md, "The agent's clock") into OUT: libgaia2clock.so,
# the preload library, and simclock-exec, the exec helper for static programs. Run in the image's
# builder stage (Dockerfile) and by the tests on the host; needs gcc and libc6-dev.
# Usage: build.sh OUT
set -eu
out=${1:?usage: build.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
mkdir -p "$out"
# The flags as the positional list (POSIX sh has no arrays): each one word.
set -- -O2 -Wall -Wextra -Werror -D_FORTIFY_SOURCE=2 -fstack-protector-strong
"$cc" "$@" -o "$out/simclock-exec" "$here/simclock-exec.c"
# x86_64 has two versions of pthread_cond_timedwait to stand in for (gaia2-clock.map).
case "$("$cc" -dumpmachine)" in x86_64-*) set -- "$@" "-Wl,--version-script=$here/gaia2-clock.map";; esac
"$cc" "$@" -fPIC -shared -fvisibility=hidden -Wl,-z,relro,-z,now -o "$out/libgaia2clock.so" "$here/gaia2-clock.c" -ldl
