# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=place (scripts/run.sh
# place): Table 5 on the virtual HiKey960 (EAS on), placement with PELT
# and with WALT selected, three runs of each scenario
# (scripts/guest/socload.c):
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
# Output lines, besides soc-lib.sh's:
#   T5,<signal>,<scenario>,<setting>,<run>,<socload's numbers>
#   == trace5 <signal> <scenario> <setting> <run> ... == trace end

. /guest/soc-lib.sh

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
soc_result table5
