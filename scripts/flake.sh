#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Flake hunting: boot already-built kernels many times in a row and report
# every boot that is not clean. Not part of CI (README gives the times).
#
#   scripts/flake.sh [--kunit ARCH N]... [--checks N] [--soc N]
#                    [--keyflip N] [--flips F] [--filter GLOB] [--no-prepare]
#                    [--host-load]
#
#   --kunit ARCH N  N boots of the debug KUnit kernel of ARCH (x86_64, arm,
#                   arm64; built first if needed, as scripts/test.sh's
#                   debug run builds it), `kunit.py exec` with no rebuild;
#                   a boot fails on a failed or crashed case, no result,
#                   or any WARN/BUG/KASAN/UBSAN/Oops in its kernel log.
#                   --filter GLOB is kunit.py's suite filter (default
#                   all suites; e.g. 'sched_walt_live').
#   --checks N      N boots of scripts/run.sh's checks guest; a boot fails
#                   unless the guest reports 0 failed checks.
#   --soc N         N boots of each virtual SoC checks guest (HiKey960,
#                   HiKey; run.sh soc); a boot fails unless all its checks
#                   pass and its kernel log has no WARN/BUG/Oops.
#   --keyflip N     the MTTCG experiment: N boots of the pristine baseline
#                   kernel (run.sh's, no series code) under multi-threaded
#                   TCG and N under single-threaded TCG, each turning all
#                   sched trace events on and off F times (--flips,
#                   default 200) under hackbench (scripts/guest/keyflip.sh);
#                   prints each mode's crash rate. It measures QEMU, so it
#                   fails only if a single-threaded boot crashes.
#
# --host-load runs a CPU-bound process per host core beside every build and
# boot, as on a busy CI machine: a live case must judge what it measures
# in guest time, not rely on the host to run its vCPUs promptly.
# --no-prepare leaves the kernel tree as it is, for a second flake.sh run
# beside one still booting. Without options: --kunit x86_64 50 --kunit
# arm64 20 --checks 30.
# Logs of failed boots are kept in $SCHED_UTIL_CACHE/build/flake/. Exits
# non-zero if any boot failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

KUNIT=() CHECKS=0 SOC=0 KEYFLIP=0 FLIPS=200 FILTER= PREPARE=1 HOST_LOAD=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kunit) [[ ${3:-} =~ ^[0-9]+$ ]] || die "--kunit ARCH N"
		 KUNIT+=("$2:$3"); shift 3 ;;
	--checks) CHECKS=$2; shift 2 ;;
	--soc) SOC=$2; shift 2 ;;
	--keyflip) KEYFLIP=$2; shift 2 ;;
	--flips) FLIPS=$2; shift 2 ;;
	--filter) FILTER=$2; shift 2 ;;
	--no-prepare) PREPARE=0; shift ;;
	--host-load) HOST_LOAD=1; shift ;;
	-h|--help) sed -n '3,36p' "$0"; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
for n in "$CHECKS" "$SOC" "$KEYFLIP" "$FLIPS"; do
	[[ $n =~ ^[0-9]+$ ]] || die "counts are non-negative integers"
done
if [ ${#KUNIT[@]} -eq 0 ] && [ "$CHECKS" = 0 ] && [ "$SOC" = 0 ] && [ "$KEYFLIP" = 0 ]; then
	KUNIT=(x86_64:50 arm64:20) CHECKS=30
fi

"$REPO/scripts/setup.sh" || die "package installation failed"
[ $PREPARE = 0 ] || "$REPO/scripts/prepare-tree.sh" || exit 1
FLAKE=$BUILD/flake
mkdir -p "$FLAKE"
export PYTHONDONTWRITEBYTECODE=1
status=0
SUMMARY=()
begin=$(date +%s)

LOADERS=()
if [ $HOST_LOAD = 1 ]; then
	for i in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		LOADERS+=($!)
	done
	trap 'kill "${LOADERS[@]}" 2>/dev/null' EXIT
	log "host load: ${#LOADERS[@]} CPU-bound processes beside every build and boot"
fi

keep() { # log name
	cp "$1" "$FLAKE/$2"
	log "kept $FLAKE/$2"
}

for spec in "${KUNIT[@]}"; do
	arch=${spec%:*} n=${spec#*:} run=${spec%:*}-debug
	kunit_opts "$run"
	start=$(date +%s) bad=0 booted=0
	for i in $(seq 1 "$n"); do
		out=$FLAKE/kunit-$run.log
		if [ "$i" = 1 ]; then
			# Builds only if the tree or config changed.
			cmd=(run --jobs="$(nproc)")
		else
			cmd=(exec)
		fi
		kunit_boot "$run" "$out" "${cmd[@]}" "${KUNIT_OPTS[@]}" \
			${FILTER:+"$FILTER"} 2>/dev/null
		rc=$?
		booted=$i
		kunit_result "$run" "$out" > "$out.why" 2>&1
		sed "s/^/boot $i: /" "$out.why"
		if [ $rc -ne 0 ] || [ "$KUNIT_FAIL" -ne 0 ]; then
			bad=$((bad + 1))
			grep -E '\[FAILED\]|# .*: (EXPECTATION|ASSERTION) FAILED' "$out" | head -10
			keep "$out" "kunit-$run-boot$i.log"
			keep "$out.raw" "kunit-$run-boot$i.raw.log"
			keep "$BUILD/$run/test.log" "kunit-$run-boot$i.test.log"
		fi
		echo "kunit $run boot $i/$n: $KUNIT_PASS passed, $KUNIT_FAIL failed (exit $rc)"
		if [ "$i" = 1 ] && [ ! -s "$out.ktap" ]; then
			tail -20 "$out.raw"
			log "$run: the build failed; no more boots of it"
			break
		fi
	done
	SUMMARY+=("kunit $run${FILTER:+ ($FILTER)}: $booted boots, $((booted - bad)) clean, $bad not ($(( $(date +%s) - start )) s)")
	[ $bad -eq 0 ] || status=1
done

if [ "$CHECKS" -gt 0 ] || [ "$KEYFLIP" -gt 0 ]; then
	[ "$CHECKS" -gt 0 ] && build_kernel patched "$SRC"
	if [ "$KEYFLIP" -gt 0 ]; then
		prepare_baseline_tree
		build_kernel baseline "$BASE_SRC"
	fi
	make_initramfs
fi

if [ "$CHECKS" -gt 0 ]; then
	start=$(date +%s) bad=0
	for i in $(seq 1 "$CHECKS"); do
		out=$FLAKE/checks.log
		res=$(QEMU_TIMEOUT=600 boot "$out" patched guest_mode=checks)
		echo "checks boot $i/$CHECKS: ${res:-no result}"
		if ! grep -q ' 0 failed' <<<"$res"; then
			bad=$((bad + 1))
			[ -n "$res" ] && grep -a '^FAIL' "$out"
			[ -n "$res" ] || guest_failed "checks boot $i" "$out"
			keep "$out" "checks-boot$i.log"
		fi
	done
	SUMMARY+=("checks: $CHECKS boots, $((CHECKS - bad)) clean, $bad not ($(( $(date +%s) - start )) s)")
	[ $bad -eq 0 ] || status=1
fi

if [ "$SOC" -gt 0 ]; then
	build_kernel patched-arm64 "$SRC"
	make_initramfs_arm64
	for board in hikey960 hikey; do
		soc_dtb $board
		start=$(date +%s) bad=0
		for i in $(seq 1 "$SOC"); do
			out=$FLAKE/soc-$board.log
			res=$(QEMU_TIMEOUT=900 boot_soc "$out" patched-arm64 $board \
				"guest_mode=soc board=$board soc=checks sched_verbose" \
				-icount shift=0,sleep=off)
			echo "soc $board boot $i/$SOC: ${res:-no result}"
			# The guest's own PASS/FAIL lines name what they looked for.
			if [ "$res" != "soc $board checks ok" ] ||
			   grep -avE '^(PASS|FAIL) ' "$out" | grep -qE 'Oops|BUG:|WARNING:|Kernel panic'; then
				bad=$((bad + 1))
				grep -a '^FAIL' "$out"
				if [ -z "$res" ] ||
				   grep -avE '^(PASS|FAIL) ' "$out" | grep -qE 'Oops|BUG:|WARNING:|Kernel panic'; then
					guest_failed "soc $board boot $i" "$out"
				fi
				keep "$out" "soc-$board-boot$i.log"
			fi
		done
		SUMMARY+=("soc $board checks: $SOC boots, $((SOC - bad)) clean, $bad not ($(( $(date +%s) - start )) s)")
		[ $bad -eq 0 ] || status=1
	done
fi

if [ "$KEYFLIP" -gt 0 ]; then
	for mode in multi single; do
		start=$(date +%s) crashed=0
		for i in $(seq 1 "$KEYFLIP"); do
			out=$FLAKE/keyflip-$mode.log
			mttcg=
			[ $mode = multi ] && mttcg=1
			res=$(GUEST_MTTCG=$mttcg QEMU_TIMEOUT=900 boot "$out" baseline \
				"guest_mode=keyflip keyflip_n=$FLIPS")
			if [ "$res" = "keyflip $FLIPS of $FLIPS" ] &&
			   ! grep -aqE 'Oops|BUG:|WARNING:|Kernel panic' "$out"; then
				echo "keyflip $mode boot $i/$KEYFLIP: clean, $FLIPS flips"
				continue
			fi
			crashed=$((crashed + 1))
			flips=$(grep -a '^keyflip: [0-9]*$' "$out" | tail -1 | cut -d' ' -f2)
			echo "keyflip $mode boot $i/$KEYFLIP: ${res:-no result} after ${flips:-0} flips; $(grep -aE -m1 'Oops|BUG:|WARNING:|Kernel panic' "$out")"
			grep -aE -m1 -A3 'Oops|BUG:' "$out" | grep -aE 'RIP|Oops|BUG' | head -2
			keep "$out" "keyflip-$mode-boot$i.log"
		done
		SUMMARY+=("keyflip, $mode-threaded TCG, pristine 6.12: $crashed of $KEYFLIP boots crashed, $FLIPS flips each ($(( $(date +%s) - start )) s)")
		[ $mode = single ] && [ $crashed -gt 0 ] && status=1
	done
fi

echo "== flake.sh summary ($(( $(date +%s) - begin )) s${LOADERS:+, host loaded: ${#LOADERS[@]} CPU-bound processes})"
printf '%s\n' "${SUMMARY[@]}"
exit $status
