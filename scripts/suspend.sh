#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Suspend to idle with WALT selected and a load running: the debug kernels
# of scripts/stress.sh, on x86_64 (2 vCPUs) and on the virtual HiKey960
# (arm64, 8 vCPUs, EAS), each suspended CYCLES times in a row and woken by
# its RTC's alarm (scripts/guest/suspend-cycles.sh). Fails unless every cycle
# suspended, WALT counted none of the suspended time as busy time on the
# loaded CPU nor in the load's demand, and the kernel log is clean. About
# 5 min per architecture warm (a cold kernel build adds 5-10 min each).
#
#   scripts/suspend.sh [--arch x86_64|arm64] [--cycles N] [--inject-bug]
#
# --inject-bug builds the kernel with a counted suspend: a CPU's sync
# while the system suspends (pm_suspend_target_state set) charges the
# interval as busy, and then succeeds only if the guest reports CPU 1
# busier after the suspend than before (arm64 unless --arch says
# otherwise). The SoC guest has no cpuidle driver, so suspend to idle does
# not freeze its tick and timekeeping (tick_freeze() needs an idle state
# that enters s2idle): sched_clock and the idle CPUs' ticks run through the
# sleep, which WALT sees as idle windows, as with a stable TSC. (With the
# tick frozen, sched_clock would stop for the sleep, and WALT see none.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

arches="x86_64 arm64" cycles=20 inject=0
while [ $# -gt 0 ]; do
	case $1 in
	--arch) [ $# -ge 2 ] || die "--arch takes a value"; arches=$2; shift 2 ;;
	--cycles) [ $# -ge 2 ] || die "--cycles takes a value"; cycles=$2; shift 2 ;;
	--inject-bug) inject=1; shift ;;
	*) die "usage: $0 [--arch x86_64|arm64] [--cycles N] [--inject-bug]" ;;
	esac
done
case $arches in x86_64|arm64|"x86_64 arm64") ;; *) die "--arch takes x86_64 or arm64" ;; esac
[[ $cycles =~ ^[0-9]+$ ]] && [ "$cycles" -ge 1 ] || die "--cycles takes an integer >= 1"
[ $inject = 1 ] && [ "$arches" = "x86_64 arm64" ] && arches=arm64

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh"

if [ $inject = 1 ]; then
	f=$SRC/kernel/sched/walt.c
	[ "$(grep -c '^static void walt_sync(struct rq \*rq, u64 now, bool busy)$' "$f")" = 1 ] ||
		die "cannot find walt_sync() in $f"
	sed -i '/^static void walt_sync(struct rq \*rq, u64 now, bool busy)$/,/^{$/ s/^{$/{\n\tbusy |= pm_suspend_target_state != PM_SUSPEND_ON; \/* injected *\//' "$f"
	sed -i '0,/^#include <linux\/cpuhotplug.h>$/ s//#include <linux\/cpuhotplug.h>\n#include <linux\/suspend.h>/' "$f"
	grep -q 'injected \*/' "$f" && grep -q '^#include <linux/suspend.h>$' "$f" ||
		die "the fault was not injected"
	log "injected: a CPU's sync while the system suspends charges the interval as busy"
fi
# The next prepare-tree.sh run restores walt.c from pristine + series.

status=0
for arch in $arches; do
	if [ $arch = x86_64 ]; then
		build_kernel stress "$SRC" "$REPO/scripts/guest/stress.config"
		make_initramfs
		out=$GUEST/suspend.log
		log "booting: $cycles suspends to idle (x86_64, 2 vCPUs, debug kernel)"
		start=$(date +%s)
		# The PC's RTC wakes suspend to idle only by its alarm's IRQ 8:
		# under ACPI it would wake through the ACPI RTC event, which
		# QEMU raises for a guest in S3 only, and this kernel has no
		# ACPI, where rtc-cmos makes the RTC no wake-up source unless
		# asked to (rtc_cmos.alarm_irq_wakes, a test-only patch:
		# patches/test/). hpet=disable: with the HPET, rtc-cmos
		# emulates the alarm on an HPET timer, not IRQ 8. tsc=reliable:
		# the vCPUs of TCG take turns, the clocksource watchdog's
		# jiffies may lag the TSC, and then it falls back to
		# refined-jiffies, whose 4 ms steps WALT would count in (the
		# guest CPU's TSC is constant: lib-qemu.sh's GUEST_CPU).
		# -icount and the RTC on the guest clock, as on the SoC below;
		# 2 vCPUs, the writer's and the load's.
		res=$(GUEST_LOGLEVEL=5 QEMU_CPUS=2 QEMU_MEM=2048 QEMU_TIMEOUT=$((cycles * 30 + 600)) \
			boot "$out" stress "guest_mode=suspend-cycles suspend_cycles=$cycles rtc_cmos.alarm_irq_wakes=1 hpet=disable tsc=reliable no_console_suspend log_buf_len=16M" \
			-icount shift=0,sleep=off -rtc clock=vm)
	else
		cat "$REPO/scripts/guest/stress.config" "$REPO/scripts/guest/stress-soc.config" \
			> "$BUILD/stress-arm64.extra"
		build_kernel stress-arm64 "$SRC" "$BUILD/stress-arm64.extra"
		make_initramfs_arm64
		QEMU_MEM=1024 soc_dtb hikey960
		out=$GUEST/suspend-hikey960.log
		log "booting: $cycles suspends to idle (the virtual hikey960, arm64, 8 vCPUs, debug kernel)"
		start=$(date +%s)
		# -icount: guest time counts instructions, so the load's 25%
		# is 25% of CPU 1 whatever the host runs (in real time the
		# vCPUs of single-threaded TCG take turns, and a debug kernel's
		# CPU 1 read busy for whole windows); the RTC on that clock
		# (-rtc clock=vm), so the alarm's 2 s pass in guest time while
		# every vCPU idles.
		res=$(GUEST_LOGLEVEL=5 QEMU_MEM=1024 QEMU_TIMEOUT=$((cycles * 90 + 900)) \
			boot_soc "$out" stress-arm64 hikey960 \
			"guest_mode=suspend-cycles suspend_cycles=$cycles log_buf_len=16M" \
			-icount shift=0,sleep=off -rtc clock=vm)
	fi
	grep -aE '^(== suspend|cycle |suspend:|SUSPEND)' "$out" | tail -25 || true
	[ -n "$res" ] || guest_failed "suspend $arch" "$out"
	log "suspend $arch: ${res:-the guest did not finish} (guest ran $(( $(date +%s) - start )) s; log $out)"
	res=$(console_checked "$res" "$out" suspend)
	if [ $inject = 1 ]; then
		[ "$res" = "suspend found problems" ] &&
			grep -aqE "SUSPEND PROBLEM: cycle .*: CPU [0-9]+ busy" "$out" ||
			die "the injected fault was not caught"
		log "the injected fault was caught: the suspended time counted as busy"
		continue
	fi
	[ "$res" = "suspend clean" ] || {
		grep -aE -A12 "$KERNEL_REPORTS|SUSPEND PROBLEM" "$out" | head -40
		status=1
	}
done
exit $status
