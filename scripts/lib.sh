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
# Top-level directories of the kernel that hold the whole files the series
# creates (scripts/series.sh). The test-only cpufreq driver of series-test
# is not mirrored: it is read from its patches (and from the prepared tree).
NEWDIRS=(kernel include Documentation tools/testing/kunit/configs
	 scripts/coccinelle)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The series files, in the order they apply: `series` (the sched
# submission), `series-android` (the Android trace events, for
# integrators to carry) and `series-test` (test-only: the main job and the
# tests need it). Their patches live in patches/, patches/android/ and
# patches/test/.
SERIES_FILES=(series series-android series-test)

# The patches of the series files given (all of them by default), as paths
# under patches/, in the order they apply.
series_patches() { # [series-file...]
	local f=("$@")
	[ ${#f[@]} -gt 0 ] || f=("${SERIES_FILES[@]}")
	(cd "$REPO" && { grep -hvE '^(#|[[:space:]]*$)' "${f[@]}" || true; })
}

# checkpatch.pl --strict on PATCH (run in a kernel tree), one line per
# report: "<where> <file> <TYPE> <message>", the file being the one the
# report is about ("-" for a report on the patch as a whole).
checkpatch_reports() { # where patch
	{ ./scripts/checkpatch.pl --strict --show-types "$2" || true; } |
		awk -v p="$1" '
		function out() { if (t != "") print p, (f == "" ? "-" : f), t, m; t = f = "" }
		/^(ERROR|WARNING|CHECK):/ { out(); split($0, a, ":"); t = a[2]; m = $0; next }
		t != "" && /^#[0-9]+: FILE: / { f = $3; sub(/:[0-9]+:$/, "", f); out() }
		/^$/ { out() }
		END { out() }'
}

# The reports of checkpatch_reports on stdin that scripts/checkpatch.allow
# does not list for their file and type.
checkpatch_unallowed() {
	local where file type msg
	while read -r where file type msg; do
		[ -n "$where" ] || continue
		grep -qE "^$file +$type " "$REPO/scripts/checkpatch.allow" ||
			printf '%s: %s %s %s\n' "$where" "$file" "$type" "$msg"
	done
	return 0
}

# A git repository of pristine 6.12 in DIR, made once (~1 min); its
# commit is in DIR/.git/sched-util-base.
git_base_tree() { # dir
	local g=(git -C "$1" -c user.name=sched-util -c user.email=sched-util@example.org)
	[ -e "$1/.git/sched-util-base" ] && return 0
	log "creating the git tree of pristine 6.12 in $1 (once, ~1 min)"
	rm -rf "$1" && cp -a "$PRISTINE" "$1"
	rm -f "$1/.sched-util-pristine"
	"${g[@]}" init -q
	"${g[@]}" add -f -A
	"${g[@]}" commit -q -m "Linux $(kernel_version "$PRISTINE") (Debian linux-source-6.12)"
	"${g[@]}" rev-parse HEAD > "$1/.git/sched-util-base"
}

kernel_version() {
	make -s -C "$1" kernelversion 2>/dev/null
}

# kunit.py's options for RUN, an arch (x86_64, arm, arm64) or ARCH-debug
# (the debug run: sched_util_debug.config, and KASAN except on arm), in
# the array KUNIT_OPTS; `run` takes them with --jobs, `exec` as they are.
# QEMU runs 2 vCPUs; x86_64 single-threaded TCG, see kunit_accel().
kunit_opts() { # run: ARCH, ARCH-debug or x86_64-kcsan (scripts/kcsan.sh)
	local run=$1 arch=${1%-*} cross configs=tools/testing/kunit/configs
	case "$arch" in
	x86_64) cross= ;;
	arm) cross=arm-linux-gnueabihf- ;;
	arm64) cross=aarch64-linux-gnu- ;;
	*) die "unsupported arch $arch" ;;
	esac
	KUNIT_OPTS=(--arch="$arch" ${cross:+--cross_compile="$cross"}
		    --build_dir="$BUILD/$run" --timeout=900
		    --qemu_args="-smp 2$(kunit_accel "$arch")"
		    --make_options="CC=ccache ${cross}gcc"
		    --kunitconfig=$configs/sched_util_signal.config
		    --kunitconfig=$configs/sched_tune.config
		    --kunitconfig=$configs/sched_walt.config)
	if [ "$run" != "$arch" ]; then
		KUNIT_OPTS+=(--kunitconfig=$configs/sched_util_debug.config)
		if [ "$run" = "$arch-kcsan" ]; then
			KUNIT_OPTS+=(--kunitconfig="$REPO/scripts/kunit/kcsan.config")
		elif [ "$arch" != arm ]; then
			KUNIT_OPTS+=(--kunitconfig=$configs/sched_util_kasan.config)
		fi
	fi
}

# QEMU 7.2's multi-threaded TCG crashes x86 guests that patch their code
# with text_poke_bp()'s int3, as the KUnit suites do at every signal
# switch (scripts/lib-qemu.sh, guest_accel()): x86_64 runs
# single-threaded unless GUEST_MTTCG=1. arm and arm64 patch a static
# branch by writing one instruction, with no int3 phase, and keep
# kunit.py's default.
kunit_accel() { # arch
	[ "$1" = x86_64 ] && [ -z "${GUEST_MTTCG:-}" ] &&
		echo " -accel tcg,thread=single"
	return 0
}

# KUnit's KTAP lines of a console log, without the kernel's own messages.
# kunit.py's parser gives up on a line it does not expect between a
# suite's "KTAP version 1" and its "# Subtest:" line, and then reports
# every suite as crashed: an asynchronous printk landing there did it in
# 1 of 50 x86_64 debug boots (x86's "tsc: Refined TSC clocksource
# calibration", about a second after boot, as the first suite started).
# KUnit's lines are KTAP at the top level or indented by 4 spaces per
# level; the kernel's own start in column 0, or with one space in traces.
kunit_ktap() {
	sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' |
		sed -n '/^KTAP version 1$/,$p' |
		grep -E '^(    )*(KTAP version |TAP version |[0-9]+\.\.[0-9]+$|ok |not ok |#)|^    ' ||
		true
}

# Run `kunit.py CMD OPTS...` for RUN, console output unparsed, then parse
# its KTAP lines (kunit_ktap) with `kunit.py parse`, into LOG; kunit.py's
# own messages (the build's) go to LOG.raw with the console output.
# Returns the exit status of the run, or of the parse if the run passed.
kunit_boot() { # run log cmd [options...]
	local run=$1 out=$2 rc
	shift 2
	(cd "$SRC" && ./tools/testing/kunit/kunit.py "$@" --raw_output=all) \
		> "$out.raw" 2>&1
	rc=$?
	kunit_ktap < "$out.raw" > "$out.ktap"
	if [ ! -s "$out.ktap" ]; then
		tail -n 40 "$out.raw" > "$out"
		log "$run: no KTAP output (build or boot failure): last lines of $out.raw above"
		return $(( rc ? rc : 1 ))
	fi
	(cd "$SRC" && ./tools/testing/kunit/kunit.py parse "$out.ktap") > "$out" 2>&1 ||
		{ [ $rc -ne 0 ] || rc=1; }
	return $rc
}

# Summarise kunit.py output LOG of RUN: sets KUNIT_PASS and KUNIT_FAIL
# (failed + crashed, +1 for no result or no sched_* suite, +1 for a kernel
# report in a debug or KCSAN run's kernel log; KCSAN's own reports are
# scripts/kcsan.sh's to judge) and prints why it failed.
kunit_result() { # run log
	local run=$1 out=$2 summary crash
	summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$out" | tail -1)
	KUNIT_PASS=$(sed -n 's/.*passed: \([0-9]*\).*/\1/p' <<<"$summary")
	KUNIT_FAIL=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' <<<"$summary")
	crash=$(sed -n 's/.*crashed: \([0-9]*\).*/\1/p' <<<"$summary")
	KUNIT_PASS=${KUNIT_PASS:-0} KUNIT_FAIL=$(( ${KUNIT_FAIL:-0} + ${crash:-0} ))
	if [ -z "$summary" ]; then
		log "$run: no kunit result (build or boot failure)"
		KUNIT_FAIL=$((KUNIT_FAIL + 1))
	elif ! grep -qE '=+ \[(PASSED|FAILED|SKIPPED)\] sched_' "$out"; then
		log "$run: no suite of ours (sched_*) ran"
		KUNIT_FAIL=$((KUNIT_FAIL + 1))
	fi
	if [ "$run" != "${run%-*}" ] &&
	   grep -nE 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|INFO: trying to register non-static key' \
		"$BUILD/$run/test.log" | grep -v 'BUG: KCSAN:'; then
		log "$run: kernel log has warnings (above; full log $BUILD/$run/test.log)"
		KUNIT_FAIL=$((KUNIT_FAIL + 1))
	fi
}
