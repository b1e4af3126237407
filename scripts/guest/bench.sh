# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=bench: one column of
# Table 3 of scripts/run.sh. The kernel command line's bench= names the
# configuration, set up here on a freshly booted kernel:
#
#   baseline    pristine 6.12 + the virtual OPP cpufreq driver only
#   pelt        the series, PELT selected, WALT off, no boost ever set
#   walt        the series, WALT selected
#   walt-boost  the series, WALT selected, benchmarks in a group boosted 10
#
# then runs hackbench (rt-tests, pipes, 2 groups x 20 senders/receivers,
# 100 loops; elapsed and CPU microseconds) and a ping-pong of two
# processes pinned to CPU 1 (50000 round trips; elapsed and CPU ns per
# round trip) RUNS times each, one "T3," CSV row per run. Under QEMU
# -icount guest time counts instructions.

RUNS=10
cfg=unset
for arg in $(cat /proc/cmdline); do
	case "$arg" in bench=*) cfg=${arg#bench=} ;; esac
done
result=ok
case $cfg in
baseline|pelt) ;;
walt|walt-boost)
	echo walt > /proc/sys/kernel/sched_util_signal || result=fail ;;
*)	result="fail (bench=$cfg)" ;;
esac
if [ $cfg = walt-boost ]; then
	mkdir -p /dev/stune
	mount -t cgroup -o schedtune none /dev/stune
	mkdir /dev/stune/boosted
	echo 10 > /dev/stune/boosted/schedtune.boost
	echo $$ > /dev/stune/boosted/tasks || result=fail
fi
[ -r /proc/sys/kernel/sched_util_signal ] &&
	echo "signal: $(cat /proc/sys/kernel/sched_util_signal)"

hackbench -p -g 2 -l 100 >/dev/null	# warm-up, not counted
i=1
while [ $i -le $RUNS ]; do
	t=$(schedbench cputime hackbench -p -g 2 -l 100) || result=fail
	echo "T3,hackbench,$cfg,$i,${t% *},${t#* }"
	i=$((i + 1))
done
i=1
while [ $i -le $RUNS ]; do
	t=$(schedbench pingpong 1 50000) || result=fail
	echo "T3,pingpong,$cfg,$i,${t% *},${t#* }"
	i=$((i + 1))
done
dmesg | grep -E 'WARNING:|BUG:|Oops|lockdep|UBSAN|KASAN' && result="fail (kernel log)"
# Timing is only as good as the clock: the TSC must have stayed the
# clocksource (scripts/guest-lib.sh, GUEST_CPU).
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
[ "$cs" = tsc ] || result="fail (clocksource $cs, not tsc)"
echo "GUEST RESULT: bench $cfg $result"
