#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's test command: install what is missing, prepare the kernel
# tree outside the repository, then run the tree's own kunit.py in QEMU
# (2 vCPUs) for x86_64, arm and arm64 and sum the results.
#
#   scripts/test.sh [--arch x86_64|arm|arm64]... [--filter GLOB]
#
# Exits non-zero if a test fails, an arch does not build or boot, or no
# suite of ours ran.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

ARCHES=()
FILTER=
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) ARCHES+=("$2"); shift 2 ;;
	--filter) FILTER=$2; shift 2 ;;
	-h|--help) sed -n '3,11p' "$0"; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[ ${#ARCHES[@]} -eq 0 ] && ARCHES=(x86_64 arm arm64)

"$REPO/scripts/setup.sh" || die "package installation failed"
"$REPO/scripts/prepare-tree.sh" || exit 1

cross_of() {
	case "$1" in
	x86_64) echo "" ;;
	arm) echo arm-linux-gnueabihf- ;;
	arm64) echo aarch64-linux-gnu- ;;
	*) die "unsupported arch $1" ;;
	esac
}

mkdir -p "$BUILD" "$CCACHE_DIR"
export PYTHONDONTWRITEBYTECODE=1
total_pass=0 total_fail=0 status=0
for arch in "${ARCHES[@]}"; do
	cross=$(cross_of "$arch")
	log "kunit.py run --arch=$arch ${FILTER:+(filter $FILTER)}"
	out=$BUILD/kunit-$arch.log
	start=$(date +%s)
	(cd "$SRC" && ./tools/testing/kunit/kunit.py run \
		--arch="$arch" ${cross:+--cross_compile="$cross"} \
		--build_dir="$BUILD/$arch" \
		--kunitconfig=tools/testing/kunit/configs/sched_util.config \
		--jobs="$(nproc)" --timeout=900 \
		--qemu_args='-smp 2' \
		--make_options="CC=ccache ${cross}gcc" \
		${FILTER:+"$FILTER"}) 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	log "$arch: kunit.py exit $rc after $(( $(date +%s) - start )) s"
	summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$out" | tail -1)
	pass=$(sed -n 's/.*passed: \([0-9]*\).*/\1/p' <<<"$summary")
	fail=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' <<<"$summary")
	crash=$(sed -n 's/.*crashed: \([0-9]*\).*/\1/p' <<<"$summary")
	pass=${pass:-0} fail=$(( ${fail:-0} + ${crash:-0} ))
	if [ -z "$summary" ]; then
		log "$arch: no kunit result (build or boot failure)"
		fail=$((fail + 1))
		status=1
	elif ! grep -qE '=+ \[(PASSED|FAILED|SKIPPED)\] sched_' "$out"; then
		log "$arch: no suite of ours (sched_*) ran"
		status=1
	fi
	[ "$rc" -ne 0 ] && status=1
	total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
done

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] || status=1
exit $status
