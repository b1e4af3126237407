# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=checks: exercises the
# series' user interfaces on the real kernel and prints PASS/FAIL lines
# and a GUEST RESULT line that scripts/run.sh reads.

pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # check "what" expected actual
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (expected '$2', got '$3')"; fi
}

# Write $2, with backslash escapes ("\\n", "\\t") turned into bytes, to
# file $1 in one write(); succeed if the write did. An empty string cannot
# be tested from a shell (no write() happens): KUnit covers it.
put() { printf '%b' "$2" > "$1" 2>/dev/null; }

# Every malformed input must be refused and leave the value unchanged.
tried=0 refused=0
refuse() { # refuse file value...
	local f=$1 before v
	shift
	before=$(cat "$f")
	for v in "$@"; do
		tried=$((tried + 1))
		if put "$f" "$v"; then
			bad "$f accepted '$v'"
		elif [ "$(cat "$f")" != "$before" ]; then
			bad "$f changed after refusing '$v'"
		else
			refused=$((refused + 1))
		fi
	done
}

# A boost knob: only canonical decimals in [-100, 100].
refuse_all() { # refuse_all file
	refuse "$1" 101 -101 1000 99999999999999999999 2147483648 -2147483649 \
		4294967306 -0 +5 05 00 0x10 0X1F 010 " 5" "5 " "- 5" \
		'\t5' '5\n\n' '5\r' 5abc abc5 "5 6" '\n' - --5 5.0 1e2 max \
		1000000000000000000000000000000000000000000000000000
}

# A 0/1 flag (schedtune.prefer_idle): valid boosts are not valid flags,
# nor is anything that a lenient parser would read as one.
refuse_flag() { # refuse_flag file
	refuse "$1" 2 -1 5 100 -100 01 00 +1 -0 0x1 true yes on " 1" "1 " '\t1' \
		'1\n\n' '1\r' 1.0 1e0 "1 0" '\n' 10 11 4294967297
}

echo "== utilization-signal framework"
check "sched_util_signal defaults to pelt" pelt "$(cat /proc/sys/kernel/sched_util_signal)"
put /proc/sys/kernel/sched_util_signal nosuch && bad "unknown signal accepted" || ok "unknown signal refused"
check "refused name leaves pelt" pelt "$(cat /proc/sys/kernel/sched_util_signal)"
echo walt > /proc/sys/kernel/sched_util_signal && ok "walt selected"
check "sched_util_signal reads walt" walt "$(cat /proc/sys/kernel/sched_util_signal)"
check "sched_use_walt_metrics follows" 1 "$(cat /proc/sys/kernel/sched_use_walt_metrics)"
( i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done ) &
sleep 1
wait
grep -q walt_prev_runnable_sum /sys/kernel/debug/sched/debug &&
	ok "sched/debug shows WALT sums" || bad "sched/debug lacks WALT sums"
grep -E 'cpu#|walt_' /sys/kernel/debug/sched/debug | head -8
echo 0 > /proc/sys/kernel/sched_use_walt_metrics
check "sched_use_walt_metrics=0 selects pelt" pelt "$(cat /proc/sys/kernel/sched_util_signal)"
check "sched_walt_account_wait_time defaults to 0" 0 "$(cat /proc/sys/kernel/sched_walt_account_wait_time)"
echo 1 > /proc/sys/kernel/sched_walt_account_wait_time
check "sched_walt_account_wait_time takes 1" 1 "$(cat /proc/sys/kernel/sched_walt_account_wait_time)"
refuse /proc/sys/kernel/sched_walt_account_wait_time 2 -1 x 0x0 00 +0 " 0" "0 1"
echo 0 > /proc/sys/kernel/sched_walt_account_wait_time
for f in sched_util_signal sched_use_walt_metrics sched_walt_track sched_walt_io_is_busy \
	 sched_walt_hist_size sched_walt_account_wait_time; do
	refuse /proc/sys/kernel/$f 2x 0x1 01 +1 "1 2" " 1" -1
done
# The Android kernels' names select WALT for frequency or placement alone.
K=/proc/sys/kernel
echo 1 > $K/sched_use_walt_cpu_util
check "sched_use_walt_cpu_util=1: WALT for frequency only" walt/pelt "$(cat $K/sched_util_signal)"
check "sched_use_walt_task_util still 0" 0 "$(cat $K/sched_use_walt_task_util)"
check "sched_use_walt_metrics 0 with one role" 0 "$(cat $K/sched_use_walt_metrics)"
echo 1 > $K/sched_use_walt_task_util
check "both Android knobs: walt" walt "$(cat $K/sched_util_signal)"
check "sched_use_walt_metrics 1 with both" 1 "$(cat $K/sched_use_walt_metrics)"
echo 0 > $K/sched_use_walt_cpu_util
check "WALT for placement only" pelt/walt "$(cat $K/sched_util_signal)"
put $K/sched_util_signal walt/pelt && ok "sched_util_signal takes its mixed reading" ||
	bad "sched_util_signal refused walt/pelt"
check "walt/pelt: WALT for frequency, PELT for placement" "walt/pelt 1 0" \
	"$(cat $K/sched_util_signal) $(cat $K/sched_use_walt_cpu_util) $(cat $K/sched_use_walt_task_util)"
refuse $K/sched_util_signal walt/ /pelt walt/nosuch nosuch/pelt walt//pelt "walt/pelt/walt" \
	'walt\n/pelt' 'walt\npelt' 'walt\0' "walt /pelt" "walt/ pelt"
echo pelt/walt > $K/sched_util_signal
echo pelt > $K/sched_util_signal
check "sched_util_signal=pelt resets both" "pelt 0 0" \
	"$(cat $K/sched_util_signal) $(cat $K/sched_use_walt_cpu_util) $(cat $K/sched_use_walt_task_util)"
check "sched_walt_init_task_load_pct defaults to 15" 15 "$(cat $K/sched_walt_init_task_load_pct)"
echo 40 > $K/sched_walt_init_task_load_pct
check "sched_walt_init_task_load_pct takes 40" 40 "$(cat $K/sched_walt_init_task_load_pct)"
for f in sched_use_walt_cpu_util sched_use_walt_task_util; do
	refuse $K/$f 2 -1 101 1000 x 1x 0x1 "1 2" 01 +1 " 1" '1\n\n'
done
refuse $K/sched_walt_init_task_load_pct -1 101 1000 x 1x 0x1 "1 2" 01 +1 " 1" '1\n\n'
echo 15 > $K/sched_walt_init_task_load_pct
[ -e $K/sched_walt_cpu_high_irqload ] && bad "sched_walt_cpu_high_irqload exists" ||
	ok "no sched_walt_cpu_high_irqload: nothing would consume it (sched-walt.rst 5.2)"

echo "== PELT half-life (kernel.sched_pelt_multiplier)"
# PELT's rise to 80% on a spinning CPU takes 32 ms x log2(5) = 74.3 ms of
# its clock; at a multiplier of 2 or 4, 37.2 or 18.6 ms. The spinner
# times itself and reads its utilization as the tick updates it, every
# 4 ms, so up to a tick later: six boots measured 80.0-81.4, 39.7-42.9
# and 20.0-23.3 ms. Ranges around each, none reachable with the
# multiplier ignored, and the 8 ms half-life at least 2.5 times faster
# than the 32 ms one. (Timed from another CPU, one boot of three
# measured 28 ms at 16 ms: a host stall had delayed the reader.)
check "sched_pelt_multiplier defaults to 1" 1 "$(cat $K/sched_pelt_multiplier)"
t32=$(schedbench rise 1)
echo 2 > $K/sched_pelt_multiplier && t16=$(schedbench rise 1)
echo 4 > $K/sched_pelt_multiplier && ok "sched_pelt_multiplier takes 4"
check "sched_pelt_multiplier reads 4" 4 "$(cat $K/sched_pelt_multiplier)"
t8=$(schedbench rise 1)
echo "PELT's rise to 80%: ${t32:-?} ms (32 ms half-life), ${t16:-?} ms (16 ms), ${t8:-?} ms (8 ms)"
awk -v a="$t32" -v b="$t16" -v c="$t8" 'BEGIN {
	exit !(a >= 70 && a <= 110 && b >= 34 && b <= 60 && c >= 17 && c <= 35 && a >= 2.5 * c) }' &&
	ok "the step response follows the half-life" ||
	bad "the step response does not follow the half-life (${t32:-?}/${t16:-?}/${t8:-?} ms)"
refuse $K/sched_pelt_multiplier 0 3 5 8 16 -1 -4 +4 04 " 4" "4 " 0x4 "4 4" '4\n\n' \
	'\t4' 4.0 four 1e0 '\n' 4294967300
echo 1 > $K/sched_pelt_multiplier
check "sched_pelt_multiplier back to 1" 1 "$(cat $K/sched_pelt_multiplier)"

echo "== WALT's window at run time (kernel.sched_walt_ravg_window)"
# A whole number of 4 ms ticks (HZ=250) from 5 ms to 1 s; a change
# restarts WALT's session and returns once WALT has its roles back.
check "sched_walt_ravg_window defaults to 20 ms" 20000000 "$(cat $K/sched_walt_ravg_window)"
refuse $K/sched_walt_ravg_window 10000000 8000001 4000000 0 2000000000 \
	+8000000 08000000 " 8000000" 8ms 0x7a1200 "8000000 8000000" '8000000\n\n'
echo walt > $K/sched_util_signal
echo 8000000 > $K/sched_walt_ravg_window && ok "sched_walt_ravg_window takes 8 ms"
check "WALT selected again, 8 ms windows" "walt 8000000" \
	"$(cat $K/sched_util_signal) $(cat $K/sched_walt_ravg_window)"
echo 20000000 > $K/sched_walt_ravg_window
echo pelt > $K/sched_util_signal
check "back to 20 ms and PELT" "pelt 20000000" \
	"$(cat $K/sched_util_signal) $(cat $K/sched_walt_ravg_window)"

echo "== schedutil's hispeed and pl (the Android kernels' tunables)"
su=/sys/devices/system/cpu/cpufreq/policy0/schedutil
check "defaults: hispeed_freq 0, hispeed_load 90, pl 0" "0 90 0" \
	"$(cat $su/hispeed_freq) $(cat $su/hispeed_load) $(cat $su/pl)"
refuse $su/pl 2 -1 01 00 +1 0x1 " 1" "1 " '1\n\n' true 1.0 4294967297
refuse $su/hispeed_load 101 -1 1000 +5 05 0x10 " 5" "5 6" 5.0 '5\n\n' 4294967296
refuse $su/hispeed_freq -1 +960000 0960000 0x10 " 960000" "960000 1" 960MHz \
	4294967296 '960000\n\n'
echo 960000 > $su/hispeed_freq && echo 1 > $su/pl && echo 80 > $su/hispeed_load &&
	ok "hispeed_freq, pl and hispeed_load take 960000, 1 and 80"
check "they read back" "960000 80 1" "$(cat $su/hispeed_freq) $(cat $su/hispeed_load) $(cat $su/pl)"
echo 0 > $su/hispeed_freq; echo 0 > $su/pl; echo 90 > $su/hispeed_load
# The last CPU of a policy going offline frees the policy's tunables in
# the hotplug callback, which runs with the CPU hotplug lock held by the
# task that asked: the last raise user's key update must not wait for
# that lock there (a hang, not a failure, if it does).
p1=/sys/devices/system/cpu/cpufreq/policy1
if [ "$(cat $p1/related_cpus 2>/dev/null)" = 1 ]; then
	echo 960000 > $p1/schedutil/hispeed_freq && echo 1 > $p1/schedutil/pl
	echo 0 > /sys/devices/system/cpu/cpu1/online &&
		ok "CPU 1 offline, the last CPU of a policy with hispeed_freq and pl set" ||
		bad "CPU 1 did not go offline"
	echo 1 > /sys/devices/system/cpu/cpu1/online
	check "CPU 1 back, its policy's hispeed_freq and pl at their defaults" "0 0" \
		"$(cat $p1/schedutil/hispeed_freq) $(cat $p1/schedutil/pl)"
else
	bad "CPU 1 is not a policy of its own: $(cat $p1/related_cpus 2>&1)"
fi

echo "== SchedTune, global knob"
check "sched_cfs_boost defaults to 0" 0 "$(cat /proc/sys/kernel/sched_cfs_boost)"
echo -20 > /proc/sys/kernel/sched_cfs_boost
check "sched_cfs_boost takes -20" -20 "$(cat /proc/sys/kernel/sched_cfs_boost)"
refuse_all /proc/sys/kernel/sched_cfs_boost
echo 0 > /proc/sys/kernel/sched_cfs_boost

echo "== SchedTune, cgroup v2: cpu.boost"
mkdir -p /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup
grep -qw schedtune /sys/fs/cgroup/cgroup.controllers &&
	bad "schedtune offered on cgroup v2" || ok "schedtune is not a cgroup v2 controller"
put /sys/fs/cgroup/cgroup.subtree_control +schedtune 2>/dev/null &&
	bad "schedtune enabled on cgroup v2" || ok "+schedtune refused on cgroup v2"
if echo +cpu > /sys/fs/cgroup/cgroup.subtree_control; then
	mkdir /sys/fs/cgroup/g
	check "cpu.boost defaults to 0" 0 "$(cat /sys/fs/cgroup/g/cpu.boost)"
	echo -50 > /sys/fs/cgroup/g/cpu.boost
	check "cpu.boost takes -50" -50 "$(cat /sys/fs/cgroup/g/cpu.boost)"
	refuse_all /sys/fs/cgroup/g/cpu.boost
	[ -e /sys/fs/cgroup/cpu.boost ] &&
		bad "v2 root has cpu.boost" || ok "v2 root has no cpu.boost (the sysctl is its boost)"
	echo $$ > /sys/fs/cgroup/g/cgroup.procs && ok "task moved into a cpu.boost group"
	echo $$ > /sys/fs/cgroup/cgroup.procs
	rmdir /sys/fs/cgroup/g
	echo -cpu > /sys/fs/cgroup/cgroup.subtree_control
else
	bad "cpu controller not available on cgroup v2"
fi
umount /sys/fs/cgroup

echo "== SchedTune, cgroup v1 as Android mounts it"
# schedtune was never on cgroup v2, so it is free for a v1 hierarchy: the
# replay below mounts it as libprocessgroup does.
mkdir -p /dev/stune

# AOSP's own operations on /dev/stune, replayed in order from the test data
# in aosp-stune.txt (derived from AOSP's cgroups.json, init.rc and task
# profiles, commits cited there): libprocessgroup's mount, init.rc's
# groups, owners, modes and writes, then every schedtune action of the
# task profiles on a task of its own. Each write opens, writes the value
# without a newline, checks the result and reads the value back, as init
# and libprocessgroup do; a join checks /proc/TID/cgroup.
aosp_id() { [ "$1" = system ] && echo 1000 || echo "$1"; }
aosp_write() { # file value: a write as init and libprocessgroup do it
	if ! printf %s "$2" > "$1" 2>/dev/null; then
		echo "write $1 '$2' failed"
	elif [ "$(basename "$1")" != tasks ] && [ "$(cat "$1")" != "$2" ]; then
		echo "$1 reads '$(cat "$1")' after '$2'"
	fi
}
aosp_group_of() { # tid: its schedtune group, "" for the root
	sed -n 's/^[0-9]*:schedtune:\/*//p' /proc/$1/cgroup
}
aosp_ops=0 aosp_bad=
while read -r op a b c d; do
	case "$op" in ""|\#*) continue ;; esac
	aosp_ops=$((aosp_ops + 1))
	err=
	case "$op" in
	setup)
		mkdir -p "$a" && chmod "$b" "$a" &&
			chown "$(aosp_id $c):$(aosp_id $d)" "$a" &&
			mount -t cgroup -o nodev,noexec,nosuid,schedtune none "$a" ||
			err="setup of $a failed" ;;
	mkdir) mkdir "$a" || err="mkdir $a failed" ;;
	chown) chown "$(aosp_id $a):$(aosp_id $b)" "$c" || err="chown $c failed" ;;
	chmod) chmod "$a" "$b" || err="chmod $b failed" ;;
	write) err=$(aosp_write "$a" "$b") ;;
	profile)
		b=${b#\"} c=${c#\"} c=${c%\"} d=${d#\"} d=${d%\"}
		sleep 30 & tid=$!
		if [ "$b" = join ]; then
			err=$(aosp_write "/dev/stune${c:+/$c}/tasks" $tid)
			[ -z "$err" ] && [ "$(aosp_group_of $tid)" != "$c" ] &&
				err="$a: the task is in '$(aosp_group_of $tid)', not '$c'"
		else
			printf %s $tid > /dev/stune/top-app/tasks
			g=$(aosp_group_of $tid)
			err=$(aosp_write "/dev/stune${g:+/$g}/$c" "$d")
		fi
		kill $tid; wait $tid 2>/dev/null ;;
	*) err="unknown operation $op" ;;
	esac
	[ -n "$err" ] && aosp_bad="$aosp_bad; $err"
done < /guest/aosp-stune.txt
[ -z "$aosp_bad" ]; check "AOSP's schedtune operations replayed" "0" "$?${aosp_bad:+ ($aosp_ops operations$aosp_bad)}"
echo "AOSP replay: $aosp_ops operations, $(echo "$aosp_bad" | grep -o ';' | wc -l) failed"
check "CpuPolicyPack leaves top-app's prefer_idle 0" 0 "$(cat /dev/stune/top-app/schedtune.prefer_idle)"
check "init.rc's nnapi-hal boost and prefer_idle" "1 1" \
	"$(cat /dev/stune/nnapi-hal/schedtune.boost) $(cat /dev/stune/nnapi-hal/schedtune.prefer_idle)"

# The system user (uid 1000) can write what init.rc chowned to it and made
# writable, the tasks files: it moves itself into every group. Nothing
# else: the hierarchy's root directory, chowned to it, keeps the mode
# 0555 of a new cgroup mount (libprocessgroup sets 0755 on the mount point
# before mounting), so no group can be made; every schedtune.* file and
# cgroup.procs stay root's.
for f in /dev/stune/tasks /dev/stune/*/tasks; do
	schedbench asuser 1000 sh -c "printf %s \$\$ > $f" 2>/dev/null &&
		ok "uid 1000 joins through $f" || bad "uid 1000 cannot write $f"
done
schedbench asuser 1000 sh -c "mkdir /dev/stune/sys" 2>/dev/null &&
	{ bad "uid 1000 created a group"; rmdir /dev/stune/sys; } ||
	ok "uid 1000 cannot create a group ($(ls -ld /dev/stune | cut -c1-10))"
for f in /dev/stune/schedtune.boost /dev/stune/top-app/schedtune.boost \
	 /dev/stune/nnapi-hal/schedtune.prefer_idle /dev/stune/foreground/cgroup.procs; do
	before=$(cat $f)
	if schedbench asuser 1000 sh -c "printf 1 > $f" 2>/dev/null; then
		bad "uid 1000 wrote $f"
	elif [ "$(cat $f)" != "$before" ]; then
		bad "$f changed"
	else
		ok "uid 1000 cannot write $f"
	fi
done

# A device's own settings on top (as vendor init scripts write them).
echo 10 > /dev/stune/top-app/schedtune.boost
echo 5 > /dev/stune/foreground/schedtune.boost
echo -20 > /dev/stune/background/schedtune.boost
echo 1 > /dev/stune/top-app/schedtune.prefer_idle
echo $$ > /dev/stune/top-app/tasks
check "top-app boost" 10 "$(cat /dev/stune/top-app/schedtune.boost)"
check "top-app prefer_idle" 1 "$(cat /dev/stune/top-app/schedtune.prefer_idle)"
check "background boost" -20 "$(cat /dev/stune/background/schedtune.boost)"
check "root prefer_idle (v1) defaults to 0" 0 "$(cat /dev/stune/schedtune.prefer_idle)"
refuse_flag /dev/stune/top-app/schedtune.prefer_idle
grep -qx "$$" /dev/stune/top-app/tasks && ok "shell is in top-app" || bad "shell not in top-app"
refuse_all /dev/stune/foreground/schedtune.boost

# Knobs are root's: an unprivileged user cannot write them, not even as
# "root" of its own user namespace.
echo "== permissions"
for kv in /proc/sys/kernel/sched_cfs_boost:50 /proc/sys/kernel/sched_util_signal:walt \
	  /proc/sys/kernel/sched_use_walt_metrics:1 /proc/sys/kernel/sched_use_walt_cpu_util:1 \
	  /proc/sys/kernel/sched_walt_init_task_load_pct:50 \
	  /proc/sys/kernel/sched_pelt_multiplier:4; do
	f=${kv%:*} v=${kv##*:} before=$(cat ${kv%:*})
	if schedbench asuser 1000 sh -c "echo $v > $f" 2>/dev/null; then
		bad "uid 1000 wrote $f"
	elif schedbench asuser 1000 unshare -r sh -c "echo $v > $f" 2>/dev/null; then
		bad "uid 1000 in a user namespace wrote $f"
	elif [ "$(cat $f)" != "$before" ]; then
		bad "$f changed"
	else
		ok "uid 1000, also as root of a user namespace, cannot write $f"
	fi
done
schedbench asuser 1000 unshare -r true && ok "unprivileged user namespaces work (the check above is real)" ||
	bad "unprivileged user namespaces unavailable"

# Per-CPU aggregation on live runqueues, two groups on CPU 1.
cpu1_boost() {
	awk '/^cpu#1/ { on = 1 } /^cpu#2/ { on = 0 }
	     on && $1 == ".schedtune_boost" { print $3 }' /sys/kernel/debug/sched/debug
}
# What a failed aggregation check needs to be understood: where the
# spinners are, in which group, and what each CPU counts and runs.
boost_state() {
	for p in ${A:-} ${B:-}; do
		[ -r /proc/$p/stat ] || continue
		echo "  pid $p: $(awk '{ print "state " $3 ", cpu " $39 }' /proc/$p/stat)," \
			"$(grep schedtune /proc/$p/cgroup)"
	done
	awk '/^cpu#/ { cpu = $1 } $1 == ".nr_running" || $1 == ".schedtune_boost" { print "  " cpu " " $1 " " $3 }
	     /^runnable tasks:/ { on = 1 } on && /^ *>?R / { print "  " cpu " runnable: " $0 }
	     /^$/ { on = 0 }' /sys/kernel/debug/sched/debug
}
wait_boost() { # what expected
	n=0 seen=
	while v=$(cpu1_boost) && [ "$v" != "$2" ] && [ $n -lt 50 ]; do
		seen="$seen $v"
		sleep 0.1
		n=$((n + 1))
	done
	check "$1" "$2" "$v"
	[ "$v" = "$2" ] || { boost_state; echo "  seen:$seen"; }
}
spin() { while :; do :; done; }
# The shell and what it forks to read the boost (top-app, +10) stay on
# CPU 0: on CPU 1 they would be one of the groups being aggregated (one
# boot of 30 read 10 for 5 s where -20 was due). The kernel's threads are
# in the root group, and a CPU's boost is the highest of its RUNNABLE
# groups': a kthread runnable on CPU 1 (ksoftirqd catching up after the
# host stalled the guest, a kworker) makes it 0. That is the likely cause
# of the 0 that 6 of 46 boots on an overloaded host read for 5 s where
# -20 was due (boost_state shows the runnable tasks if it recurs). The
# root group is at -100 meanwhile, below every boost checked, so that
# only the groups under test decide.
taskset -p 1 $$ >/dev/null
echo -100 > /proc/sys/kernel/sched_cfs_boost
spin & A=$!
taskset -p 2 $A >/dev/null
echo $A > /dev/stune/background/tasks
wait_boost "CPU 1 with only a background (-20) task" -20
spin & B=$!
taskset -p 2 $B >/dev/null
echo $B > /dev/stune/top-app/tasks
wait_boost "CPU 1 with background -20 and top-app +10" 10
echo 30 > /dev/stune/top-app/schedtune.boost
wait_boost "a boost write reaches a runnable task at once" 30
echo $B > /dev/stune/foreground/tasks
wait_boost "moving the top-app task to foreground (+5)" 5
kill $B; wait $B 2>/dev/null
wait_boost "the +5 task exits: back to -20" -20
kill $A; wait $A 2>/dev/null
echo 0 > /proc/sys/kernel/sched_cfs_boost
taskset -p 3 $$ >/dev/null
echo 10 > /dev/stune/top-app/schedtune.boost

i=0
while [ $i -lt 12 ]; do mkdir /dev/stune/g$i || break; i=$((i + 1)); done
check "12 groups beyond Android's 5" 12 "$i"
mkdir -p /dev/stune/top-app/nested && ok "nested group created"
while [ $i -gt 0 ]; do i=$((i - 1)); rmdir /dev/stune/g$i; done

echo "== load with WALT selected and boosted groups"
echo walt > /proc/sys/kernel/sched_util_signal
if [ -x /bin/hackbench ]; then
	hackbench -p -g 4 -l 200 >/dev/null && ok "hackbench under walt + boost" || bad "hackbench failed"
fi
echo $$ > /dev/stune/tasks
echo pelt > /proc/sys/kernel/sched_util_signal

# One boost hierarchy at a time: while schedtune is on v1 it decides every
# task's boost and cpu.boost refuses writes; once /dev/stune is gone the
# cpu controller's groups decide, nested as schedtune's are (a group's
# effective boost is the smaller of its own and its parent's below the
# top level), and the root cgroup's tasks get the sysctl's.
echo "== SchedTune, cpu.boost against /dev/stune, live on CPU 1"
mount -t cgroup2 none /sys/fs/cgroup
echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/g/h
echo +cpu > /sys/fs/cgroup/g/cgroup.subtree_control
put /sys/fs/cgroup/g/cpu.boost 40 2>/dev/null &&
	bad "cpu.boost written while schedtune is on v1" ||
	ok "cpu.boost refuses writes while schedtune is on v1"
check "the refused cpu.boost is unchanged" 0 "$(cat /sys/fs/cgroup/g/cpu.boost)"
taskset -p 1 $$ >/dev/null
echo -100 > /proc/sys/kernel/sched_cfs_boost
spin & A=$!
taskset -p 2 $A >/dev/null
echo $A > /sys/fs/cgroup/g/h/cgroup.procs
wait_boost "schedtune on v1 decides: a task in /dev/stune's root gets the sysctl's -100" -100
find /dev/stune -mindepth 1 -depth -type d -exec rmdir {} \;
# An unmounted v1 hierarchy is destroyed only if it has no child cgroups,
# and removed ones stay its children until they are released
# (asynchronously): unmount until the umount that finds none, mounting it
# again in between, as a new mount finds the old hierarchy.
n=0
while grep -q ':schedtune:' /proc/self/cgroup; do
	umount /dev/stune 2>/dev/null
	sleep 0.1
	grep -q ':schedtune:' /proc/self/cgroup || break
	n=$((n + 1))
	[ $n -ge 100 ] && { bad "the /dev/stune hierarchy not released in 10 s"; break; }
	mount -t cgroup -o schedtune none /dev/stune 2>/dev/null
done
put /sys/fs/cgroup/g/cpu.boost 40 && ok "cpu.boost writable once schedtune left v1" ||
	bad "cpu.boost refused after schedtune left v1"
echo 60 > /sys/fs/cgroup/g/h/cpu.boost
wait_boost "g +40, g/h +60: h's task gets 40, its parent's cap" 40
echo 70 > /sys/fs/cgroup/g/cpu.boost
wait_boost "g raised to +70: h's own 60 applies" 60
echo -30 > /sys/fs/cgroup/g/cpu.boost
wait_boost "g at -30 deflates h's task" -30
echo $A > /sys/fs/cgroup/cgroup.procs
wait_boost "moved to the root cgroup: the sysctl's -100" -100
kill $A; wait $A 2>/dev/null
echo 0 > /proc/sys/kernel/sched_cfs_boost
taskset -p 3 $$ >/dev/null
rmdir /sys/fs/cgroup/g/h /sys/fs/cgroup/g
umount /sys/fs/cgroup

# The Android trace events: each one's tracefs format has the fields of
# android-4.14's definition, in order, with their types (the test data in
# android-events.txt; its comments give the source and the exceptions).
fmt_fields() { # event
	awk '/field:/ && !/common_/ {
		f = $0; sub(/.*field:/, "", f); sub(/;.*/, "", f)
		n = split(f, w, " "); name = w[n]; type = w[1]
		for (i = 2; i < n; i++) type = type "_" w[i]
		if (match(name, /\[.*\]/)) {
			type = type substr(name, RSTART, RLENGTH)
			name = substr(name, 1, RSTART - 1)
		}
		printf "%s%s:%s", sep, type, name; sep = " "
	}' /sys/kernel/tracing/events/sched/$1/format 2>/dev/null
}
nev=0
while read -r ev want; do
	case "$ev" in ""|\#*) continue ;; esac
	nev=$((nev + 1))
	check "trace event sched/$ev has Android's fields" "$want" "$(fmt_fields $ev)"
done < /guest/android-events.txt
[ $nev -ge 8 ] && ok "$nev Android trace events compared" || bad "only $nev Android trace events in the test data"

# walt_update_history reports the history it leaves: in every event of a
# spinner under WALT, samples >= 1, runtime = hist[0] and demand =
# max(hist[0], the mean of the sched_walt_hist_size newest), as
# walt_task_demand() computes it; and the samples add up to the windows
# the spinner ran in: 300 ms of 20 ms windows, 15 whole ones and parts of
# two more, of which the last may not have been pushed yet.
T=/sys/kernel/tracing
echo walt > /proc/sys/kernel/sched_util_signal
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/sched/walt_update_history/enable
echo 1 > $T/tracing_on
spin & S=$!
sleep 0.3
kill $S; wait $S 2>/dev/null
echo 0 > $T/tracing_on
echo 0 > $T/events/sched/walt_update_history/enable
echo pelt > /proc/sys/kernel/sched_util_signal
# After "walt_update_history: ": pid (comm): runtime R samples S event E
# demand D walt W pelt P (hist: h0 h1 h2 h3 h4) cpu C
res=$(awk -v pid=$S -v n=$(cat /proc/sys/kernel/sched_walt_hist_size) '
	/walt_update_history: / {
		s = $0; sub(/.*walt_update_history: /, "", s); split(s, w, " ")
		if (w[1] != pid) next
		sum = 0
		for (i = 0; i < n; i++) sum += w[16 + i] + 0
		want = int(sum / n); if (w[16] + 0 > want) want = w[16] + 0
		events++; samples += w[6]
		if (w[6] < 1 || w[4] != w[16] + 0 || w[10] != want) {
			bad++; if (!ex) ex = s
		}
	}
	END { printf "%d %d %d %s", events + 0, samples + 0, bad + 0, ex }' $T/trace)
set -- $res
[ "$1" -gt 0 ] && [ "$3" = 0 ] && [ "$2" -ge 14 ] && [ "$2" -le 17 ] &&
	ok "walt_update_history: $1 events of a 0.3 s spinner, $2 windows (14-17), each event its history's" ||
	bad "walt_update_history: $1 events, $2 windows (want 14-17), $3 wrong: ${res#* * * }"

echo "== every knob takes back what it reads"
# What \`sysctl -a\` saves, \`sysctl -p\` must restore: each knob of the
# series, written the value it reads, takes it and reads it again, and
# written back in the order sysctl -a lists them (sorted by name: the
# Android names of WALT's selection before sched_util_signal), the knobs
# together read as before. sched_use_walt_metrics, which reads 0 while
# WALT has one role, selects PELT for both when 0 is written: the
# saved sched_util_signal, written after it, restores the roles.
knobs() {
	for f in $K/sched_cfs_boost $K/sched_pelt_multiplier $K/sched_use_walt_* \
		 $K/sched_util_* $K/sched_walt_* \
		 /sys/devices/system/cpu/cpufreq/policy*/schedutil/* \
		 /dev/stune/schedtune.* /dev/stune/*/schedtune.*; do
		# Writable by its owner (read-only knobs: mode 444).
		case $(stat -c %A "$f" 2>/dev/null) in ??w*) echo "$f" ;; esac
	done
}
knob_values() { for f in $(knobs); do echo "$f=$(cat "$f")"; done; }
roundtrip() { # roundtrip STATE
	local line f v n=0 bad_n=0
	knob_values > /tmp/knobs.before
	while IFS= read -r line; do
		f=${line%%=*} v=${line#*=}
		n=$((n + 1))
		if ! put "$f" "$v\\n"; then
			bad "$1: $f refused '$v', what it read"; bad_n=$((bad_n + 1))
		elif [ "$(cat "$f")" != "$v" ]; then
			bad "$1: $f took '$v', then read '$(cat "$f")'"; bad_n=$((bad_n + 1))
		fi
	done < /tmp/knobs.before
	knob_values > /tmp/knobs.after
	if cmp -s /tmp/knobs.before /tmp/knobs.after; then
		[ $bad_n = 0 ] && ok "$1: $n knobs take back what they read, together unchanged"
	else
		bad "$1: written back, the knobs read otherwise: $(diff /tmp/knobs.before \
			/tmp/knobs.after | grep '^[-+]/' | tr '\n' ' ')"
	fi
}
roundtrip "defaults"
knob_values > /tmp/knobs.saved
for sel in walt walt/pelt pelt/walt; do
	echo $sel > $K/sched_util_signal
	roundtrip "sched_util_signal $sel"
done
# Every knob away from its default at once. (cgroup v2's cpu.boost
# refuses writes while schedtune is on v1, as here: its own section
# writes it what it reads.)
echo walt > $K/sched_util_signal
echo 8000000 > $K/sched_walt_ravg_window
for kv in sched_cfs_boost:-20 sched_pelt_multiplier:4 sched_walt_init_task_load_pct:40 \
	  sched_walt_account_wait_time:1 sched_walt_io_is_busy:1 sched_walt_hist_size:3; do
	echo ${kv#*:} > $K/${kv%:*} || bad "$K/${kv%:*} refused ${kv#*:}"
done
for su in /sys/devices/system/cpu/cpufreq/policy*/schedutil; do
	echo 960000 > $su/hispeed_freq; echo 80 > $su/hispeed_load; echo 1 > $su/pl
done
for g in /dev/stune/*/; do
	echo 30 > $g/schedtune.boost; echo 1 > $g/schedtune.prefer_idle
done
roundtrip "every knob set"
# What sysctl -p does with a saved file: the defaults written back.
while IFS= read -r line; do
	put "${line%%=*}" "${line#*=}\\n"
done < /tmp/knobs.saved
knob_values > /tmp/knobs.now
cmp -s /tmp/knobs.saved /tmp/knobs.now &&
	ok "the saved defaults written back restore every knob" ||
	bad "the saved defaults written back: $(diff /tmp/knobs.saved /tmp/knobs.now |
		grep '^[-+]/' | tr '\n' ' ')"

check "bad inputs refused" "$tried" "$refused"
echo "bad inputs: $tried tried, $refused refused, values unchanged"
if dmesg | grep -E 'WARNING:|BUG:|Oops|lockdep|UBSAN|KASAN' >/dev/null; then
	dmesg | grep -E -A5 'WARNING:|BUG:|Oops|lockdep|UBSAN|KASAN' | head -40
	bad "kernel log has warnings"
else
	ok "kernel log clean"
fi
echo "GUEST RESULT: $pass passed, $fail failed"
