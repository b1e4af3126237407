#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where Table 3's instructions go: boot the virtual HiKey960 (arm64, EAS,
# -icount) once per configuration of scripts/guest/bench.sh, run one
# benchmark once, and count every instruction the guest executes during it
# with a QEMU plugin (scripts/qemu-profile.c): a profile by kernel
# function, exact rather than sampled, per benchmark event.
#
#   scripts/profile.sh [--bench eas-wakeup|periodic|pingpong|migrate]
#                      [--publish] [CONFIG...]
#
# CONFIG: bench.sh's configurations (default: baseline pelt walt). Writes
# $SCHED_UTIL_CACHE/results/profile-BENCH.md: instructions per event
# (eas-wakeup: per wake-up, 4 x 500; periodic: per period; pingpong: per
# round trip; migrate: per round trip) of every function whose count
# differs between the first and the last configuration by at least one,
# the functions of the largest differences first. About 3 min per
# configuration warm. --publish copies it to the repository's results/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

bench=eas-wakeup cfgs=() publish=0
while [ $# -gt 0 ]; do
	case $1 in
	--bench) [ $# -ge 2 ] || die "--bench takes a value"; bench=$2; shift 2 ;;
	--publish) publish=1; shift ;;
	baseline|pelt|walt|walt-pl|pelt8|boost|walt-boost|uclamp) cfgs+=("$1"); shift ;;
	*) die "usage: $0 [--bench eas-wakeup|periodic|pingpong|migrate] [--publish] [CONFIG...]" ;;
	esac
done
case $bench in
eas-wakeup) events=2000 ;;
periodic) events=2000 ;;
pingpong) events=50000 ;;
migrate) events=5000 ;;
*) die "--bench takes eas-wakeup, periodic, pingpong or migrate" ;;
esac
[ ${#cfgs[@]} -gt 0 ] || cfgs=(baseline pelt walt)

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh"
prepare_baseline_tree
build_kernel baseline-arm64 "$BASE_SRC"
build_kernel patched-arm64 "$SRC"
make_initramfs_arm64
soc_dtb hikey960
plugin=$BUILD/qemu-profile.so
gcc -O2 -shared -fPIC -o "$plugin" "$REPO/scripts/qemu-profile.c"

args=()
for cfg in "${cfgs[@]}"; do
	kernel=patched-arm64
	[ $cfg = baseline ] || [ $cfg = uclamp ] && kernel=baseline-arm64
	map=$BUILD/guest-$kernel/System.map
	# The guest calls sync(2) right before and after the benchmark.
	mark=$(awk '$3 == "__arm64_sys_sync" { print $1 }' "$map")
	[ -n "$mark" ] || die "no __arm64_sys_sync in $map"
	dumps=$GUEST/profile-$bench-$cfg.dump
	rm -f "$dumps".*
	log "booting: bench=$cfg, $bench profiled, on the virtual HiKey960 ($kernel kernel)"
	start=$(date +%s)
	res=$(boot_soc "$GUEST/profile-$bench-$cfg.log" $kernel hikey960 \
		"guest_mode=bench bench=$cfg bench_profile=$bench nokaslr" \
		-icount shift=0,sleep=off -plugin "$plugin,mark=$mark,out=$dumps")
	log "profile $cfg: $res in $(( $(date +%s) - start )) s"
	[ "$res" = "bench $cfg ok" ] || die "bench $cfg failed: $GUEST/profile-$bench-$cfg.log"
	# Dumps 1 and 2: the guest's syncs around the benchmark (the
	# kernel syncs nothing by itself; reboot -f at the end adds one).
	[ -s "$dumps.2" ] || die "$cfg: fewer than two dumps (the guest's syncs)"
	args+=("$cfg=$map:$dumps.1:$dumps.2")
done
RESULTS=${SCHED_UTIL_RESULTS:-$CACHE/results}
mkdir -p "$RESULTS"
{
	echo "Instructions per $bench event ($events events) by kernel function, and the calls of each"
	echo "per event: linux $(kernel_version "$SRC") on the virtual HiKey960 (QEMU -icount), one boot each,"
	echo "counted by scripts/profile.sh."
	echo
	python3 "$REPO/scripts/profile.py" $events "${args[@]}"
} | tee "$RESULTS/profile-$bench.md"
[ $publish = 0 ] || cp "$RESULTS/profile-$bench.md" "$REPO/results/"
