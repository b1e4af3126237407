# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=tables: the measurements
# behind Table 1 (tables=1 on the kernel command line) or Table 2
# (tables=2) of scripts/run.sh, on the patched kernel with the
# virtual OPP cpufreq driver (208 ... 1200 MHz, schedutil). Prints CSV
# rows prefixed "T1," and "T2,"; scripts/results.py makes the tables.
#
# Utilization is what schedutil saw, from the sched_boost_cpu event (util
# before the margin; util + margin is the boosted value). SchedTune emits
# it once a boost has ever been set, so one is set and reset first.
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
mkdir -p /dev/stune
mount -t cgroup -o schedtune none /dev/stune
mkdir /dev/stune/bench
echo 1 > /dev/stune/bench/schedtune.boost
echo 0 > /dev/stune/bench/schedtune.boost

echo 0 > $T/tracing_on
echo 8192 > $T/buffer_size_kb
echo "cpu == $CPU" > $T/events/sched_tune/sched_boost_cpu/filter
echo "cpu_id == $CPU" > $T/events/power/cpu_frequency/filter
echo 1 > $T/events/sched_tune/sched_boost_cpu/enable
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
# each signal; times from the step to 80% / 95% utilization (819 / 973 of
# 1024), from the end of the step to 10% (102), and to the highest OPP.
[ "$which" = 2 ] && for signal in pelt walt; do
	echo $signal > /proc/sys/kernel/sched_util_signal
	f0=$(cat /sys/devices/system/cpu/cpu$CPU/cpufreq/scaling_cur_freq)
	echo > $T/trace
	echo 1 > $T/tracing_on
	schedbench step $CPU || result=fail
	echo 0 > $T/tracing_on
	awk -v signal=$signal -v f0=$f0 '
	function ts() { match($0, / [0-9]+\.[0-9]+: /); return substr($0, RSTART + 1, RLENGTH - 3) + 0 }
	function ms(t) { return t ? sprintf("%.1f", (t - up) * 1000) : "never" }
	/sched_util: step_up/ { up = ts() }
	/sched_util: step_down/ { down = ts() }
	/cpu_frequency:/ {
		f = $0; sub(/.*state=/, "", f); sub(/ .*/, "", f); f += 0
		if (!up) f0 = f
		else if (!down && !tmax && f == 1200000) tmax = ts()
	}
	/sched_boost_cpu:/ {
		u = $0; sub(/.*util=/, "", u); sub(/ .*/, "", u); u += 0; t = ts()
		if (up && !down) {
			if (u > peak) peak = u
			if (!t80 && u >= 819) t80 = t
			if (!t95 && u >= 973) t95 = t
			n++
		}
		if (down && !t10 && u <= 102) t10 = t
	}
	END {
		if (!up || !down || !n) { print "T2,error,no step in the trace"; exit }
		printf "T2,%s,%s,%s,%s,%s,%d,%d,%d\n", signal, ms(t80), ms(t95),
			t10 ? sprintf("%.1f", (t10 - down) * 1000) : "never",
			ms(tmax), f0, peak, n
	}' $T/trace
done
echo pelt > /proc/sys/kernel/sched_util_signal

# Timing is only as good as the clock: the TSC must have stayed the
# clocksource (scripts/guest-lib.sh, GUEST_CPU).
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
[ "$cs" = tsc ] || result="fail (clocksource $cs, not tsc)"
echo "GUEST RESULT: table $which $result"
