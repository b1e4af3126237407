# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the virtual SoC's part scripts (soc.sh, place.sh, energy.sh;
# QEMU arm64 virt with the CPUs of board=hikey or board=hikey960 in its
# device tree, scripts/soc-dtb.py): the kernel command line's board=,
# soc=, t4= and t4_runs=, PASS/FAIL checks, the cpufreq policies and the
# Energy Model as rows, a run's trace, and the loads run in the bench
# group. Output lines:
#   PASS/FAIL <check>: ...
#   EM,<cpu>,<kHz>,<power uW>,<inefficient>  the Energy Model, per perf
#                                   domain (1: a higher OPP costs no more
#                                   energy per cycle; schedutil skips it)
#   POLICY,<cpu>,<related cpus>     the cpufreq policies
#   GUEST RESULT: soc <board> <what> ok|...   what scripts/run.sh reads

T=/sys/kernel/tracing
CPUS=/sys/devices/system/cpu
board=hikey part=checks t4=pelt t4_runs=3
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	board=*) board=${arg#board=} ;;
	soc=*) part=${arg#soc=} ;;
	t4=*) t4=${arg#t4=} ;;
	t4_runs=*) t4_runs=${arg#t4_runs=} ;;
	esac
done
result=ok fails=0
taskset -p 1 $$ >/dev/null

check() { # name condition-result message
	if [ "$2" = 0 ]; then
		echo "PASS $1: $3"
	else
		echo "FAIL $1: $3"
		fails=$((fails + 1))
	fi
}

# A big-endian u32 cell of the device tree.
dt_u32() { od -An -tu1 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }'; }

policies() { ls -d $CPUS/cpufreq/policy* | sed 's/.*policy//' | sort -n; }

print_model() {
	for p in $(policies); do
		echo "POLICY,$p,$(cat $CPUS/cpufreq/policy$p/related_cpus | tr ' ' ':' | sed 's/:$//')"
		for ps in /sys/kernel/debug/energy_model/cpu$p*/ps:*; do
			[ -d "$ps" ] || continue
			echo "EM,$p,$(cat $ps/frequency),$(cat $ps/power),$(cat $ps/inefficient)"
		done
	done
}


# Tables 4 and 5 trace sched_switch and each policy's frequency changes,
# into a buffer large enough for a run; trace_start begins a run.
trace_setup() {
	echo 0 > $T/tracing_on
	echo 16384 > $T/buffer_size_kb
	echo "$(policies | sed 's/^/cpu_id == /' | paste -sd '|' | sed 's/|/ || /g')" \
		> $T/events/power/cpu_frequency/filter
	for e in power/cpu_frequency sched/sched_switch; do
		echo 1 > $T/events/$e/enable
	done
}

trace_start() { # sched_switch filter ("0": none)
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo "$1" > $T/events/sched/sched_switch/filter
	F0=$(for p in $(policies); do
		echo "F0,$p,$(cat $CPUS/cpufreq/policy$p/scaling_cur_freq)"
	done)
	echo 1 > $T/tracing_on
}

trace_dump() { # label
	echo 0 > $T/tracing_on
	echo "== $1"
	echo "$F0"
	grep -v '^#' $T/trace
	echo "== trace end"
}

# socload in the bench group; its output line, or "failed".
in_bench() { # socload args...
	sh -c 'echo $$ > /dev/stune/bench/tasks; exec "$@"' in_bench "$@" ||
		echo failed
}

# rt-app running workload $1 in the bench group, in a directory of its
# own for its logs (the workloads' logdir is "./"). Prints "rtapp
# THREADS ACTS MISSED PERF STRETCH" from its per-thread logs: the
# periodic threads (those with a timer: c_period > 0), their activations,
# those that missed their period (slack < 0), LISA's PerfIndex averaged
# over those activations (slack / (c_period - c_duration),
# lisa/analysis/rta.py; 0 without periodic threads), and the elapsed time
# of every thread's run events over their reference work (1.00: as fast
# as the reference CPU); "failed" if rt-app failed or logged no work.
in_bench_rtapp() { # json
	local secs left pid tid
	rm -rf /tmp/rtapp && mkdir /tmp/rtapp
	secs=$(sed -n '/"global"/,$s/.*"duration" *: *\([0-9]*\).*/\1/p' $1 | head -1)
	echo "sched_util: t4_start" > $T/trace_marker
	(cd /tmp/rtapp && in_bench rt-app $1 > /tmp/rtapp/out 2>&1; echo $? > /tmp/rtapp/rc) &
	# rt-app ends at its duration; one that is still running at three
	# times it, plus 30 s, hangs: say where each of its threads waits.
	left=$((3 * ${secs:-10} + 30))
	while [ ! -f /tmp/rtapp/rc ] && [ $left -gt 0 ]; do
		sleep 1
		left=$((left - 1))
	done
	if [ ! -f /tmp/rtapp/rc ]; then
		pid=$(pidof rt-app | cut -d' ' -f1)
		echo "rt-app $1 still running $((3 * ${secs:-10} + 30)) s after its start (duration $secs s); its threads:" >&2
		for tid in $(ls /proc/$pid/task 2>/dev/null); do
			echo "  $tid $(cat /proc/$pid/task/$tid/comm) state $(cut -d' ' -f3 /proc/$pid/task/$tid/stat) wchan $(cat /proc/$pid/task/$tid/wchan)" >&2
		done
		tail -5 /tmp/rtapp/out >&2
		kill -9 $(pidof rt-app) 2>/dev/null
		wait
		echo failed
		return
	fi
	wait
	[ "$(cat /tmp/rtapp/rc)" = 0 ] || { tail -5 /tmp/rtapp/out >&2; echo failed; return; }
	echo "sched_util: t4_end" > $T/trace_marker
	awk '!/^#/ && NF >= 11 {
		if (FILENAME != last) { last = FILENAME; periodic = 0 }
		run += $3; ref += $9
		if ($10 > 0) {
			if (!periodic) { periodic = 1; threads++ }
			n++
			if ($8 < 0) miss++
			if ($10 > $9) perf += $8 / ($10 - $9)
		}
	}
	END {
		if (!ref) { print "failed"; exit }
		printf "rtapp %d %d %d %.3f %.3f\n", threads, n, miss, n ? perf / n : 0, run / ref
	}' /tmp/rtapp/*.log
}

# The end of a part: the kernel log has no report matching $2 (default:
# WARN, BUG, Oops), then the result line for $1.
soc_result() { # what [regex]
	local bad
	bad=$(dmesg | grep -E "${2:-WARNING:|BUG:|Oops}" | head -3)
	[ -z "$bad" ]; check kernel-log $? "${bad:-no kernel report matching ${2:-WARNING:|BUG:|Oops}}"
	[ $fails = 0 ] || result="$fails failed"
	echo "GUEST RESULT: soc $board $1 $result"
}
