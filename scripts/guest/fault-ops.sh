# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=fault-ops (scripts/faults.sh):
# for faults_seconds= seconds, boost groups are created, boosted, given
# tasks and removed (schedtune on cgroup v1 for the first half, the cpu
# controller's cpu.boost on v2 for the second) and the signal and
# schedutil's pl are switched, each operation with failslab and
# fail_page_alloc aimed at it alone (schedbench failing: make-it-fail
# around one system call, 30% of its allocations failing: a write of one
# or two allocations then fails about every other time). A mkdir makes so
# many allocations that it almost always fails under injection: the
# creations of a hierarchy are injected until one has failed, then a
# quarter of them, the rest made without. A spinner and sleepers run in
# the groups meanwhile.
#
# Pass: every failed operation reported ENOMEM (or, for a removal, EBUSY
# with tasks left) and left no group and no changed value behind; on
# each hierarchy, writes both failed and succeeded and creations failed;
# once every group is gone, kmemleak finds nothing allocated by the
# series' code; the kernel log has no report.

secs=120
for arg in $(cat /proc/cmdline); do
	case "$arg" in faults_seconds=*) secs=${arg#faults_seconds=} ;; esac
done
count() { echo 1 >> "/tmp/count.$1"; }
rnd() { echo $((RANDOM % $1)); }
problem() { echo "FAULTS PROBLEM: $*"; echo "$*" >> /tmp/problems; }

echo 0 > /proc/sys/kernel/printk_ratelimit 2>/dev/null
for d in /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc; do
	[ -d $d ] || { problem "no $d"; continue; }
	echo Y > $d/task-filter
	echo 30 > $d/probability
	echo 1 > $d/interval
	echo -1 > $d/times
	echo 0 > $d/verbose
	echo N > $d/ignore-gfp-wait
done
echo N > /sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem 2>/dev/null
[ -w /sys/kernel/debug/kmemleak ] || problem "no kmemleak"

# try OP PATH [VALUE]: one operation under fault injection; counts
# ok-$hier-OP or enomem-$hier-OP, and checks that a failed one changed
# nothing: no group left by a failed mkdir, the value before a failed
# write.
try() {
	local op=$1 path=$2 value=$3 before= r
	[ "$op" = write ] && before=$(cat "$path" 2>/dev/null)
	r=$(schedbench failing $op "$path" $value)
	case "$r" in
	ok) count ok-$hier-$op; return 0 ;;
	"Cannot allocate memory") count enomem-$hier-$op
		[ "$op" = mkdir ] && [ -d "$path" ] && problem "a failed mkdir left $path" ;;
	# A group with tasks or children; a task that exited meanwhile.
	"Device or resource busy") [ "$op" = rmdir ] || problem "$op $path $value: $r" ;;
	"No such process") [ "${path##*/}" = tasks ] || [ "${path##*/}" = cgroup.procs ] ||
		problem "$op $path $value: $r" ;;
	*) problem "$op $path $value: $r" ;;
	esac
	if [ "$op" = write ] && [ "${path##*/}" != tasks ] && [ "${path##*/}" != cgroup.procs ] &&
	   [ "$(cat "$path" 2>/dev/null)" != "$before" ]; then
		problem "a failed write of $value to $path changed it from $before to $(cat "$path")"
	fi
	return 1
}

# Loads to move around: a spinner and a few sleepers.
(while :; do :; done) &
spinner=$!
sleepers=
for i in 1 2 3; do
	(while :; do sleep 0.05; done) &
	sleepers="$sleepers $!"
done

# churn ROOT SECONDS TASKS BOOST
churn() {
	local root=$1 until=$(($(date +%s) + $2)) g p pl
	while [ "$(date +%s)" -lt $until ]; do
		g=$root/g$(rnd 6)
		if [ ! -d $g ]; then
			if [ ! -s /tmp/count.enomem-$hier-mkdir ] || [ $(rnd 4) = 0 ]; then
				try mkdir $g
			else
				mkdir $g
			fi
		elif [ $(rnd 4) = 0 ]; then
			for p in $(cat $g/$3); do echo $p > $root/$3 2>/dev/null; done
			try rmdir $g
		else
			[ -d $g ] && try write $g/$4 $(($(rnd 201) - 100))
			[ -f $g/schedtune.prefer_idle ] && try write $g/schedtune.prefer_idle $(rnd 2)
			for p in $spinner $sleepers; do
				[ $(rnd 3) = 0 ] && [ -d $g ] && try write $g/$3 $p
			done
		fi
		case $(rnd 8) in
		0) try write /proc/sys/kernel/sched_util_signal walt ;;
		1) try write /proc/sys/kernel/sched_util_signal pelt ;;
		2) for pl in /sys/devices/system/cpu/cpufreq/policy*/schedutil/pl; do
			[ -f $pl ] && try write $pl $(rnd 2)
		   done ;;
		esac
	done
	# Every group removed, without faults (the sleepers' sleep children
	# may still be in one for a moment).
	remove_groups $root $3
}

mkdir -p /dev/stune /sys/fs/cgroup
echo "faults: $secs s"
mount -t cgroup -o schedtune none /dev/stune || problem "no schedtune on v1"
hier=v1
churn /dev/stune $((secs / 2)) tasks schedtune.boost
stune_leave_v1
mount -t cgroup2 none /sys/fs/cgroup
hier=v2
echo +cpu > /sys/fs/cgroup/cgroup.subtree_control || problem "no cpu controller on v2"
churn /sys/fs/cgroup $((secs / 2)) cgroup.procs cpu.boost
kill $spinner $sleepers
echo pelt > /proc/sys/kernel/sched_util_signal
for pl in /sys/devices/system/cpu/cpufreq/policy*/schedutil/pl; do [ -f $pl ] && echo 0 > $pl; done
for f in /tmp/count.*; do printf '%s=%s ' "${f#/tmp/count.}" "$(wc -l < $f)"; done
echo

# kmemleak reports an object unreferenced for 5 s at a scan: scan after
# that, twice (its documentation's advice against transient false reports).
sleep 6
echo scan > /sys/kernel/debug/kmemleak
sleep 6
echo scan > /sys/kernel/debug/kmemleak
cat /sys/kernel/debug/kmemleak > /tmp/leaks
echo "faults: kmemleak: $(grep -c '^unreferenced object' /tmp/leaks) unreferenced objects"
# The series' allocations: schedtune's groups, the cpu controller's (its
# boost lives in struct task_group), schedutil's tunables.
ours='sched_tune|schedtune|stune|walt|sched_util|cpu_cgroup_css_alloc|sched_create_group|sugov'
awk -v ours="$ours" '/^unreferenced object/ { if (r ~ ours) printf "%s", r; r = "" }
	{ r = r $0 "\n" } END { if (r ~ ours) printf "%s", r }' /tmp/leaks > /tmp/leaks.ours
if [ -s /tmp/leaks.ours ]; then
	head -40 /tmp/leaks.ours
	problem "kmemleak: objects allocated by the series' code leaked"
fi

if dmesg | grep -E "$KERNEL_REPORTS" >/dev/null; then
	dmesg | grep -E -A12 "$KERNEL_REPORTS" | head -60
	echo "GUEST RESULT: faults found kernel reports"
elif [ -s /tmp/problems ]; then
	echo "GUEST RESULT: faults found problems"
elif ! (for h in v1 v2; do
		for c in enomem-$h-mkdir ok-$h-write enomem-$h-write; do
			[ -s /tmp/count.$c ] || { echo "faults: no $c"; exit 1; }
		done
	done); then
	echo "GUEST RESULT: faults did not exercise everything"
else
	echo "GUEST RESULT: faults clean"
fi
