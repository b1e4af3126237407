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

mkdir -p "$BUILD" "$CCACHE_DIR"
export PYTHONDONTWRITEBYTECODE=1
total_pass=0 total_fail=0 status=0 failed_runs=()

if [ $CHECK -eq 1 ]; then
	"$REPO/scripts/check.sh" --no-prepare 2>&1 | tee "$BUILD/check.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || { status=1 check_failed=1; }
fi
RUNS=()
for a in "${ARCHES[@]}"; do RUNS+=("$a"); done
for a in "${DEBUG_ARCHES[@]}"; do RUNS+=("$a-debug"); done
for run in "${RUNS[@]}"; do
	kunit_opts "$run"
	log "kunit.py run --arch=$run${FILTER:+ (filter $FILTER)}"
	out=$BUILD/kunit-$run.log
	start=$(date +%s)
	kunit_boot "$run" "$out" run "${KUNIT_OPTS[@]}" --jobs="$(nproc)" \
		${FILTER:+"$FILTER"}
	rc=$?
	grep -E '^(\$ make|Building with|Regenerating)' "$out.raw" | head -5
	cat "$out"
	log "$run: kunit.py exit $rc after $(( $(date +%s) - start )) s"
	kunit_result "$run" "$out"
	[ "$rc" -ne 0 ] || [ "$KUNIT_FAIL" -ne 0 ] && status=1
	total_pass=$((total_pass + KUNIT_PASS)) total_fail=$((total_fail + KUNIT_FAIL))
	[ "$KUNIT_FAIL" -eq 0 ] || failed_runs+=("$run")
done

# What failed, again at the end: CI shows only the last lines.
for run in "${failed_runs[@]}"; do
	log "$run failed:"
	grep -E -A3 '(EXPECTATION|ASSERTION) FAILED|crashed|\[FAILED\] [a-z]' \
		"$BUILD/kunit-$run.log" | head -n 40
done

[ -n "${check_failed:-}" ] && log "static checks FAILED: see $BUILD/check.log"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] || status=1
exit $status
