# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=soc: the virtual SoC
# (QEMU arm64 virt with the CPUs of board=hikey or board=hikey960 in its
# device tree, scripts/soc-dtb.py). soc=checks checks what the kernel made
# of the tree and calibrates the emulated work; soc=table1 (HiKey) runs
# the SchedTune RFC's ramp as work at each boost and dumps what the host
# needs for PerfIndex, frequency, energy and the plots
# (scripts/results.py, scripts/energy.py); soc=table5 (HiKey960) measures
# placement; soc=table4 runs Table 4's loads under configuration t4= (at
# the end). Output lines:
#   PASS/FAIL <check>: ...
#   EM,<cpu>,<kHz>,<power uW>,<inefficient>  the Energy Model, per perf
#                                   domain (1: a higher OPP costs no more
#                                   energy per cycle; schedutil skips it)
#   POLICY,<cpu>,<related cpus>     the cpufreq policies
#   T1H,<boost>,<PerfIndex avg>,<std>,<activations>
#   == trace <boost> ... == trace end   the raw trace of one ramp
#   T5,<signal>,<scenario>,<setting>,<run>,<socload's numbers>
#   == trace5 <signal> <scenario> <setting> <run> ... == trace end
#   T4,<config>,<load>,<run>,<socload's numbers>
#   T4R,<config>,<rt-app workload>,<run>,<in_bench_rtapp's numbers>
#   RTAPP,<cpu>,<kHz>,<expected us>,<rt-app's us>  rt-app's calibration
#   == trace4 <config> <load> <run> ... == trace end

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

# The capacities arch_topology derived: dmips x max_freq, the largest
# scaled to 1024 (drivers/base/arch_topology.c).
check_capacities() {
	local cpu n=0 max=0 bad=
	for d in /proc/device-tree/cpus/cpu@*; do
		cpu=$n n=$((n + 1))
		eval dmips$cpu=$(dt_u32 $d/capacity-dmips-mhz)
		eval fmax$cpu=$(cat $CPUS/cpu$cpu/cpufreq/cpuinfo_max_freq)
		eval "p=\$((dmips$cpu * fmax$cpu))"
		[ $p -gt $max ] && max=$p
	done
	caps=
	for cpu in $(seq 0 $((n - 1))); do
		eval "want=\$((dmips$cpu * fmax$cpu * 1024 / max))"
		got=$(cat $CPUS/cpu$cpu/cpu_capacity)
		caps="$caps $got"
		[ "$got" = "$want" ] || bad="$bad cpu$cpu=$got(want $want)"
	done
	[ -z "$bad" ]; check capacities $? "cpu_capacity$caps${bad:+; wrong:$bad}"
}

check_policies() {
	local want got=
	for p in $(policies); do
		got="$got ${p}:$(cat $CPUS/cpufreq/policy$p/related_cpus | tr -d '\n')"
	done
	case $board in
	hikey) want=" 0:0 1 2 3 4 5 6 7 " ;;
	hikey960) want=" 0:0 1 2 3 4:4 5 6 7 " ;;
	esac
	[ "$got " = "$want" ]; check policies $? "one per OPP table:$got"
	local bad=
	for p in $(policies); do
		[ "$(cat $CPUS/cpufreq/policy$p/scaling_governor)" = schedutil ] || bad="$bad $p"
		[ -d /sys/kernel/debug/energy_model/cpu$p ] || bad="$bad em$p"
	done
	[ -z "$bad" ]; check energy-model $? "schedutil and an EM on every policy${bad:+; missing:$bad}"
	# The OPP tables' clock-latency-ns (the same in every OPP of both
	# boards), and schedutil's rate limit, 1.5 times it.
	local lat rl got=
	lat=$(find /sys/firmware/devicetree/base -name clock-latency-ns | head -1)
	lat=$(dt_u32 $lat)
	bad=
	for p in $(policies); do
		rl=$(cat $CPUS/cpufreq/policy$p/schedutil/rate_limit_us \
			$CPUS/cpufreq/schedutil/rate_limit_us 2>/dev/null | head -1)
		got="$got $p:$(cat $CPUS/cpufreq/policy$p/cpuinfo_transition_latency)ns/${rl}us"
		[ "$(cat $CPUS/cpufreq/policy$p/cpuinfo_transition_latency)" = $lat ] &&
			[ "$rl" = $((lat * 3 / 2000)) ] || bad=1
	done
	[ -z "$bad" ]; check transition-latency $? "clock-latency-ns and schedutil's rate limit:$got (want ${lat}ns/$((lat * 3 / 2000))us)"
}

check_eas() {
	local eas pd
	eas=$(cat /proc/sys/kernel/sched_energy_aware 2>/dev/null || echo missing)
	pd=$(dmesg | grep -o 'root_domain [0-9-]*: pd.*' | tail -1)
	if [ $board = hikey960 ]; then
		[ "$eas" = 1 ] && [ -n "$pd" ]
		check eas $? "sched_energy_aware=$eas, ${pd:-no perf domains in the root domain}"
	else
		# Symmetric capacities: 6.12 does not build perf domains.
		[ -z "$pd" ]; check eas-off $? "symmetric CPUs, ${pd:-no perf domains}"
	fi
}

# Work calibration: at each OPP of each policy (userspace governor), 20 ms
# of reference work on the policy's first CPU takes
# 20 ms * 1024 / capacity * f_max / f, within 2%, in elapsed time (CPU
# time, which the emulation counts, is printed too); so does an rt-app run
# event of 20 ms, as rt-app measures it.
check_work() {
	local p f cap fmax want got bad= worst=0 rbad= rworst=0
	for p in $(policies); do
		echo userspace > $CPUS/cpufreq/policy$p/scaling_governor
		cap=$(cat $CPUS/cpu$p/cpu_capacity)
		fmax=$(cat $CPUS/cpu$p/cpufreq/cpuinfo_max_freq)
		for f in $(cat $CPUS/cpufreq/policy$p/scaling_available_frequencies); do
			echo $f > $CPUS/cpufreq/policy$p/scaling_setspeed
			want=$((20000 * 1024 * (fmax / 1000) / cap / (f / 1000)))
			set -- $(socload work $p 20000)
			# Elapsed time: what a user waits, interrupts included.
			got=$2
			err=$(( (got - want) * 1000 / want ))
			[ ${err#-} -gt ${worst#-} ] && worst=$err
			[ ${err#-} -le 20 ] || bad="$bad cpu$p@$f:${got}us(want ${want}us)"
			echo "WORK,$p,$f,$want,$1,$2"
			got=$(rtapp_run_us $p 20000)
			err=$(( (got - want) * 1000 / want ))
			[ ${err#-} -gt ${rworst#-} ] && rworst=$err
			[ ${err#-} -le 20 ] || rbad="$rbad cpu$p@$f:${got}us(want ${want}us)"
			echo "RTAPP,$p,$f,$want,$got"
		done
	done
	[ -z "$bad" ]; check work-calibration $? "20 ms of work at every OPP, elapsed: worst error $worst/1000${bad:+;$bad}"
	[ -z "$rbad" ]; check rt-app-calibration $? "rt-app's run of 20 ms at every OPP, elapsed: worst error $rworst/1000${rbad:+;$rbad}"
}

# One rt-app thread on CPU $1 with one run event of $2 us of work; prints
# the elapsed time rt-app measured for it (its log's run column), in us.
# (A thread without phases loops for ever, whatever its "loop".)
rtapp_run_us() { # cpu us
	mkdir -p /tmp/rtcal && rm -f /tmp/rtcal/*
	cat > /tmp/rtcal/cal.json <<-EOF
	{ "tasks" : { "cal" : { "cpus" : [ $1 ], "loop" : 1,
		"phases" : { "p" : { "run" : $2 } } } },
	  "global" : { "duration" : -1, "default_policy" : "SCHED_OTHER",
		"logdir" : "/tmp/rtcal", "log_basename" : "cal",
		"lock_pages" : false, "ftrace" : false, "gnuplot" : false } }
	EOF
	rt-app /tmp/rtcal/cal.json >/dev/null 2>&1
	awk '!/^#/ { print $3; exit }' /tmp/rtcal/cal-cal-0.log 2>/dev/null || echo 0
}

# Frequency invariance: the PELT utilization of a periodic load of fixed
# work (1.5 ms of reference work every 16 ms, 2 s) reads the same at every
# OPP of every cluster, within 3% of their mean.
check_invariance() {
	local p f u all= n=0 sum=0
	for p in $(policies); do
		for f in $(cat $CPUS/cpufreq/policy$p/scaling_available_frequencies); do
			echo $f > $CPUS/cpufreq/policy$p/scaling_setspeed
			u=$(socload periodic $p 16000 1500 2)
			echo "UTIL,$p,$f,$u"
			all="$all $u"
		done
		echo schedutil > $CPUS/cpufreq/policy$p/scaling_governor
	done
	echo "$all" | awk '{ for (i = 1; i <= NF; i++) s += $i; m = s / NF
		for (i = 1; i <= NF; i++) { d = ($i - m) / m; if (d < 0) d = -d; if (d > w) w = d }
		printf "%.1f %.1f\n", m, w * 100; exit !(w <= 0.03) }' > /tmp/inv
	check util-invariance $? "util_avg at every OPP and cluster:$all (mean, worst % off: $(cat /tmp/inv))"
}

# SchedTune on a shared policy: a task of boost 60 on CPU 1 runs 100 ms of
# work every 500 ms, twice, and sleeps in between. schedutil takes the
# highest request of the policy's CPUs, recomputed at every update of any
# of them (idle ones' blocked-load updates included), and a sleeping task's
# idle CPU 1 that still applied boost 60 would ask for at least 60% of its
# capacity, times 1.25: 3/4 of the top OPP, for the whole policy. An idle
# CPU keeps only a deflating boost (sched-tune.rst, section 5). The check
# reads what schedutil applied to CPU 1 from its sched_boost_cpu events: a
# margin above 0 in at least one while the task ran its first activation
# (so that the check can fail), and none in the 100 ms after the task
# first slept, with at least one event there. Before patch 0025 every one
# of those had a margin (546 on the HiKey, 604 on the HiKey960) and the
# policy stayed at its top OPP; after it, the policies averaged 782 of 1200
# and 1777 of 1844 MHz in those 100 ms. That mean frequency, from the
# policy's cpu_frequency events, is printed, not checked: the sleeping
# task's own blocked utilization, unboosted, and the other CPUs' set it. Commands forked meanwhile would start with half their
# CPU's spare capacity as their utilization (post_init_entity_util_avg()):
# the mark and the read are shell builtins, and the task starts 0.5 s
# after its launcher and the sleep the shell waits for.
check_idle_hold() {
	local p first fmax
	set -- $(cat $CPUS/cpu1/cpufreq/related_cpus)
	[ $# -gt 1 ] || { check idle-hold 1 "CPU 1 has a policy of its own"; return; }
	first=$1
	p=$CPUS/cpu1/cpufreq
	read -r fmax < $p/cpuinfo_max_freq
	stune_bench_group
	echo 60 > /dev/stune/bench/schedtune.boost
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo "cpu_id == $first" > $T/events/power/cpu_frequency/filter
	echo "cpu == 1" > $T/events/sched/sched_boost_cpu/filter
	echo "prev_comm == \"socload\"" > $T/events/sched/sched_switch/filter
	for e in power/cpu_frequency sched/sched_boost_cpu sched/sched_switch; do
		echo 1 > $T/events/$e/enable
	done
	echo 1 > $T/tracing_on
	sleep 1.5 &
	sh -c "sleep 0.5; read -r f < $p/scaling_cur_freq
		echo \"hold_run \$f\" > $T/trace_marker
		echo \$\$ > /dev/stune/bench/tasks
		exec socload periodic 1 500000 100000 1" >/dev/null
	wait
	echo 0 > $T/tracing_on
	for e in power/cpu_frequency sched/sched_boost_cpu sched/sched_switch; do
		echo 0 > $T/events/$e/enable
		echo 0 > $T/events/$e/filter
	done
	echo 0 > /dev/stune/bench/schedtune.boost
	set -- $(awk '
		function upto(to) {
			if (seg == 1) { run += f * (to - t); rt += to - t }
			if (seg == 2) {
				if (to > end) to = end
				if (to > t) { idle += f * (to - t); it += to - t }
			}
			t = to
		}
		/tracing_mark_write: hold_run/ { f = $NF; t = $4 + 0; seg = 1; next }
		/sched_switch:.*prev_state=S / && seg == 1 { upto($4 + 0); seg = 2; end = t + 0.1; next }
		/cpu_frequency:/ && seg { upto($4 + 0); f = $(NF - 1); sub(/state=/, "", f) }
		/sched_boost_cpu:/ && seg {
			m = $NF; sub(/margin=/, "", m)
			if (seg == 1 && m > 0) up++
			if (seg == 2 && $4 + 0 <= end) { n++; if (m != 0) { held++; last = m } }
		}
		END { upto(end); printf "%d %d %d %d %d %d\n", (rt > 0 ? run / rt : 0),
			(it > 0 ? idle / it : 0), up + 0, n + 0, held + 0, last + 0 }' $T/trace)
	[ "$3" -gt 0 ] && [ "$4" -gt 0 ] && [ "$5" = 0 ]
	check idle-hold $? "CPU 1 of policy $(cat $p/related_cpus | sed 's/ $//'), boost 60: $3 schedutil updates with a margin while the task ran, then $5 of $4 in the 100 ms after it slept (last margin $6); policy mean $1 kHz, then $2 (top $fmax)"
}

if [ $part = checks ]; then
	print_model
	check_capacities
	check_policies
	check_eas
	check_work
	check_invariance
	check_idle_hold
	bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|virt_opp_cpufreq: ' | head -3)
	[ -z "$bad" ]; check kernel-log $? "${bad:-no WARN, BUG, Oops or virt-opp refusal}"
	[ $fails = 0 ] || result="$fails failed"
	echo "GUEST RESULT: soc $board checks $result"
fi

# Table 1 on the virtual HiKey: the ramp as work on CPU 1, in a schedtune
# group at each boost. The trace (sched_switch of every CPU, cpu_frequency
# of each policy's first CPU, sched_boost_cpu of CPU 1, the ramp's
# markers) goes to the console for scripts/energy.py and the plots.
if [ $part = table1 ]; then
	print_model
	stune_bench_group
	echo 0 > $T/tracing_on
	echo 16384 > $T/buffer_size_kb
	echo "cpu == 1" > $T/events/sched/sched_boost_cpu/filter
	echo "$(policies | sed 's/^/cpu_id == /' | paste -sd '|' | sed 's/|/ || /g')" \
		> $T/events/power/cpu_frequency/filter
	for e in sched/sched_boost_cpu power/cpu_frequency sched/sched_switch; do
		echo 1 > $T/events/$e/enable
	done
	for boost in 0 15 30 60 -100; do
		echo $boost > /dev/stune/bench/schedtune.boost
		sleep 1
		echo > $T/trace
		echo 1 > $T/tracing_on
		# After tracing_on: a change after the read is in the trace.
		f0=$(for p in $(policies); do
			echo "F0,$p,$(cat $CPUS/cpufreq/policy$p/scaling_cur_freq)"
		done)
		out=$(sh -c 'echo $$ > /dev/stune/bench/tasks; exec socload ramp 1') ||
			result=fail
		echo 0 > $T/tracing_on
		set -- $out
		echo "T1H,$boost,$2,$3,$4"
		echo "== trace $boost"
		echo "$f0"
		grep -v '^#' $T/trace
		echo "== trace end"
	done
	echo $$ > /dev/stune/tasks
	echo "GUEST RESULT: soc $board table1 $result"
fi

# Table 5 on the virtual HiKey960 (EAS on): placement with PELT and with
# WALT selected, three runs of each scenario (scripts/guest/socload.c):
#   heavy    a 10% task steps to 100%: ms until it runs on a big CPU;
#   sleeper  an 80% task sleeps 300 ms: the cluster it wakes on, ms until
#            it is on a big CPU;
#   place    a 25% task at boost 0 and 60: % of its CPU time on big CPUs,
#            PerfIndex; energy from the trace on the host;
#   place10  the same for a 10% task at boost 0 and 80: a boost beyond
#            fits_capacity()'s headroom (100 + 739 > 819) still places
#            it on a big CPU (sched-tune.rst, section 6);
#   wake4    four 0.5 ms tasks woken together every 32 ms beside four
#            tasks of 3 ms every 16 ms, prefer_idle 0 and 1: wake-up
#            latency and where the wakees ran.
# The first run of heavy and sleeper and every place run dump their trace
# (timelines and energy), every wake4 run the wakees' switches in (whether
# a wakee found its CPU idle). Then LISA's SchedTune check: every
# sched_boost_task event of socload on a ramp at boost 30 and a place run
# at boost -30 has margin == (1024 - util) * 30 // 100, respectively
# -(util * 30 // 100) (sched-tune.rst, section 2), and there are events.
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

t5_line() { # signal scenario setting run output
	case "$5" in
	failed|"") result=fail; echo "FAIL table5: socload $2 $3 run $4 under $1" ;;
	esac
	echo "T5,$1,$2,$3,$4,$(echo $5 | cut -d' ' -f2- | tr ' ' ',')"
}

# LISA's criterion over the sched_boost_task events in the trace, for
# boost $1: "boost:events:wrong:first wrong util/margin/expected".
t5_lisa() {
	awk -v b=$1 '
		/sched_boost_task:/ {
			u = $0; sub(/.*util=/, "", u); sub(/ .*/, "", u)
			m = $0; sub(/.*margin=/, "", m); sub(/ .*/, "", m)
			u += 0; m += 0; n++
			if (b > 0) want = (u >= 1024) ? 0 : int((1024 - u) * b / 100)
			else want = -int(u * -b / 100)
			if (m != want) { bad++; if (!ex) ex = u "/" m "/" want }
		}
		END { printf "%d:%d:%d:%s", b, n + 0, bad + 0, ex }' $T/trace
}

if [ $part = table5 ]; then
	print_model
	stune_bench_group
	trace_setup
	mine='next_comm == "socload" || prev_comm == "socload"'
	for sig in pelt walt; do
		echo $sig > /proc/sys/kernel/sched_util_signal
		sleep 1
		for run in 1 2 3; do
			trace_start "$mine"
			t5_line $sig heavy - $run "$(in_bench socload step -1)"
			[ $run = 1 ] && trace_dump "trace5 $sig heavy - $run"
		done
		for run in 1 2 3; do
			trace_start "$mine"
			t5_line $sig sleeper - $run "$(in_bench socload sleeper -1)"
			[ $run = 1 ] && trace_dump "trace5 $sig sleeper - $run"
		done
		for load in place:0:4000 place:60:4000 place10:0:1600 place10:80:1600; do
			scen=${load%%:*} boost=${load#*:} work=${boost#*:} boost=${boost%:*}
			echo $boost > /dev/stune/bench/schedtune.boost
			for run in 1 2 3; do
				trace_start 0
				t5_line $sig $scen $boost $run "$(in_bench socload place -1 2 $work)"
				trace_dump "trace5 $sig $scen $boost $run"
			done
		done
		echo 0 > /dev/stune/bench/schedtune.boost
		for pi in 0 1; do
			echo $pi > /dev/stune/bench/schedtune.prefer_idle
			for run in 1 2 3; do
				bg=
				for i in 1 2 3 4; do
					socload periodic -1 16000 3000 3 >/dev/null &
					bg="$bg $!"
				done
				sleep 0.5
				trace_start 'next_comm == "wakee"'
				t5_line $sig wake4 $pi $run "$(in_bench socload wake4 -1 50)"
				trace_dump "trace5 $sig wake4 $pi $run"
				wait $bg
			done
		done
		echo 0 > /dev/stune/bench/schedtune.prefer_idle
	done
	echo pelt > /proc/sys/kernel/sched_util_signal
	echo 0 > $T/events/sched/sched_switch/enable
	echo 0 > $T/events/power/cpu_frequency/enable

	echo 'comm == "socload"' > $T/events/sched/sched_boost_task/filter
	echo 1 > $T/events/sched/sched_boost_task/enable
	lisa=
	for run in 30:ramp -30:place; do
		boost=${run%:*}
		echo $boost > /dev/stune/bench/schedtune.boost
		echo > $T/trace
		echo 1 > $T/tracing_on
		if [ ${run#*:} = ramp ]; then
			in_bench socload ramp -1 >/dev/null
		else
			in_bench socload place -1 1 >/dev/null
		fi
		echo 0 > $T/tracing_on
		lisa="$lisa $(t5_lisa $boost)"
	done
	echo 0 > $T/events/sched/sched_boost_task/enable
	echo 0 > /dev/stune/bench/schedtune.boost
	bad=0 desc=
	for l in $lisa; do
		set -- $(echo "$l" | tr ':' ' ')
		desc="$desc boost $1: $2 events, $3 off${4:+ (util/margin/expected $4)};"
		[ "$2" -gt 0 ] && [ "$3" = 0 ] || bad=1
	done
	check lisa-boost-task $bad "every sched_boost_task of socload on a ramp at boost 30 and a 25% task at -30:$desc"
	echo $$ > /dev/stune/tasks
	bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops' | head -3)
	[ -z "$bad" ]; check kernel-log $? "${bad:-no WARN, BUG or Oops}"
	[ $fails = 0 ] || result="$fails failed"
	echo "GUEST RESULT: soc $board table5 $result"
fi

# Table 4: energy and performance under one configuration (t4=, one boot
# each, scripts/run.sh energy): performance, schedutil with pelt (pelt8:
# at an 8 ms half-life, kernel.sched_pelt_multiplier 4), walt
# (20 ms windows; waltN: the boot set N ms), any of them with options
# -pl (schedutil's pl: WALT's predicted demand as a floor), -hs
# (schedutil's hispeed_freq at each policy's third OPP, hispeed_load 90)
# -boostN (the loads' group at boost N, as the Pixel's top-app) and -wait
# (WALT's demand counts runnable wait, sched_walt_account_wait_time), and
# powersave.
# t4_runs= runs of each load: socload's video (10 s), ui (HiKey960 only:
# 51 bursts) and bench (the RFC's cpufreq-bench, 5 rounds, on the last CPU,
# a big one on the HiKey960), and every rt-app workload in /guest/rt-app.
# Each run dumps the idle switches and the frequency changes, all the
# host needs for the energy (scripts/energy.py).
if [ $part = table4 ]; then
	print_model
	stune_bench_group
	# A configuration's name: a governor (performance, powersave), or
	# a signal as select_signal names it (waltN: WALT whose boot set
	# N ms windows), then options: -pl, -hs, -boostN.
	gov=schedutil sig=${t4%%-*} boost=0 pl=0 hs=0 wait=0 want=20000000
	for o in $(echo "${t4#$sig}" | tr - ' '); do
		case $o in
		pl) pl=1 ;;
		hs) hs=1 ;;
		wait) wait=1 ;;
		boost*) boost=${o#boost} ;;
		*) check config 1 "unknown option $o in t4=$t4" ;;
		esac
	done
	case $sig in
	performance|powersave) gov=$sig sig=pelt ;;
	walt[0-9]*) want=${sig#walt}000000 sig=walt ;;
	esac
	for p in $(policies); do
		echo $gov > $CPUS/cpufreq/policy$p/scaling_governor
	done
	select_signal $sig || check config 1 "unknown signal in t4=$t4"
	echo $boost > /dev/stune/bench/schedtune.boost || check config 1 "bad boost in t4=$t4"
	echo $wait > /proc/sys/kernel/sched_walt_account_wait_time ||
		check config 1 "sched_walt_account_wait_time refused $wait"
	floors=
	if [ $gov = schedutil ]; then
		for p in $(policies); do
			su=$CPUS/cpufreq/policy$p/schedutil
			hsf=0
			[ $hs = 1 ] && hsf=$(tr ' ' '\n' < $CPUS/cpufreq/policy$p/scaling_available_frequencies |
				grep . | sort -n | sed -n 3p)
			echo $pl > $su/pl && echo 90 > $su/hispeed_load &&
				echo $hsf > $su/hispeed_freq ||
				check config 1 "schedutil refused pl $pl, hispeed_freq $hsf on policy $p"
			floors="$floors policy$p pl $(cat $su/pl) hispeed $(cat $su/hispeed_freq)/$(cat $su/hispeed_load)"
		done
		echo "== t4 schedutil floors:$floors"
	fi
	# A battery-powered device's setting (Documentation/admin-guide/
	# sysctl/kernel.rst): RT tasks not run at the top OPP by default.
	echo 0 > /proc/sys/kernel/sched_util_clamp_min_rt_default
	mult=1
	case $sig in
	pelt16) sig=pelt mult=2 ;;
	pelt8) sig=pelt mult=4 ;;
	esac
	got="$(cat $CPUS/cpufreq/policy*/scaling_governor | sort -u | tr '\n' ' ')"
	got="$got$(cat /proc/sys/kernel/sched_util_signal) $(cat /proc/sys/kernel/sched_pelt_multiplier)"
	got="$got $(cat /proc/sys/kernel/sched_walt_ravg_window)"
	got="$got $(cat /dev/stune/bench/schedtune.boost)"
	got="$got $(cat /proc/sys/kernel/sched_util_clamp_min_rt_default)"
	got="$got $(cat /proc/sys/kernel/sched_walt_account_wait_time)"
	[ "$got" = "$gov $sig $mult $want $boost 0 $wait" ]
	check config $? "$t4: governor, signal, PELT multiplier, WALT window, boost, RT uclamp.min, runnable wait: $got"
	trace_setup
	loads="video:10 ui:51 bench:5"
	[ $board = hikey ] && loads="video:10 bench:5"
	for w in /guest/rt-app/*.json; do
		[ -f $w ] && loads="$loads rtapp:$(basename $w .json)"
	done
	last=$(($(ls -d $CPUS/cpu[0-9]* | wc -l) - 1))
	sleep 1
	for run in $(seq $t4_runs); do
		for l in $loads; do
			name=${l%:*}
			# The energy needs when each CPU turns busy or idle.
			trace_start "prev_pid == 0 || next_pid == 0"
			case $l in
			rtapp:*)
				name=${l#rtapp:}
				out=$(in_bench_rtapp /guest/rt-app/$name.json)
				tag=T4R ;;
			bench:*)
				out=$(in_bench socload bench $last ${l#*:})
				tag=T4 ;;
			*)
				out=$(in_bench socload $name -1 ${l#*:})
				tag=T4 ;;
			esac
			case "$out" in
			failed|"") result=fail; echo "FAIL table4: $l run $run under $t4" ;;
			esac
			echo "$tag,$t4,$name,$run,$(echo $out | cut -d' ' -f2- | tr ' ' ',')"
			trace_dump "trace4 $t4 $name $run"
		done
	done
	echo $$ > /dev/stune/tasks
	bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops' | head -3)
	[ -z "$bad" ]; check kernel-log $? "${bad:-no WARN, BUG or Oops}"
	[ $fails = 0 ] || result="$fails failed"
	echo "GUEST RESULT: soc $board table4 $t4 $result"
fi
