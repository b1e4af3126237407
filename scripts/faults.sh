#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection: the x86_64 debug kernel of scripts/stress.sh with
# failslab, fail_page_alloc and kmemleak (scripts/guest/faults.config),
# on 4 vCPUs. The guest (scripts/guest/fault-ops.sh) creates, boosts, fills
# and removes boost groups (schedtune on cgroup v1, then cpu.boost on v2)
# and switches the signal and schedutil's pl, each operation with fault
# injection aimed at it alone. Fails unless every failure was a clean
# ENOMEM that changed nothing, kmemleak finds nothing the series
# allocated, and the kernel log is clean. About secs + 5 min warm (a cold
# kernel build adds 5-10 min).
#
#   scripts/faults.sh [--seconds N] [--inject-leak]
#
# --inject-leak builds the kernel with schedtune's css_free() not freeing
# the group, and then succeeds only if kmemleak reports it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

secs=120 inject=0
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || die "--seconds takes a value"; secs=$2; shift 2 ;;
	--inject-leak) inject=1; shift ;;
	*) die "usage: $0 [--seconds N] [--inject-leak]" ;;
	esac
done
[[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -ge 10 ] || die "--seconds takes an integer >= 10"

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh"

if [ $inject = 1 ]; then
	f=$SRC/kernel/sched/tune.c
	[ "$(grep -c '^		kfree(st);$' "$f")" = 1 ] || die "cannot find schedtune's kfree() in $f"
	sed -i 's/^		kfree(st);$/		; \/* injected leak *\//' "$f"
	log "injected: schedtune's css_free() does not free the group"
fi
# The next prepare-tree.sh run restores tune.c from pristine + series.

cat "$REPO/scripts/guest/stress.config" "$REPO/scripts/guest/faults.config" > "$BUILD/faults.extra"
build_kernel faults "$SRC" "$BUILD/faults.extra"
make_initramfs

log "booting: fault injection for $secs s (x86_64, 4 vCPUs, debug kernel)"
start=$(date +%s)
out=$GUEST/faults.log
res=$(GUEST_LOGLEVEL=5 QEMU_CPUS=4 QEMU_MEM=2048 QEMU_TIMEOUT=$((secs * 3 + 600)) \
	boot "$out" faults "guest_mode=fault-ops faults_seconds=$secs log_buf_len=16M")
grep -aE '^(faults|FAULTS|[a-z0-9-]+=)' "$out" || true
[ -n "$res" ] || guest_failed faults "$out"
log "faults: ${res:-the guest did not finish} (guest ran $(( $(date +%s) - start )) s; log $out)"
res=$(console_checked "$res" "$out" faults)
if [ $inject = 1 ]; then
	[ "$res" = "faults found problems" ] &&
		grep -aq "kmemleak: objects allocated by the series' code leaked" "$out" ||
		die "the injected leak was not caught"
	grep -a -m3 -A8 '^unreferenced object' "$out" || true
	log "the injected leak was caught by kmemleak"
	exit 0
fi
[ "$res" = "faults clean" ] || {
	grep -aE -A12 "$KERNEL_REPORTS|FAULTS PROBLEM" "$out" | head -60
	exit 1
}
