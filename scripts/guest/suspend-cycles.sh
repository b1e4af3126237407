# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=suspend-cycles
# (scripts/suspend.sh):
# suspend to idle suspend_cycles= times in a row (20 by default), woken
# each time by the RTC's alarm 2 s ahead (schedbench rtcwake), with WALT
# selected and a load pinned to CPU 1 that runs 4 ms of every 16 ms
# (schedbench duty). WALT's events are traced around each suspend
# (walt_update_task_ravg of CPU 1: its sums and the task's demand at
# every event): 300 ms before it, then from the suspend to 100 ms after
# the resume.
#
# Pass, for every cycle: the system suspended (suspend_stats counted a
# success, and the write to /sys/power/state returned only after a second
# at least: when the alarm woke it); right after the resume (the first
# event once power:suspend_resume says the machine woke), CPU 1's
# prev_runnable_sum is closer to the largest it had before than to a
# window busy throughout, and so is the load's demand (every CPU at its
# top OPP, so that the frequency scales busy time alike): the suspended
# time is not busy time, and the windows that passed meanwhile leave the
# task's history alone. A counted suspend fills the window. Device
# suspend and resume run synchronously (pm_async 0) in the writer, pinned
# to CPU 0, so that CPU 1 runs only the load and
# what the kernel itself runs there. The kernel log has no report.

cycles=20
for arg in $(cat /proc/cmdline); do
	case "$arg" in suspend_cycles=*) cycles=${arg#suspend_cycles=} ;; esac
done
problem() { echo "SUSPEND PROBLEM: $*"; echo "$*" >> /tmp/problems; }

T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
[ -w /sys/power/state ] && grep -qw freeze /sys/power/state || problem "no suspend to idle in /sys/power/state"
[ -e /dev/rtc0 ] || problem "no /dev/rtc0"
# Only a wake-up source's alarm ends suspend to idle.
w=/sys/class/rtc/rtc0/device/power/wakeup
echo "== rtc0: $(cat /sys/class/rtc/rtc0/name 2>/dev/null), wakeup $(cat $w 2>/dev/null || echo 'not capable')"
[ -w $w ] && echo enabled > $w
echo 0 > /sys/power/pm_async || problem "pm_async not settable"
echo walt > /proc/sys/kernel/sched_util_signal || problem "WALT not selected"
# The top OPP throughout: WALT scales busy time by the frequency, and
# schedutil starts anew at resume, so at its own choices the same load
# reads busier or idler after a suspend than before.
for p in /sys/devices/system/cpu/cpufreq/policy*; do
	[ -d "$p" ] || continue
	echo performance > $p/scaling_governor || problem "$p: no performance governor"
done
window=$(cat /proc/sys/kernel/sched_walt_ravg_window)
# The load's CPU; the writer runs on CPU 0.
lc=1
# A window of the load's CPU busy throughout, as WALT scales it at the top OPP.
cap=$(cat /sys/devices/system/cpu/cpu$lc/cpu_capacity 2>/dev/null || echo 1024)
full=$((window * cap / 1024))
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
echo "== suspend: $cycles cycles, WALT window $window ns, clocksource $cs"
# A PC whose TSC the kernel gave up on measures time, WALT's included, in
# 4 ms jiffies.
[ "$(uname -m)" != x86_64 ] || [ "$cs" = tsc ] ||
	problem "clocksource $cs, not the TSC: time in jiffies"

schedbench duty $lc 4000 16000 &
load=$!
taskset -p 1 $$ > /dev/null
# CPU 1's events only (the load runs there): the whole trace of 8 CPUs
# takes the guest minutes to parse.
echo "cpu == $lc" > $T/events/sched/walt_update_task_ravg/filter ||
	problem "walt_update_task_ravg takes no filter"
echo 1 > $T/events/sched/walt_update_task_ravg/enable || problem "no walt_update_task_ravg event"
echo 1 > $T/events/power/suspend_resume/enable || problem "no suspend_resume event"
echo 2048 > $T/buffer_size_kb

ok=0
i=0
while [ $i -lt $cycles ] && [ ! -s /tmp/problems ]; do
	i=$((i + 1))
	success=$(cat /sys/power/suspend_stats/success)
	# Each trace is read with recording off: the vCPU reading it keeps
	# single-threaded TCG to itself for up to its round-robin period
	# (100 ms of guest time), and CPU 1's task, current all along,
	# reads busy for that long.
	echo > $T/trace
	echo 1 > $T/tracing_on
	sleep 0.3
	echo 0 > $T/tracing_on
	cat $T/trace > /tmp/before
	echo > $T/trace
	echo 1 > $T/tracing_on
	slept=$(schedbench rtcwake 2) || problem "cycle $i: rtcwake: $slept"
	sleep 0.1
	echo 0 > $T/tracing_on
	cat $T/trace > /tmp/after
	[ "$(cat /sys/power/suspend_stats/success)" -gt "$success" ] ||
		problem "cycle $i: suspend_stats counted no success"
	# slept BOOTTIME_S MONOTONIC_S
	set -- $slept
	awk -v b="$2" 'BEGIN { exit !(b >= 1) }' ||
		problem "cycle $i: not suspended until the alarm: boottime +$2 s, monotonic +$3 s"
	# Before: the largest of the load CPU's prev_runnable_sum and of the
	# load's demand. After: the same at the first event of each once the
	# system woke (power:suspend_resume's machine_suspend end), which is
	# what schedutil and placement read right after the resume; a counted
	# suspend makes it a window busy throughout. The largest after the
	# resume is shown too, not judged: under TCG a vCPU's current task or
	# IRQ reads busy while another vCPU runs, as CPU 0 runs the devices'
	# resume, and that inflates the windows after it.
	res=$(awk -v load=$load -v lc=$lc '
		FNR == 1 { phase = (FILENAME == "/tmp/after"); woke = 0 }
		phase && /suspend_resume: machine_suspend/ && / end/ { woke = 1 }
		/walt_update_task_ravg:/ {
			cpu = -1; ps = -1; pid = -1; demand = -1
			for (k = 1; k < NF; k++) {
				if ($k == "cpu") cpu = $(k + 1)
				else if ($k == "ps") ps = $(k + 1)
				else if ($k == "task") pid = $(k + 1)
				else if ($k == "demand") demand = $(k + 1)
			}
			if (cpu == lc) {
				n[phase]++
				if (ps > p[phase]) p[phase] = ps
				if (woke && !pw) { pw = 1; pr = ps }
			}
			if (pid == load) {
				m[phase]++
				if (demand > d[phase]) d[phase] = demand
				if (woke && !dw) { dw = 1; dr = demand }
			}
		}
		END {
			printf "cpu %d %d %d %d %d load %d %d %d %d %d\n", n[0], n[1], p[0],
				pw ? pr : -1, p[1], m[0], m[1], d[0], dw ? dr : -1, d[1]
		}' /tmp/before /tmp/after)
	echo "cycle $i: slept $slept; $res"
	set -- $res
	# cpu EVENTS_BEFORE EVENTS_AFTER PS_BEFORE PS_RESUMED PS_AFTER_MAX,
	# load (the same with the demand); -1: no event after the resume
	[ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ "$8" -gt 0 ] && [ "$9" -gt 0 ] &&
		[ "$5" -ge 0 ] && [ "${11}" -ge 0 ] ||
		problem "cycle $i: too few events to compare: $res"
	[ "$5" -le $((($4 + full) / 2)) ] ||
		problem "cycle $i: CPU $lc busy $5 ns of a window right after the resume, $4 at most before, $full a full window"
	[ "${11}" -le $(((${10} + full) / 2)) ] ||
		problem "cycle $i: the load's demand ${11} ns right after the resume, ${10} at most before, $full a full window"
	if [ -s /tmp/problems ]; then
		# What WALT saw: the load CPU's events before and after this suspend.
		echo "== cycle $i: CPU $lc's events, the last 20 before and all after"
		grep -v '^#' /tmp/before | tail -20
		echo "== suspend"
		grep -v '^#' /tmp/after
		echo "== events end"
	else
		ok=$((ok + 1))
	fi
done
echo 0 > $T/events/sched/walt_update_task_ravg/enable
echo 0 > $T/events/power/suspend_resume/enable
kill $load
echo "suspend: $ok of $cycles cycles clean"

dmesg | grep -E "$KERNEL_REPORTS" > /tmp/reports
if [ -s /tmp/reports ]; then
	head -20 /tmp/reports
	echo "GUEST RESULT: suspend found kernel reports"
elif [ -s /tmp/problems ] || [ $ok -lt $cycles ]; then
	echo "GUEST RESULT: suspend found problems"
else
	echo "GUEST RESULT: suspend clean"
fi
