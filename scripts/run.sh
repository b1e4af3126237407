#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's main command. Builds, outside the repository, the patched
# x86_64 kernel and a baseline kernel (pristine 6.12 + only the series'
# virtual OPP cpufreq driver, so that both run schedutil), a busybox
# initramfs with rt-app, hackbench and scripts/guest/schedbench.c (and an
# arm64 one with rt-app built from Debian's source, scripts/lib-qemu.sh), and
# boots QEMU (TCG, no network; nothing runs on the host kernel):
#
#   checks   the user interfaces: selection knobs, SchedTune through
#            sysctl, cgroup v2 and an Android /dev/stune layout, per-CPU
#            aggregation, WALT's debug fields, bad input on every knob;
#   tables   Table 1 (SchedTune boost vs. frequency, rt-app ramp) and
#            Table 2 (WALT vs. PELT step response), -icount;
#   bench    Table 3 (overhead: hackbench pinned and on 2 CPUs, a pinned
#            pipe ping-pong, a wake from idle, IPIs, migrating wake-ups)
#            of the baseline kernel, the series with nothing enabled,
#            WALT, a SchedTune boost and upstream's uclamp.min as a
#            reference (T3_DEFAULT), one boot per configuration
#            (scripts/guest/bench.sh), -icount; TABLE3_BOOTS="config ..."
#            boots only those, the other configurations' rows kept;
#   bench-full  every configuration of T3_CONFIGS (PELT at 8 ms, WALT with
#            pl, WALT with a boost, and the SchedTune RFC's boost 90 too),
#            with the RFC's own benchmark, perf bench sched messaging
#            (most of a boot's guest work: not in the default);
#   bench-soc  Table 3 on the virtual HiKey960 (arm64, 8 vCPUs, EAS on):
#            the arm64 baseline kernel and the series, the benchmarks an
#            arm64 guest can run plus an EAS wake-up benchmark, -icount
#            (not in the default; TABLE3_SOC_BOOTS as TABLE3_BOOTS);
#   soc      the virtual SoC (arm64, QEMU virt with the HiKey's and the
#            HiKey960's CPUs, OPPs and Energy Model from the kernel's own
#            device trees, scripts/soc-dtb.py): its checks on both boards
#            (capacities, policies, EM, EAS on the HiKey960, the work
#            calibration, frequency invariance), then Table 1 on the
#            HiKey with work that takes time (PerfIndex, frequency,
#            energy from the EM), -icount;
#   place    Table 5 on the virtual HiKey960 (EAS on): placement with
#            PELT and WALT (a task turning heavy, a sleeper's memory,
#            boosted placement and energy, prefer_idle's wake-up
#            latency) and LISA's check of every sched_boost_task event,
#            -icount;
#   energy   Table 4 on the virtual HiKey960 (EAS on), -icount: energy
#            (modelled from the EM) and performance of rt-app's Android
#            workloads, a video, UI bursts and cpufreq-bench under the
#            configurations of T4_DEFAULT below (the performance
#            governor as the reference, PELT at both half-lives, the RFC's
#            WALT and WALT with pl); one boot
#            per configuration, one run of each load (TABLE4_BOOTS=
#            "board:config[:n] ..." boots only those, TABLE4_BOARDS=
#            "hikey960 hikey" adds the HiKey, TABLE4_CONFIGS="config ..."
#            runs only those configurations);
#   energy-full  every configuration of T4_CONFIGS with its statistics:
#            TABLE4_REPEAT (3) boots per configuration, three runs of
#            each load (not in the default).
#
# The kernels are built first, one at a time on every core; then the boots
# of every part given run JOBS (default: the host's cores) at a time:
# single-threaded TCG runs a guest on one host core, and under -icount its
# time counts instructions, so guests side by side do not change each
# other's results.
#
# Results go to $SCHED_UTIL_CACHE/results (tables.md and CSV files), which
# scripts/upstream.sh puts in the cover letter; SCHED_UTIL_RESULTS=DIR
# writes them to DIR instead (a trial run that leaves the published data).
# The run times itself: a line per phase as it ends, and at the end
# timings.md beside tables.md, with each phase's time against the time
# STATED below, and a warning for every phase that took more than twice
# its stated time (a slow machine, or a part grown past its budget).
#
#   scripts/run.sh [checks|tables|bench|bench-full|bench-soc|soc|place|energy|energy-full]...
#   (default: checks tables bench soc place energy)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

parts=("${@:-checks tables bench soc place energy}")
parts=(${parts[*]})
for p in "${parts[@]}"; do
	case $p in
	checks|tables|bench|bench-full|bench-soc|soc|place|energy|energy-full) ;;
	*) die "unknown part $p (checks, tables, bench, bench-full, bench-soc, soc, place, energy, energy-full)" ;;
	esac
done

# What each phase is stated to take, in seconds, on the machine the README
# names (2 cores), from a cold run of the default rounded up (kernels:
# built from nothing; boots: each part's guest time, the sum of its boots,
# which does not depend on how the pool interleaves them; bench-full: its
# own run). bench-soc and energy-full are estimates from their boots'
# share of the work. The run warns about a phase that took more than twice
# this.
declare -A STATED=(
	[packages]=60 [tree]=30 [kernel-patched]=240 [kernel-baseline]=240
	[kernel-patched-arm64]=240 [kernel-baseline-arm64]=240 [initramfs]=30
	[checks]=30 [tables]=120 [bench]=360 [bench-full]=1500 [bench-soc]=900
	[soc]=120 [place]=200 [energy]=500 [energy-full]=14400 [results]=30
)

RUN_START=$(date +%s)
TIMINGS=()	# "phase seconds detail", in the order the phases ended

# timed PHASE DETAIL CMD...: runs CMD, records how long it took.
timed() {
	local phase=$1 detail=$2 start=$(date +%s) rc=0
	shift 2
	"$@" || rc=$?
	TIMINGS+=("$phase $(( $(date +%s) - start )) $detail")
	log "$phase: $(( $(date +%s) - start )) s"
	return $rc
}

timed packages "Debian packages (a no-op when installed)" "$REPO/scripts/setup.sh"
timed tree "the patched tree from linux-source-6.12 (unpacked once)" \
	"$REPO/scripts/prepare-tree.sh"

RESULTS=${SCHED_UTIL_RESULTS:-$CACHE/results}
mkdir -p "$RESULTS" "$GUEST"

need_x86=0 need_baseline=0 need_baseline_soc=0 need_soc=0
for p in "${parts[@]}"; do
	case $p in
	bench|bench-full) need_baseline=1 need_x86=1 ;;
	bench-soc) need_baseline_soc=1 need_soc=1 ;;
	soc|place|energy|energy-full) need_soc=1 ;;
	*) need_x86=1 ;;
	esac
done
# build KERNEL TREE: a kernel, timed, "cold" when its build directory was
# new (ccache then holds nothing of it either, on a fresh machine).
build() {
	local how=warm
	[ -e "$BUILD/guest-$1/vmlinux" ] || how=cold
	timed "kernel-$1" "$how" build_kernel "$1" "$2"
}
[ $need_x86 = 1 ] && build patched "$SRC"
if [ $need_baseline = 1 ]; then
	prepare_baseline_tree
	build baseline "$BASE_SRC"
fi
if [ $need_baseline_soc = 1 ]; then
	prepare_baseline_tree
	build baseline-arm64 "$BASE_SRC"
fi
[ $need_soc = 1 ] && build patched-arm64 "$SRC"
initramfs() {
	[ $need_x86 = 0 ] || make_initramfs
	if [ $need_soc = 1 ]; then
		make_initramfs_arm64
		soc_dtb hikey
		soc_dtb hikey960
	fi
}
timed initramfs "busybox, rt-app, the guests' programs; the SoCs' device trees" initramfs

# Guest time counts instructions: host load does not show in the results.
ICOUNT=(-icount shift=0,sleep=off)

# The boots of every part, queued by the parts and run JOBS at a time by
# run_boots. queue PART NAME LOG KERNEL BOARD ICOUNT APPEND: one boot of
# KERNEL (a build_kernel name) on BOARD (pc: x86_64, 2 vCPUs; hikey or
# hikey960: the virtual SoC, 8 vCPUs) with APPEND on its command line,
# under -icount if ICOUNT is 1, its console to $GUEST/LOG. Its result line
# goes to LOG.res, its start and end (s since the epoch) to LOG.time.
BOOTS=()
queue() {
	local f
	for f in "$@"; do
		[[ $f != *$'\t'* ]] || die "a tab in a boot's field: $f"
	done
	BOOTS+=("$(IFS=$'\t'; echo "$*")")
}

boot_one() { # part name log kernel board icount append
	local part=$1 name=$2 out=$GUEST/$3 kernel=$4 board=$5 append=$7 res start opts=()
	[ "$6" = 1 ] && opts=("${ICOUNT[@]}")
	rm -f "$out.res" "$out.time"
	start=$(date +%s)
	if [ "$board" = pc ]; then
		res=$(boot "$out" "$kernel" "$append" "${opts[@]}")
	else
		res=$(boot_soc "$out" "$kernel" "$board" "board=$board $append" "${opts[@]}")
	fi
	echo "$res" > "$out.res"
	echo "$part $start $(date +%s)" > "$out.time"
	log "$name: ${res:-no result} in $(( $(date +%s) - start )) s"
	[ -n "$res" ] || guest_failed "$name" "$out"
}

run_boots() {
	local n=0 total=${#BOOTS[@]} start=$(date +%s) b f
	for b in "${BOOTS[@]}"; do
		IFS=$'\t' read -r -a f <<<"$b"
		n=$((n + 1))
		while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-$(nproc)}" ]; do
			wait -n || true
		done
		log "boot $n of $total: ${f[1]} ($(( $(date +%s) - start )) s elapsed)"
		boot_one "${f[@]}" &
	done
	while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || true; done
}

# result LOG: the result line of the boot whose console is $GUEST/LOG.
result() { cat "$GUEST/$1.res" 2>/dev/null || true; }

# The rows "T3,BENCHMARK,CONFIG,..." of Table 3's CSV FILE whose
# configuration is none of CONFIGS: kept when only those run again.
kept_rows() { # file configs...
	local f=$1
	shift
	[ -r "$f" ] || return 0
	grep -av -E "^T3,[^,]*,($(IFS='|'; echo "$*"))," "$f" || true
}

# Table 4's configurations, one column each (scripts/guest/energy.sh, t4=):
# a governor, or a signal (pelt, pelt8, pelt16, walt, waltN: N ms
# windows) with options: -pl (schedutil's pl), -hs (schedutil's
# hispeed_freq at each policy's third OPP), -boostN (the loads' group
# at boost N) and -wait (runnable wait in WALT's task demand). The WALT
# columns are the ablation of what the Android kernels added to the RFC's
# WALT. energy runs T4_DEFAULT, energy-full T4_CONFIGS;
# TABLE4_CONFIGS="config ..." runs those instead.
T4_CONFIGS=(performance pelt pelt8 pelt-hs pelt-boost10 walt walt10 walt-pl walt-hs
	    walt-pl-wait walt-pl-hs walt16-pl-hs walt8-pl-hs walt-boost10 powersave)
T4_DEFAULT=(performance pelt pelt8 walt walt-pl)

# The soc part's boots, BOARD:WHAT (scripts/guest/soc.sh).
SOC_RUNS=(hikey960:checks hikey:checks hikey:table1)

# A Table 4 boot's BOARD:CONFIG[:N] into board, cfg and i (N, default 1).
t4_boot_fields() {
	board=${1%%:*} cfg=${1#*:} i=${cfg#*:} cfg=${cfg%%:*}
	[ "$i" != "$cfg" ] || i=1
}

# Table 3's configurations (scripts/guest/bench.sh): bench runs T3_DEFAULT,
# bench-full T3_CONFIGS.
T3_CONFIGS=(baseline pelt pelt8 walt walt-pl walt-boost boost boost90 uclamp)
T3_DEFAULT=(baseline pelt walt boost uclamp)

# Queue each part's boots, in an order that keeps both cores busy to the
# end: the parts with the longest boots first.
order=()
for p in place energy-full energy bench-full bench bench-soc soc tables checks; do
	[[ " ${parts[*]} " == *" $p "* ]] && order+=("$p")
done
t4_boots=()
for part in "${order[@]}"; do
	case $part in
	checks)
		queue checks checks checks.log patched pc 0 guest_mode=checks ;;
	tables)
		# One boot per table, each on a freshly booted kernel. The
		# guest ticks periodically: the idle CPU's decaying utilization
		# is sampled at every tick (with NO_HZ the nohz balancer would
		# refresh it only every 32 ms), and under TCG -icount, NO_HZ
		# delayed schedutil's kthread by seconds (README).
		for t in 1 2; do
			queue tables "table $t" table$t.log patched pc 1 \
				"guest_mode=ramp-step tables=$t"
		done ;;
	bench|bench-full)
		cfgs=("${T3_DEFAULT[@]}") set=default
		[ $part = bench-full ] && cfgs=("${T3_CONFIGS[@]}") set=full
		[ -n "${TABLE3_BOOTS:-}" ] && cfgs=($TABLE3_BOOTS)
		bench_cfgs=("${cfgs[@]}")
		for cfg in "${cfgs[@]}"; do
			kernel=patched
			[ $cfg = baseline ] || [ $cfg = uclamp ] && kernel=baseline
			queue $part "bench $cfg" bench-$cfg.log $kernel pc 1 \
				"guest_mode=bench bench=$cfg bench_set=$set"
		done ;;
	bench-soc)
		cfgs=(baseline pelt walt walt-pl boost walt-boost uclamp)
		[ -n "${TABLE3_SOC_BOOTS:-}" ] && cfgs=($TABLE3_SOC_BOOTS)
		bench_soc_cfgs=("${cfgs[@]}")
		for cfg in "${cfgs[@]}"; do
			kernel=patched-arm64
			[ $cfg = baseline ] || [ $cfg = uclamp ] && kernel=baseline-arm64
			queue bench-soc "bench-soc $cfg" bench-soc-$cfg.log $kernel hikey960 1 \
				"guest_mode=bench bench=$cfg"
		done ;;
	soc)
		for run in "${SOC_RUNS[@]}"; do
			board=${run%:*} what=${run#*:}
			queue soc "soc $board $what" soc-$board-$what.log patched-arm64 $board 1 \
				"guest_mode=soc soc=$what sched_verbose"
		done ;;
	place)
		queue place "soc hikey960 table5" soc-hikey960-table5.log patched-arm64 \
			hikey960 1 "guest_mode=place sched_verbose" ;;
	energy|energy-full)
		# Table 4: one boot per board, configuration and repetition, on
		# the HiKey960 (TABLE4_BOARDS="hikey960 hikey" adds the HiKey,
		# symmetric, without EAS). energy: one boot per configuration,
		# one run of each load; energy-full: TABLE4_REPEAT (3) boots
		# per configuration, 3 runs of each load.
		runs=1 repeat=1 boards=${TABLE4_BOARDS:-hikey960}
		[ $part = energy ] && T4_CONFIGS=("${T4_DEFAULT[@]}")
		[ $part = energy-full ] && runs=3 repeat=${TABLE4_REPEAT:-3}
		[ -n "${TABLE4_CONFIGS:-}" ] && T4_CONFIGS=($TABLE4_CONFIGS)
		for board in $boards; do
			for cfg in "${T4_CONFIGS[@]}"; do
				[ $board = hikey ] && [ $cfg = powersave ] && continue
				for i in $(seq $repeat); do t4_boots+=("$board:$cfg:$i"); done
			done
		done
		if [ -n "${TABLE4_BOOTS:-}" ]; then
			# Only those boots again, the others' results kept.
			t4_boots=($TABLE4_BOOTS)
		else
			rm -f "$RESULTS"/soc-*-table4-*.log* "$GUEST"/t4-*.csv
		fi
		for b in "${t4_boots[@]}"; do
			t4_boot_fields "$b"
			append="guest_mode=energy t4=$cfg t4_runs=$runs"
			case $cfg in walt[0-9]*)
				w=${cfg%%-*}
				append="$append walt_ravg_window=${w#walt}000000" ;;
			esac
			queue $part "soc $board table4 $cfg $i" soc-$board-table4-$cfg-$i.log \
				patched-arm64 $board 1 "$append"
		done ;;
	esac
done
boots_start=$(date +%s)
run_boots
log "${#BOOTS[@]} boots in $(( $(date +%s) - boots_start )) s, ${JOBS:-$(nproc)} at a time"

# A part's time: the sum of its boots' times (the guest work it takes,
# whatever ran beside it) and the span from its first boot to its last.
part_time() { # part
	cat "$GUEST"/*.log.time 2>/dev/null | awk -v p="$1" -v t0="$boots_start" '
		$1 == p && $2 >= t0 { n++; sum += $3 - $2
			if (!first || $2 < first) first = $2; if ($3 > last) last = $3 }
		END { if (n) printf "%d %d boot%s, %d s from the first to the last\n",
				    sum, n, (n > 1 ? "s" : ""), last - first }'
}

# The SoC boot's TAGS rows of $GUEST/LOG, prefixed with BOARD; sets status=1
# unless the guest reported "soc BOARD WHAT ok".
soc_rows() { # board what log tags
	local res
	res=$(result "$3")
	grep -aE '^(PASS|FAIL)' "$GUEST/$3" >&2 || true
	[ "$res" = "soc $1 $2 ok" ] || status=1
	grep -aE "^($4)," "$GUEST/$3" | sed "s/^/$1,/" || true
}

# Each part's rows, from its boots' logs.
status=0
for part in "${parts[@]}"; do
	case $part in
	checks)
		res=$(result checks.log)
		grep -avE '^\s*$' "$GUEST/checks.log" | grep -aE '^(PASS|FAIL|==|bad inputs)' || true
		echo "checks: ${res:-the guest did not finish (see above)}"
		grep -q ' 0 failed' <<<"$res" || status=1
		;;
	tables)
		for t in 1 2; do
			res=$(result table$t.log)
			[ "$res" = "table $t ok" ] ||
				{ status=1; [ -z "$res" ] || tail -30 "$GUEST/table$t.log"; }
			grep -aE '^T(1|2S?|2P),' "$GUEST/table$t.log" || true
		done > "$RESULTS/raw-tables.csv.new"
		mv "$RESULTS/raw-tables.csv.new" "$RESULTS/raw-tables.csv"
		;;
	bench|bench-full)
		{
			# TABLE3_BOOTS: only those configurations again, the
			# others' rows kept.
			kept_rows "$RESULTS/raw-bench.csv" "${bench_cfgs[@]}"
			for cfg in "${bench_cfgs[@]}"; do
				res=$(result bench-$cfg.log)
				[ "$res" = "bench $cfg ok" ] ||
					{ status=1; [ -z "$res" ] || tail -30 "$GUEST/bench-$cfg.log" >&2; }
				grep -a '^T3,' "$GUEST/bench-$cfg.log" || true
			done
		} > "$RESULTS/raw-bench.csv.new"
		mv "$RESULTS/raw-bench.csv.new" "$RESULTS/raw-bench.csv"
		;;
	bench-soc)
		{
			kept_rows "$RESULTS/raw-bench-soc.csv" "${bench_soc_cfgs[@]}"
			for cfg in "${bench_soc_cfgs[@]}"; do
				res=$(result bench-soc-$cfg.log)
				[ "$res" = "bench $cfg ok" ] ||
					{ status=1; [ -z "$res" ] || tail -30 "$GUEST/bench-soc-$cfg.log" >&2; }
				grep -a '^T3,' "$GUEST/bench-soc-$cfg.log" || true
			done
		} > "$RESULTS/raw-bench-soc.csv.new"
		mv "$RESULTS/raw-bench-soc.csv.new" "$RESULTS/raw-bench-soc.csv"
		;;
	soc)
		for run in "${SOC_RUNS[@]}"; do
			board=${run%:*} what=${run#*:}
			soc_rows $board $what soc-$board-$what.log 'T1H|EM|POLICY|WORK|RTAPP|UTIL'
		done > "$RESULTS/raw-soc.csv.new"
		mv "$RESULTS/raw-soc.csv.new" "$RESULTS/raw-soc.csv"
		cp "$GUEST/soc-hikey-table1.log" "$RESULTS/soc-hikey-table1.log"
		;;
	place)
		soc_rows hikey960 table5 soc-hikey960-table5.log 'T5|EM|POLICY' \
			> "$RESULTS/raw-place.csv"
		cp "$GUEST/soc-hikey960-table5.log" "$RESULTS/soc-hikey960-table5.log"
		;;
	energy|energy-full)
		# Each boot's rows to $GUEST/t4-*.csv, its run numbered
		# REPETITION.RUN; its log (with the traces) to $RESULTS,
		# compressed.
		for b in "${t4_boots[@]}"; do
			t4_boot_fields "$b"
			log=soc-$board-table4-$cfg-$i.log
			soc_rows $board "table4 $cfg" $log 'T4R?|EM|POLICY' \
				> "$GUEST/t4-$board-$cfg-$i.csv"
			sed -i "s/^$board,T4\(R\?\),$cfg,\([^,]*\),\([0-9]*\),/$board,T4\1,$cfg,\2,$i.\3,/" \
				"$GUEST/t4-$board-$cfg-$i.csv"
			xz -T1 -c "$GUEST/$log" > "$RESULTS/$log.xz"
		done
		# In the order of T4_CONFIGS (the table's columns), then any
		# other configuration booted.
		seen=
		for f in $(for cfg in "${T4_CONFIGS[@]}"; do
				ls "$GUEST"/t4-*-$cfg-[0-9]*.csv 2>/dev/null
			done; ls "$GUEST"/t4-*.csv); do
			case " $seen " in *" $f "*) continue ;; esac
			seen="${seen:-} $f"
			cat "$f"
		done > "$RESULTS/raw-energy.csv"
		;;
	esac
	read -r t detail <<<"$(part_time $part)"
	TIMINGS+=("$part ${t:-0} ${detail:-no boot}")
done

if ! [[ " ${parts[*]} " == *" checks "* && ${#parts[@]} -eq 1 ]]; then
	timed results "scripts/results.py: tables and plots" \
		python3 "$REPO/scripts/results.py" "$RESULTS" \
		"linux $(kernel_version "$SRC") (Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12))" ||
		status=1
fi

# The run's times, against what they are stated to take.
total=$(( $(date +%s) - RUN_START ))
over=()
{
	echo "## Timings of \`scripts/run.sh ${parts[*]}\`"
	echo
	echo "On $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
	     "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo))," \
	     "$(date -u -d @"$RUN_START" '+%Y-%m-%d %H:%M UTC'), boots ${JOBS:-$(nproc)} at a time." \
	     "A boot part's time is the sum of its boots' (each on one host core);" \
	     "the kernels' is cold when their build directory was new."
	echo
	echo "| phase | seconds | stated | what |"
	echo "|---|---:|---:|---|"
	for t in "${TIMINGS[@]}"; do
		read -r phase secs detail <<<"$t"
		stated=${STATED[$phase]:-}
		mark=
		if [ -n "$stated" ] && [ "$secs" -gt $((2 * stated)) ]; then
			mark=" **over twice**"
			over+=("$phase took $secs s, stated $stated s")
		fi
		echo "| $phase | $secs | ${stated:--}$mark | $detail |"
	done
	echo "| **total** (wall) | $total | | $(( total / 60 )) min $(( total % 60 )) s |"
} > "$RESULTS/timings.md"
log "run.sh ${parts[*]}: $(( total / 60 )) min $(( total % 60 )) s; times in $RESULTS/timings.md"
for o in "${over[@]}"; do
	log "WARNING: over budget: $o (more than twice)"
done
exit $status
