#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reliability stress: boot the patched kernel built with the debug options
# of the KUnit debug run (lockdep, atomic-sleep and preemption checks,
# UBSAN, KASAN) and CONFIG_SCHED_UTIL_CHECKS, and run
# scripts/guest/churn.sh for a bounded time: loads, CPU hotplug, boost
# group churn (schedtune on cgroup v1, then cpu.boost on v2) with random
# boosts and prefer_idle, schedutil pl/hispeed_freq churn, signal
# switching and affinity changes. Fails unless the guest finishes with a
# clean kernel log.
#
#   scripts/stress.sh [--board hikey960] [--seconds N] [--inject-bug]
#
# Without --board: x86_64 on 4 vCPUs, with hackbench and stress-ng. With
# --board hikey960: the virtual SoC (arm64, 8 vCPUs of two clusters, EAS
# on, scripts/run.sh soc), with rt-app's Android workloads, migrating
# wake-ups and forks; the guest also checks that EAS is on again once
# every CPU is back; its QEMU monitor listens on
# $BUILD/guest/stress-hikey960.monitor (a UNIX socket: "info registers -a"
# shows where each vCPU is). Either takes about secs + 5 min warm (a cold
# kernel build adds 5-15 min).
#
# --inject-bug builds the kernel with the migration hook skipped for queued
# tasks (load balancing, affinity, hotplug, RT/DL push/pull) and then
# succeeds only if the consistency checks catch it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

secs=300 inject=0 board=
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || die "--seconds takes a value"; secs=$2; shift 2 ;;
	--inject-bug) inject=1; shift ;;
	--board) [ $# -ge 2 ] || die "--board takes a value"; board=$2; shift 2 ;;
	*) die "usage: $0 [--board hikey960] [--seconds N] [--inject-bug]" ;;
	esac
done
[ -z "$board" ] || [ "$board" = hikey960 ] || die "--board takes hikey960"
[[ $secs =~ ^[0-9]+$ ]] && [ "$secs" -ge 10 ] || die "--seconds takes an integer >= 10"

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh"

if [ $inject = 1 ]; then
	f=$SRC/kernel/sched/core.c
	grep -q '^		sched_util_hook_migrate(p, new_cpu);$' "$f" ||
		die "cannot find the migration hook in $f"
	# A queued task reaches set_task_cpu() after deactivate_task(), so
	# with p->on_rq == TASK_ON_RQ_MIGRATING, never TASK_ON_RQ_QUEUED.
	sed -i 's/^		sched_util_hook_migrate(p, new_cpu);$/		if (!task_on_rq_migrating(p)) \/* injected bug *\/\n&/' "$f"
	log "injected: set_task_cpu() skips the migration hook for queued tasks"
fi
# The next prepare-tree.sh run restores core.c from pristine + series.

if [ -z "$board" ]; then
	out=$GUEST/stress.log
	build_kernel stress "$SRC" "$REPO/scripts/guest/stress.config"
	make_initramfs
	log "booting: stress for $secs s (x86_64, 4 vCPUs, debug kernel)"
	start=$(date +%s)
	# Single-threaded TCG, as every guest (guest_accel).
	res=$(GUEST_LOGLEVEL=5 QEMU_CPUS=4 QEMU_MEM=2048 QEMU_TIMEOUT=$((secs * 3 + 600)) \
		boot "$out" stress "guest_mode=churn stress_seconds=$secs log_buf_len=16M")
else
	out=$GUEST/stress-$board.log
	cat "$REPO/scripts/guest/stress.config" "$REPO/scripts/guest/stress-soc.config" \
		> "$BUILD/stress-arm64.extra"
	build_kernel stress-arm64 "$SRC" "$BUILD/stress-arm64.extra"
	make_initramfs_arm64
	QEMU_MEM=1024 soc_dtb "$board"
	log "booting: stress for $secs s (the virtual $board, arm64, 8 vCPUs, debug kernel)"
	start=$(date +%s)
	# sched_verbose: the root domain's EAS state in the kernel log, which
	# its domain dumps at every hotplug would wrap at the default size.
	res=$(GUEST_LOGLEVEL=5 QEMU_MEM=1024 QEMU_TIMEOUT=$((secs * 3 + 900)) \
		boot_soc "$out" stress-arm64 "$board" \
		"guest_mode=churn stress_seconds=$secs stress_lockcount=0 sched_verbose log_buf_len=16M" \
		-monitor "unix:$GUEST/stress-$board.monitor,server,nowait")
fi
grep -aE '^(stress|STRESS|[a-z-]+=)' "$out" || true
[ -n "$res" ] || guest_failed stress "$out"
log "stress: ${res:-the guest did not finish} (guest ran $(( $(date +%s) - start )) s; log $out)"
res=$(console_checked "$res" "$out" stress)
if [ $inject = 1 ]; then
	grep -aE 'walt:|schedtune:' "$out" | head -5
	[ "$res" = "stress found kernel reports" ] &&
		grep -aqE 'walt: .* a migration skipped the hook' "$out" ||
		die "the injected bug was not caught"
	log "the injected bug was caught by the consistency checks"
	exit 0
fi
[ "$res" = "stress clean" ] || {
	grep -aE -A12 "$KERNEL_REPORTS|STRESS PROBLEM" "$out" | head -60
	exit 1
}
