# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=ramp-step: the measurements
# behind Table 1 (tables=1 on the kernel command line) or Table 2
# (tables=2) of scripts/run.sh, on the patched kernel with the
# virtual OPP cpufreq driver (208 ... 1200 MHz, schedutil). Prints CSV
# rows prefixed "T1,", "T2," and "T2S,"; scripts/results.py makes the
# tables.
#
# Utilization is what schedutil saw, from the sched_boost_cpu event (util
# before the margin; util + margin is the boosted value).
# Frequencies come from cpufreq's own accounting (time_in_state) and the
# cpu_frequency event.

T=/sys/kernel/tracing
CPU=1
which=1
for arg in $(cat /proc/cmdline); do
	case "$arg" in tables=*) which=${arg#tables=} ;; esac
done
STATS=/sys/devices/system/cpu/cpu$CPU/cpufreq/stats/time_in_state
result=ok

# Keep this shell and its helpers off the measured CPU.
taskset -p 1 $$ >/dev/null
echo schedutil > /sys/devices/system/cpu/cpu$CPU/cpufreq/scaling_governor
stune_bench_group

echo 0 > $T/tracing_on
echo 8192 > $T/buffer_size_kb
echo "cpu == $CPU" > $T/events/sched/sched_boost_cpu/filter
echo "cpu_id == $CPU" > $T/events/power/cpu_frequency/filter
echo 1 > $T/events/sched/sched_boost_cpu/enable
echo 1 > $T/events/power/cpu_frequency/enable

# Table 1 (SchedTune RFC v2 cover letter): an rt-app ramp, 16 ms period,
# duty cycle 5% to 60% in 5% steps of 1 s each, pinned to CPU 1, in a
# schedtune group at each boost. "runtime" (wall time) rather than "run"
# (calibrated loops): a vCPU's speed does not depend on the OPP.
{
	echo '{ "global": { "duration": 14, "calibration": 100,'
	echo '  "default_policy": "SCHED_OTHER", "logdir": "/tmp",'
	echo '  "lock_pages": false },'
	echo '  "tasks": { "ramp": { "loop": 1, "cpus": ['$CPU'], "phases": {'
	d=5 sep=
	while [ $d -le 60 ]; do
		printf '%s "d%02d": { "loop": 62, "runtime": %d,' "$sep" $d $((d * 160))
		printf ' "timer": { "ref": "tick", "period": 16000 } }\n'
		sep=, d=$((d + 5))
	done
	echo '} } } }'
} > /tmp/ramp.json

in_state() { awk '{ printf "%s:%s ", $1, $2 }' $STATS; }

[ "$which" = 1 ] && for boost in 0 15 30 60 -100; do
	echo $boost > /dev/stune/bench/schedtune.boost
	sleep 1
	before=$(in_state)
	echo > $T/trace
	echo 1 > $T/tracing_on
	sh -c 'echo $$ > /dev/stune/bench/tasks; exec rt-app /tmp/ramp.json' \
		>/tmp/rt-app.out 2>&1 || { cat /tmp/rt-app.out; result=fail; }
	echo 0 > $T/tracing_on
	after=$(in_state)
	awk -v boost=$boost -v before="$before" -v after="$after" '
	/sched_boost_cpu:/ {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^util=/) u = substr($i, 6) + 0
			if ($i ~ /^margin=/) m = substr($i, 8) + 0
		}
		n++; su += u; sb += u + m
	}
	END {
		nb = split(before, b, " "); split(after, a, " ")
		for (i = 1; i <= nb; i++) {
			split(b[i], fb, ":"); split(a[i], fa, ":")
			dt = fa[2] - fb[2]; t += dt; ft += fb[1] * dt
			if (i == 1) tmin = dt
		}
		if (!n || !t) { print "T1,error,no samples"; exit }
		printf "T1,%d,%.1f,%.1f,%.0f,%.1f,%d\n", boost, su / n, sb / n,
			ft / t / 1000, tmin * 100 / t, n
	}' $T/trace
done
echo $$ > /dev/stune/tasks

# Table 2 (WALT RFC cover letter): a 0 -> 100% -> 0 step on CPU 1 under
# each signal (PELT also at 16 and 8 ms half-lives, select_signal); times from the step to 80% / 95% utilization (819 / 973 of
# 1024), from the end of the step to 10% (102), to the highest OPP, and
# from the end of the step to the lowest OPP. step_row SIGNAL [fifo].
step_row() {
	select_signal $1 || result=fail
	f0=$(cat /sys/devices/system/cpu/cpu$CPU/cpufreq/scaling_cur_freq)
	echo > $T/trace
	echo 1 > $T/tracing_on
	schedbench step $CPU ${2:-} || result=fail
	echo 0 > $T/tracing_on
	# sched_boost_cpu's util is the signal: under PELT the fair class's
	# only, so an RT step's utilization is not in it (6.12 traces PELT's
	# RT utilization only through the bare pelt_rt_tp).
	noutil=0
	[ "$1-${2:-}" = pelt-fifo ] && noutil=1
	awk -v signal=$1${2:+-rt} -v f0=$f0 -v noutil=$noutil '
	function ts() { match($0, / [0-9]+\.[0-9]+: /); return substr($0, RSTART + 1, RLENGTH - 3) + 0 }
	function ms(t) { return noutil ? "n/a" : t ? sprintf("%.1f", (t - up) * 1000) : "never" }
	function since(t, from) { return t ? sprintf("%.1f", (t - from) * 1000) : "never" }
	/sched_util: step_up/ { up = ts() }
	/sched_util: step_down/ { down = ts() }
	/cpu_frequency:/ {
		f = $0; sub(/.*state=/, "", f); sub(/ .*/, "", f); f += 0; cur = f
		if (!up) f0 = f
		else if (!down && !tmax && f == 1200000) tmax = ts()
		else if (down && !tmin && f == 208000) tmin = ts()
	}
	/sched_boost_cpu:/ {
		u = $0; sub(/.*util=/, "", u); sub(/ .*/, "", u); u += 0; t = ts()
		# The step response for the plot (scripts/results.py).
		if (up && !noutil)
			printf "T2P,%s,%.1f,%d,%d\n", signal, (t - up) * 1000, u, (cur ? cur : f0) / 1000
		if (up && !down) {
			if (u > peak) peak = u
			if (!t80 && u >= 819) t80 = t
			if (!t95 && u >= 973) t95 = t
			n++
		}
		if (down && !t10 && u <= 102) t10 = t
	}
	END {
		if (!up || !down) { print "T2,error,no step in the trace"; exit }
		printf "T2,%s,%s,%s,%s,%s,%d,%s,%d,%s\n", signal, ms(t80), ms(t95),
			noutil ? "n/a" : since(t10, down), since(tmax, up), f0,
			noutil ? "n/a" : peak, n, since(tmin, down)
	}' $T/trace
}

# A steady load, 5 ms of every 16 ms on CPU 1 for 4 s (rt-app, wall time),
# as SCHED_OTHER or SCHED_FIFO: the average frequency schedutil picks
# (time_in_state, idle included). steady_row SIGNAL POLICY.
steady_row() {
	echo $1 > /proc/sys/kernel/sched_util_signal
	prio=
	[ $2 = SCHED_FIFO ] && prio='"priority": 10,'
	cat > /tmp/steady.json <<-JSON
	{ "global": { "duration": 5, "calibration": 100,
	  "default_policy": "SCHED_OTHER", "logdir": "/tmp", "lock_pages": false },
	  "tasks": { "load": { "loop": 250, "cpus": [$CPU], "policy": "$2", $prio
	    "runtime": 5000, "timer": { "ref": "tick", "period": 16000 } } } }
	JSON
	sleep 1
	before=$(in_state)
	rt-app /tmp/steady.json >/tmp/rt-app.out 2>&1 || { cat /tmp/rt-app.out; result=fail; }
	after=$(in_state)
	awk -v signal=$1 -v policy=$2 -v before="$before" -v after="$after" 'BEGIN {
		nb = split(before, b, " "); split(after, a, " ")
		for (i = 1; i <= nb; i++) {
			split(b[i], fb, ":"); split(a[i], fa, ":")
			dt = fa[2] - fb[2]; t += dt; ft += fb[1] * dt
			if (i == 1) tmin = dt
		}
		if (!t) { print "T2S,error,no time_in_state"; exit }
		printf "T2S,%s,%s,%.0f,%.1f\n", policy, signal, ft / t / 1000, tmin * 100 / t
	}'
}

if [ "$which" = 2 ]; then
	step_row pelt
	step_row pelt16
	step_row pelt8
	step_row walt
	# RT as Android runs it: an RT task asks for no OPP by itself
	# (uclamp.min 0 for RT tasks), so schedutil follows its utilization.
	# RT throttling off, or it would idle the step's last 50 ms.
	echo 0 > /proc/sys/kernel/sched_util_clamp_min_rt_default
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	step_row pelt fifo
	step_row walt fifo
	echo 950000 > /proc/sys/kernel/sched_rt_runtime_us
	for policy in SCHED_OTHER SCHED_FIFO; do
		steady_row pelt $policy
		steady_row walt $policy
	done
	echo 1024 > /proc/sys/kernel/sched_util_clamp_min_rt_default
fi
select_signal pelt

# Timing is only as good as the clock: the TSC must have stayed the
# clocksource (scripts/lib-qemu.sh, GUEST_CPU).
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
[ "$cs" = tsc ] || result="fail (clocksource $cs, not tsc)"
echo "GUEST RESULT: table $which $result"
