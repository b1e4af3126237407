# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=bench: one column of
# Table 3 of scripts/run.sh, on x86_64 (2 vCPUs; run.sh bench) or on the
# virtual HiKey960 (arm64, 8 vCPUs, EAS on; run.sh bench-soc). The kernel
# command line's bench= names the configuration, set up here on a freshly
# booted kernel:
#
#   baseline    pristine 6.12 + the virtual OPP cpufreq driver only
#   pelt        the series, PELT selected, WALT off, no boost ever set
#   walt        the series, WALT selected
#   pelt8       the series, PELT at an 8 ms half-life
#               (kernel.sched_pelt_multiplier 4): the ping-pong and the
#               wake from idle only, where the faster clock runs at every
#               switch
#   walt-pl     the series, WALT selected with what the Android kernels
#               added to it: schedutil's pl on every policy (so the
#               per-CPU sums of predicted demand are kept) and runnable
#               wait in task demand
#   walt-boost  the series, WALT selected, benchmarks in a group boosted 10
#   boost       the series, PELT selected, benchmarks in a group boosted 10:
#               SchedTune's cost on its own
#   boost90     the same at boost 90, the highest boost the SchedTune RFC
#               measured (run.sh bench-full)
#   uclamp      the baseline kernel, benchmarks with uclamp.min 10%: the
#               cost of upstream's per-task boost, whose enqueue/dequeue
#               bucket accounting is what SchedTune's is compared with
#
# then runs, RUNS times each, one "T3," CSV row per run (elapsed and CPU
# time, context switches of the whole guest during the run):
#
#   hackbench-1cpu  hackbench (rt-tests, pipes, 2 groups x 20 senders/
#                   receivers, 100 loops; microseconds) pinned to CPU 1:
#                   no cross-CPU wake-ups, so runs differ by a few percent
#                   instead of 50%, and 0.5% can be told from noise;
#   hackbench       the same on both CPUs;
#   messaging       with bench_set=full only (run.sh bench-full: about 80%
#                   of a boot's guest work): the SchedTune RFC's own
#                   overhead benchmark, perf bench sched messaging
#                   --thread --group 25 --loop 1000, as the same program:
#                   hackbench --threads -g 25 -l 1000 (1000 threads in 25
#                   groups passing messages), with pipes instead of
#                   sockets (-p: the guest kernel has no networking), 3
#                   runs, on both CPUs;
#   pingpong        two processes pinned to CPU 1 passing a byte through
#                   two pipes (50000 round trips; ns per round trip): the
#                   worst case, two context switches and little else;
#   periodic        a task pinned to CPU 1, otherwise idle, sleeping 1 ms
#                   and waking, 2000 times: the elapsed time per period
#                   beyond the 1 ms (timer IRQ, wake-up, switches from and
#                   to idle) and the task's CPU time, ns;
#   ipi             reads of /dev/cpu/1/cpuid from CPU 0 (20000; ns per
#                   read): each a function-call IPI to idle CPU 1, whose
#                   handler wakes the reader sleeping on CPU 0: an IRQ on
#                   an idle CPU (walt_irq()) that wakes no task there;
#   migrate         a sleeper woken from CPU 0 by a pipe, 5000 times, each
#                   time on the other CPU (the waker moves its affinity
#                   while it sleeps): every wake-up migrates it, with only
#                   p->pi_lock held (walt_migrate()); ns per round trip;
#   eas-wakeup      the virtual HiKey960 only: four tasks, not pinned,
#                   each woken every 8 ms by its timer to run 0.5 ms,
#                   500 times: every wake-up places the task with
#                   find_energy_efficient_cpu() (the placement signal's
#                   cpu_util_without() for every candidate CPU); the
#                   mean wake-up latency and CPU time per period beyond
#                   the run, ns.
#
# The virtual HiKey960 runs pingpong, periodic, migrate and eas-wakeup:
# its initramfs has no hackbench (Debian's is not static) and ipi needs
# x86's cpuid device; CPUs 0 and 1 are little ones. Under QEMU -icount guest time counts
# instructions.

RUNS=10
cfg=unset profile= set=default
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	bench=*) cfg=${arg#bench=} ;;
	bench_set=*) set=${arg#bench_set=} ;;
	bench_profile=*) profile=${arg#bench_profile=} ;;
	esac
done
result=ok
case $cfg in
baseline|pelt|boost|boost90) ;;
walt|walt-boost)
	select_signal walt || result=fail ;;
walt-pl)
	select_signal walt || result=fail
	echo 1 > /proc/sys/kernel/sched_walt_account_wait_time || result=fail
	pl=
	for su in /sys/devices/system/cpu/cpufreq/policy*/schedutil; do
		echo 1 > $su/pl && pl="$pl $(cat $su/pl)" || result=fail
	done
	[ -n "$pl" ] || result="fail (walt-pl: no schedutil policy)" ;;
pelt8)
	select_signal pelt8 || result=fail ;;
uclamp)
	# Inherited by every task this shell starts; /proc/PID/sched shows it.
	schedbench uclampmin $$ 10 || result=fail
	grep -q '^uclamp.min .*: *102$' /proc/$$/sched ||
		result="fail (uclamp.min not set: $(grep uclamp /proc/$$/sched))" ;;
*)	result="fail (bench=$cfg)" ;;
esac
case $set in
default|full) ;;
*)	result="fail (bench_set=$set)" ;;
esac
boost=
case $cfg in
walt-boost|boost) boost=10 ;;
boost90) boost=90 ;;
esac
if [ -n "$boost" ]; then
	mkdir -p /dev/stune
	mount -t cgroup -o schedtune none /dev/stune
	mkdir /dev/stune/boosted
	echo $boost > /dev/stune/boosted/schedtune.boost
	echo $$ > /dev/stune/boosted/tasks || result=fail
fi
[ -r /proc/sys/kernel/sched_util_signal ] &&
	echo "signal: $(cat /proc/sys/kernel/sched_util_signal)"

ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

# run NAME COUNT CMD...: COUNT rows "T3,NAME,cfg,i,elapsed,cpu,switches".
run() {
	local name=$1 count=$2 i=1 t c0
	shift 2
	while [ $i -le $count ]; do
		c0=$(ctxt)
		t=$("$@") || result="fail ($name)"
		echo "T3,$name,$cfg,$i,${t% *},${t#* },$(( $(ctxt) - c0 ))"
		i=$((i + 1))
	done
}

# bench_profile=NAME (scripts/profile.sh): one run of benchmark NAME
# between two sync(2) calls, where the host's QEMU plugin counts the
# instructions of every code block.
if [ -n "$profile" ]; then
	case $profile in
	pingpong) set -- schedbench pingpong 1 50000 ;;
	periodic) set -- schedbench periodic 1 2000 1000 ;;
	migrate) set -- schedbench migrate 5000 ;;
	eas-wakeup) set -- schedbench eas 4 500 8000 500 ;;
	*) set -- false; result="fail (bench_profile=$profile)" ;;
	esac
	sync
	run "$profile" 1 "$@"
	sync
elif [ "$(uname -m)" = aarch64 ]; then
	run pingpong $RUNS schedbench pingpong 1 50000
	run periodic $RUNS schedbench periodic 1 2000 1000
	run migrate $RUNS schedbench migrate 5000
	run eas-wakeup $RUNS schedbench eas 4 500 8000 500
elif [ $cfg = pelt8 ]; then
	hackbench -p -g 2 -l 100 >/dev/null	# warm-up, not counted
	run pingpong $RUNS schedbench pingpong 1 50000
	run periodic $RUNS schedbench periodic 1 2000 1000
else
	hackbench -p -g 2 -l 100 >/dev/null	# warm-up, not counted
	run hackbench-1cpu $((2 * RUNS)) taskset -c 1 schedbench cputime hackbench -p -g 2 -l 100
	run hackbench $RUNS schedbench cputime hackbench -p -g 2 -l 100
	[ $set = full ] &&
		run messaging 3 schedbench cputime hackbench -p --threads -g 25 -l 1000
	run pingpong $RUNS schedbench pingpong 1 50000
	run periodic $RUNS schedbench periodic 1 2000 1000
	run ipi $RUNS schedbench ipi 1 20000
	run migrate $RUNS schedbench migrate 5000
fi
dmesg | grep -E 'WARNING:|BUG:|Oops|lockdep|UBSAN|KASAN' && result="fail (kernel log)"
# Timing is only as good as the clock: the TSC (scripts/lib-qemu.sh,
# GUEST_CPU), or arm64's architected timer, must have stayed the
# clocksource.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
want=tsc
[ "$(uname -m)" = aarch64 ] && want=arch_sys_counter
[ "$cs" = $want ] || result="fail (clocksource $cs, not $want)"
echo "GUEST RESULT: bench $cfg $result"
