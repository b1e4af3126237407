#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's test command: install what is missing, prepare the kernel
# tree outside the repository, then run the tree's own kunit.py in QEMU
# (2 vCPUs) for x86_64, arm and arm64 and sum the results.
#
#   scripts/test.sh [--arch x86_64|arm|arm64]... [--filter GLOB] [--no-check]
#                   [--debug-arch x86_64|arm|arm64]... [--no-debug]
#
# The static checks (scripts/check.sh) run first unless --no-check. The
# debug run (lockdep, atomic sleep, preemption checks, UBSAN, KASAN on
# x86_64/arm64) runs on x86_64 by default, or the --debug-arch list, and
# fails on any WARN/BUG/lockdep/KASAN/UBSAN report, not only on failed
# cases.
# Exits non-zero if a check or a test fails, an arch does not build or
# boot, or no suite of ours ran.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

ARCHES=()
DEBUG_ARCHES=()
DEBUG=1
FILTER=
CHECK=1
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) ARCHES+=("$2"); shift 2 ;;
	--filter) FILTER=$2; shift 2 ;;
	--no-check) CHECK=0; shift ;;
	--debug-arch) DEBUG_ARCHES+=("$2"); shift 2 ;;
	--no-debug) DEBUG=0; shift ;;
	-h|--help) sed -n '3,18p' "$0"; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[ ${#ARCHES[@]} -eq 0 ] && ARCHES=(x86_64 arm arm64)
[ ${#DEBUG_ARCHES[@]} -eq 0 ] && DEBUG_ARCHES=(x86_64)
[ $DEBUG -eq 1 ] || DEBUG_ARCHES=()

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

if [ $CHECK -eq 1 ]; then
	"$REPO/scripts/check.sh" --no-prepare 2>&1 | tee "$BUILD/check.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || { status=1 check_failed=1; }
fi
CONFIGS=tools/testing/kunit/configs
RUNS=()
for a in "${ARCHES[@]}"; do RUNS+=("$a"); done
for a in "${DEBUG_ARCHES[@]}"; do RUNS+=("$a-debug"); done
for run in "${RUNS[@]}"; do
	arch=${run%-debug}
	cross=$(cross_of "$arch")
	kconfigs=(--kunitconfig=$CONFIGS/sched_util_signal.config
		  --kunitconfig=$CONFIGS/sched_tune.config
		  --kunitconfig=$CONFIGS/sched_walt.config)
	if [ "$run" != "$arch" ]; then
		kconfigs+=(--kunitconfig=$CONFIGS/sched_util_debug.config)
		[ "$arch" = arm ] ||
			kconfigs+=(--kunitconfig=$CONFIGS/sched_util_kasan.config)
	fi
	log "kunit.py run --arch=$arch${run#$arch}${FILTER:+ (filter $FILTER)}"
	out=$BUILD/kunit-$run.log
	start=$(date +%s)
	(cd "$SRC" && ./tools/testing/kunit/kunit.py run \
		--arch="$arch" ${cross:+--cross_compile="$cross"} \
		--build_dir="$BUILD/$run" "${kconfigs[@]}" \
		--jobs="$(nproc)" --timeout=900 \
		--qemu_args='-smp 2' \
		--make_options="CC=ccache ${cross}gcc" \
		${FILTER:+"$FILTER"}) 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	log "$run: kunit.py exit $rc after $(( $(date +%s) - start )) s"
	summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$out" | tail -1)
	pass=$(sed -n 's/.*passed: \([0-9]*\).*/\1/p' <<<"$summary")
	fail=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' <<<"$summary")
	crash=$(sed -n 's/.*crashed: \([0-9]*\).*/\1/p' <<<"$summary")
	pass=${pass:-0} fail=$(( ${fail:-0} + ${crash:-0} ))
	if [ -z "$summary" ]; then
		log "$run: no kunit result (build or boot failure)"
		fail=$((fail + 1))
		status=1
	elif ! grep -qE '=+ \[(PASSED|FAILED|SKIPPED)\] sched_' "$out"; then
		log "$run: no suite of ours (sched_*) ran"
		status=1
	fi
	if [ "$run" != "$arch" ] &&
	   grep -nE 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|INFO: trying to register non-static key' \
		"$BUILD/$run/test.log"; then
		log "$run: kernel log has warnings (above; full log $BUILD/$run/test.log)"
		fail=$((fail + 1))
		status=1
	fi
	[ "$rc" -ne 0 ] && status=1
	total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
done

[ -n "${check_failed:-}" ] && log "static checks FAILED: see $BUILD/check.log"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] || status=1
exit $status
