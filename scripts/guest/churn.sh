# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=churn (scripts/stress.sh):
# for stress_seconds= (kernel command line) seconds, concurrently:
# loads (x86_64: hackbench and stress-ng cpu/fork/yield stressors; the
# virtual SoC, which has neither: rt-app's Android workloads, schedbench's
# migrating wake-ups and shell forks), CPU hotplug of every CPU but 0,
# boost groups created, boosted at random (schedtune.prefer_idle too),
# filled with random tasks and removed (schedtune on cgroup v1 for the
# first half, the cpu controller's cpu.boost on v2 for the second), the
# signals switched (PELT or WALT for both roles or each, WALT tracking
# side by side, PELT's half-life), schedutil's pl and hispeed_freq set and
# cleared on random policies (pl starts and stops WALT's predicted sums; a
# policy's last CPU going offline frees its tunables), and random affinity
# changes, with the scheduler's WARN_DOUBLE_CLOCK feature on. Where the
# board has an Energy Model, EAS must be on again once every CPU is back
# (with sched_verbose, the last of the kernel's "starting EAS" and
# "stopping EAS" lines is a start). Pass: the guest finishes and the
# kernel log has no WARN, BUG, lockdep, KASAN or UBSAN report (the series'
# consistency checks WARN).
#
# Before that (unless stress_lockcount=0), on the quiet system, rq lock
# acquisitions per operation (&rq->__lock in /proc/lock_stat,
# CONFIG_LOCK_STAT) with PELT, with
# WALT, and with WALT and a SchedTune boost, on the two paths where 6.12
# takes none: a waking migration (schedbench migrate) and an IRQ that
# interrupts an idle CPU (schedbench ipi), under the performance governor.
# Neither may add any. The locking version of WALT added 3.95 and 2.25 per
# operation; the background moves the count by up to about one per
# migrating round trip (its waker polls and yields a varying number of
# times, with any signal) and a quarter per IPI: 2 and 1 more are
# problems. Those bounds are the x86_64 guest's (4 vCPUs); the virtual
# SoC's run leaves the count out.

secs=300 lockcount=1 hotplug=1
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	stress_seconds=*) secs=${arg#stress_seconds=} ;;
	stress_lockcount=*) lockcount=${arg#stress_lockcount=} ;;
	stress_hotplug=*) hotplug=${arg#stress_hotplug=} ;;
	esac
done
ncpu=$(grep -c ^processor /proc/cpuinfo)
alive() { [ "$(date +%s)" -lt "${1:-$end}" ]; }
count() { echo 1 >> "/tmp/count.$1"; }
rnd() { echo $((RANDOM % $1)); }
problem() { echo "STRESS PROBLEM: $*"; echo "$*" >> /tmp/problems; }

echo 0 > /proc/sys/kernel/printk_ratelimit 2>/dev/null

rq_locks() {
	awk '$1 ~ /^&rq->__lock(\/[0-9]+)?:$/ { n += $9 } END { print n + 0 }' /proc/lock_stat
}
# lockcount OPS LIMIT NAME CMD...: "LOCKS,NAME,CONFIG,ACQUISITIONS,OPS" for
# PELT, WALT, and WALT with CMD in a SchedTune group boosted 10; a problem
# if WALT adds LIMIT acquisitions per operation or more. The count is of
# the whole guest while CMD runs: ticks and load balancing add to it as
# long as CMD takes, and without -icount a host that also builds a kernel
# stretches it (one such run read 17.1 per operation with walt-boost
# against 14.8 with PELT, and 15.0 against 14.6 on a quiet host); the
# least of three runs counts.
lockcount() {
	local ops=$1 limit=$2 name=$3 cfg n m i pelt=0
	shift 3
	for cfg in pelt walt walt-boost; do
		echo ${cfg%-boost} > /proc/sys/kernel/sched_util_signal || problem "select $cfg"
		if [ $cfg = walt-boost ]; then
			mkdir -p /dev/stune && mount -t cgroup -o schedtune none /dev/stune &&
				mkdir /dev/stune/lockcount &&
				echo 10 > /dev/stune/lockcount/schedtune.boost &&
				echo $$ > /dev/stune/lockcount/tasks || problem "lockcount: boost group"
		fi
		"$@" >/dev/null || problem "lockcount $name $cfg (warm-up)"
		n=
		for i in 1 2 3; do
			echo 0 > /proc/lock_stat
			"$@" >/dev/null || problem "lockcount $name $cfg"
			m=$(rq_locks)
			[ -z "$n" ] || [ "$m" -lt "$n" ] && n=$m
		done
		echo "LOCKS,$name,$cfg,$n,$ops"
		if [ $cfg = walt-boost ]; then
			echo $$ > /dev/stune/tasks
			rmdir /dev/stune/lockcount
			umount /dev/stune
		fi
		[ $cfg = pelt ] && pelt=$n && continue
		awk -v p=$pelt -v w=$n -v o=$ops -v l=$limit -v name="$name" -v cfg=$cfg 'BEGIN {
			printf "lockcount: %s: %.2f rq lock acquisitions per operation with PELT, %.2f with %s\n", name, p / o, w / o, cfg
			exit !((w - p) / o >= l) }' &&
			problem "$cfg takes rq locks on the $name path: $pelt with PELT, $n with $cfg"
	done
}
if [ $lockcount = 0 ]; then
	echo "stress: no lock count (stress_lockcount=0)"
elif [ -w /proc/lock_stat ]; then
	# A change of frequency wakes schedutil's kthread, and those wake-ups
	# take rq locks at a rate that the signal and the boost set (a boost
	# that comes and goes with the task moves the frequency at each
	# wake-up): count with the frequency held still, so that only the
	# hooks' own locking counts.
	govs=$(ls /sys/devices/system/cpu/cpufreq/policy*/scaling_governor 2>/dev/null)
	for g in $govs; do echo performance > $g || problem "governor $g"; done
	lockcount 2000 2 "waking migration" schedbench migrate 2000
	# /dev/cpu/N/cpuid, the IPI source, is x86's.
	[ -e /dev/cpu/1/cpuid ] &&
		lockcount 5000 1 "IRQ on an idle CPU" schedbench ipi 1 5000
	for g in $govs; do echo schedutil > $g || problem "governor $g"; done
	echo pelt > /proc/sys/kernel/sched_util_signal
else
	problem "no /proc/lock_stat (CONFIG_LOCK_STAT)"
fi

# An rq clock updated twice under one rq lock warns from here on: WALT
# accounts migrations' arrivals, and CPU hotplug and affinity changes move
# queued tasks (move_queued_task(), which activates with no
# ENQUEUE_NOCLOCK).
echo WARN_DOUBLE_CLOCK > /sys/kernel/debug/sched/features ||
	problem "WARN_DOUBLE_CLOCK not in /sys/kernel/debug/sched/features"

start=$(date +%s)
end=$((start + secs))
half=$((start + secs / 2))
echo "stress: $secs s on $ncpu CPUs"

if command -v hackbench >/dev/null; then
	(while alive; do hackbench -p -g 2 -l 50 >/dev/null 2>&1; count hackbench; done) &
	stress-ng --cpu 2 --fork 2 --yield 2 --timeout "${secs}s" --quiet >/dev/null 2>&1 &
else
	# One workload at a time: on 8 vCPUs that single-threaded TCG runs
	# in turn, a debug kernel under three at once made no progress.
	(while alive; do
		for w in /guest/rt-app/*.json; do
			alive && rt-app "$w" >/dev/null 2>&1 && count rt-app
		done
	done) &
	# It pins to CPUs 0 and 1, and fails while CPU 1 is offline.
	(while alive; do
		schedbench migrate 500 >/dev/null 2>&1 && count migrate || sleep 0.2
	done) &
	(while alive; do
		for i in 1 2 3 4; do (i=0; while [ $i -lt 300 ]; do i=$((i + 1)); done) & done
		wait; count fork
	done) &
fi

# stress_hotplug=0 leaves it out, =slow waits 1-3 s between operations
# instead of 0.1-0.5 s (to tell a hang of hotplug from others).
[ $hotplug != 0 ] && (while alive; do
	c=$((1 + $(rnd $((ncpu - 1)))))
	f=/sys/devices/system/cpu/cpu$c/online
	if [ "$(cat $f)" = 1 ]; then echo 0 > $f && count offline; else echo 1 > $f && count online; fi
	if [ $hotplug = slow ]; then sleep $((1 + $(rnd 3))); else sleep 0.$((1 + $(rnd 5))); fi
done
for c in $(seq 1 $((ncpu - 1))); do echo 1 > /sys/devices/system/cpu/cpu$c/online; done) &

# Signals: mostly WALT selected or not; now and then one role only (the
# Android knobs), WALT tracking side by side, runnable wait in demand or
# PELT's half-life.
(k=/proc/sys/kernel
while alive; do
	echo walt > $k/sched_util_signal && count walt
	sleep 0.$((1 + $(rnd 9)))
	case $(rnd 5) in
	0) echo 0 > $k/sched_use_walt_task_util && count walt-freq-only ;;
	1) echo 1 > $k/sched_walt_track && count track ;;
	2) echo $(rnd 2) > $k/sched_walt_account_wait_time && count wait-time ;;
	esac
	echo pelt > $k/sched_util_signal && count pelt
	sleep 0.$((1 + $(rnd 9)))
	case $(rnd 4) in
	0) echo 1 > $k/sched_use_walt_task_util && count walt-place-only ;;
	1) echo 0 > $k/sched_walt_track ;;
	2) echo $((1 << $(rnd 3))) > $k/sched_pelt_multiplier && count pelt-multiplier ;;
	esac
done
echo 0 > $k/sched_walt_track
echo 0 > $k/sched_walt_account_wait_time
echo 1 > $k/sched_pelt_multiplier) &

(while alive; do
	for d in /sys/devices/system/cpu/cpufreq/policy*/schedutil; do
		[ $(rnd 3) = 0 ] || continue
		# The policy's last CPU may have gone offline since the glob.
		{ echo $(rnd 2) > $d/pl; } 2>/dev/null && count pl
		{ echo $(( $(rnd 2) * 960000 )) > $d/hispeed_freq; } 2>/dev/null && count hispeed
	done
	sleep 0.$((1 + $(rnd 5)))
done
for d in /sys/devices/system/cpu/cpufreq/policy*/schedutil; do
	{ echo 0 > $d/pl; echo 0 > $d/hispeed_freq; } 2>/dev/null
done) &

(while alive; do
	for p in $(ls /proc 2>/dev/null | grep -E '^[0-9]+$' | sed -n "$((1 + $(rnd 20)))p"); do
		taskset -p $((1 + $(rnd $(((1 << ncpu) - 1))))) $p >/dev/null 2>&1 && count affinity
	done
	sleep 0.1
done) &

# Boost churn under $1 (a mounted hierarchy) until $2; $3 is the file of
# a group's tasks, $4 that of its boost.
churn() {
	root=$1 until=$2
	while alive $until; do
		g=$root/g$(rnd 12)
		[ -d $g ] || { mkdir -p $g && count mkdir; }
		# A nested group now and then.
		[ $(rnd 4) = 0 ] && mkdir -p $g/n 2>/dev/null
		echo $(($(rnd 201) - 100)) > $g/$4 && count boost
		[ -f $g/schedtune.prefer_idle ] &&
			echo $(rnd 2) > $g/schedtune.prefer_idle && count prefer_idle
		for p in $(ls /proc 2>/dev/null | grep -E '^[0-9]+$' | sed -n "$((1 + $(rnd 30)))p"); do
			echo $p > $g/$3 2>/dev/null && count move
		done
		# Empty a group back into the root and remove it.
		v=$root/g$(rnd 12)
		if [ -d $v ] && [ $(rnd 3) = 0 ]; then
			for f in $v/n/$3 $v/$3; do
				[ -f $f ] && for p in $(cat $f); do echo $p > $root/$3 2>/dev/null; done
			done
			rmdir $v/n 2>/dev/null
			rmdir $v 2>/dev/null && count rmdir
		fi
	done
	remove_groups $root $3
}
mkdir -p /dev/stune /sys/fs/cgroup
(mount -t cgroup -o schedtune none /dev/stune || problem "no schedtune on v1"
 churn /dev/stune $half tasks schedtune.boost
 stune_leave_v1
 mount -t cgroup2 none /sys/fs/cgroup
 echo +cpu > /sys/fs/cgroup/cgroup.subtree_control || problem "no cpu controller on v2"
 churn /sys/fs/cgroup $end cgroup.procs cpu.boost) &

wait
echo pelt > /proc/sys/kernel/sched_util_signal
if [ -d /sys/kernel/debug/energy_model ] && grep -q sched_verbose /proc/cmdline; then
	last=$(dmesg | grep -oE '(starting|stopping) EAS' | tail -1)
	echo "stress: EAS ${last:-never stopped} after $(dmesg | grep -c 'stopping EAS') stops"
	[ "$last" = "stopping EAS" ] && problem "EAS off with every CPU online"
	[ -n "$last" ] || problem "no EAS line with sched_verbose: EAS never started"
fi
for f in /tmp/count.*; do printf '%s=%s ' "${f#/tmp/count.}" "$(wc -l < $f)"; done
echo
echo "stress: finished after $(($(date +%s) - start)) s"
if dmesg | grep -E "$KERNEL_REPORTS" >/dev/null; then
	dmesg | grep -E -A12 "$KERNEL_REPORTS" | head -60
	echo "GUEST RESULT: stress found kernel reports"
elif [ -s /tmp/problems ] || [ ! -s /tmp/count.move ] || { [ $hotplug != 0 ] && [ ! -s /tmp/count.offline ]; } || [ ! -s /tmp/count.walt ]; then
	echo "GUEST RESULT: stress did not exercise everything"
else
	echo "GUEST RESULT: stress clean"
fi
