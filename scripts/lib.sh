# SPDX-License-Identifier: GPL-2.0
# Common settings for the sched-util scripts. Sourced, not executed.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything generated lives here, never in the repository.
CACHE=${SCHED_UTIL_CACHE:-$HOME/.cache/sched-util}
PRISTINE=$CACHE/linux-pristine
SRC=$CACHE/linux
BUILD=$CACHE/build
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
TARBALL=/usr/src/linux-source-6.12.tar.xz

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

kernel_version() {
	make -s -C "$1" kernelversion 2>/dev/null
}
