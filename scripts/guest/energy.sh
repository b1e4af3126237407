# SPDX-License-Identifier: GPL-2.0
#
# Sourced by scripts/guest/init for guest_mode=energy (scripts/run.sh
# energy): Table 4, energy and performance under one configuration (t4=,
# one boot each): performance, schedutil with pelt (pelt8:
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
# Output lines, besides soc-lib.sh's:
#   T4,<config>,<load>,<run>,<socload's numbers>
#   T4R,<config>,<rt-app workload>,<run>,<in_bench_rtapp's numbers>
#   == trace4 <config> <load> <run> ... == trace end

. /guest/soc-lib.sh

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
soc_result "table4 $t4"
