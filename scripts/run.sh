#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's main command. Builds, outside the repository, the patched
# x86_64 kernel and a baseline kernel (pristine 6.12 + only the series'
# virtual OPP cpufreq driver, so that both run schedutil), a busybox
# initramfs with rt-app, hackbench and scripts/guest/schedbench.c (and an
# arm64 one with rt-app built from Debian's source, scripts/lib-qemu.sh), and
# boots QEMU (2 vCPUs, TCG, no network; nothing runs on the host kernel):
#
#   checks   the user interfaces: selection knobs, SchedTune through
#            sysctl, cgroup v2 and an Android /dev/stune layout, per-CPU
#            aggregation, WALT's debug fields, bad input on every knob;
#   tables   Table 1 (SchedTune boost vs. frequency, rt-app ramp) and
#            Table 2 (WALT vs. PELT step response), -icount;
#   bench    Table 3 (overhead: hackbench pinned and on 2 CPUs, a pinned
#            pipe ping-pong; upstream's uclamp.min as a reference),
#            one boot per configuration (scripts/guest/bench.sh),
#            -icount; TABLE3_BOOTS="config ..." boots only those, the
#            other configurations' rows kept;
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
#            workloads, a video, UI bursts and cpufreq-bench under each
#            configuration of T4_CONFIGS below; one boot per
#            configuration, one run of each load (TABLE4_BOOTS=
#            "board:config[:n] ..." boots only those, TABLE4_BOARDS=
#            "hikey960 hikey" adds the HiKey, TABLE4_CONFIGS="config ..."
#            runs only those configurations);
#   energy-full  the same with its statistics: TABLE4_REPEAT (3) boots per
#            configuration, three runs of each load (not in the default).
#
# Results go to $SCHED_UTIL_CACHE/results (tables.md and CSV files), which
# scripts/upstream.sh puts in the cover letter; SCHED_UTIL_RESULTS=DIR
# writes them to DIR instead (a trial run that leaves the published data).
#
#   scripts/run.sh [checks|tables|bench|bench-soc|soc|place|energy|energy-full]...
#   (default: all but energy-full)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-qemu.sh"

parts=("${@:-checks tables bench soc place energy}")
parts=(${parts[*]})

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh"

RESULTS=${SCHED_UTIL_RESULTS:-$CACHE/results}
mkdir -p "$RESULTS"

need_x86=0 need_baseline=0 need_baseline_soc=0 need_soc=0
for p in "${parts[@]}"; do
	case $p in
	bench) need_baseline=1 need_x86=1 ;;
	bench-soc) need_baseline_soc=1 need_soc=1 ;;
	soc|place|energy|energy-full) need_soc=1 ;;
	*) need_x86=1 ;;
	esac
done
[ $need_x86 = 1 ] && build_kernel patched "$SRC"
if [ $need_baseline = 1 ]; then
	prepare_baseline_tree
	build_kernel baseline "$BASE_SRC"
fi
[ $need_x86 = 1 ] && make_initramfs
if [ $need_baseline_soc = 1 ]; then
	prepare_baseline_tree
	build_kernel baseline-arm64 "$BASE_SRC"
fi
if [ $need_soc = 1 ]; then
	build_kernel patched-arm64 "$SRC"
	make_initramfs_arm64
	soc_dtb hikey
	soc_dtb hikey960
fi

# Guest time counts instructions: host load does not show in the results.
ICOUNT=(-icount shift=0,sleep=off)

# One boot of the virtual SoC: soc_run BOARD WHAT APPEND TAGS [LOG], APPEND
# its guest_mode= (soc, place or energy) and their parameters. The
# guest reports "soc BOARD WHAT ok"; its log is LOG, by default
# soc-BOARD-WHAT.log (spaces as dashes), its PASS/FAIL lines go to stderr
# and its TAGS rows, prefixed with BOARD, to stdout. Sets status=1 unless
# the guest reported ok.
soc_run() {
	local board=$1 what=$2 append=$3 tags=$4 out start res
	out=$GUEST/${5:-soc-$board-${what// /-}.log}
	log "booting: the virtual $board, $what (arm64, 8 vCPUs, -icount)"
	start=$(date +%s)
	res=$(boot_soc "$out" patched-arm64 $board "board=$board $append" \
		"${ICOUNT[@]}")
	log "soc $board $what: $res in $(( $(date +%s) - start )) s"
	grep -aE '^(PASS|FAIL)' "$out" >&2 || true
	[ -n "$res" ] || guest_failed "soc $board $what" "$out"
	[ "$res" = "soc $board $what ok" ] || status=1
	grep -aE "^($tags)," "$out" | sed "s/^/$board,/" || true
}

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
# WALT. TABLE4_CONFIGS="config ..." runs those instead.
T4_CONFIGS=(performance pelt pelt8 pelt-hs pelt-boost10 walt walt10 walt-pl walt-hs
	    walt-pl-wait walt-pl-hs walt16-pl-hs walt8-pl-hs walt-boost10 powersave)
[ -n "${TABLE4_CONFIGS:-}" ] && T4_CONFIGS=($TABLE4_CONFIGS)

# Table 4's boots BOARD:CONFIG:N, JOBS (default: the host's cores) at a
# time: single-threaded TCG runs a guest on one host core, and under
# -icount its time counts instructions, so guests side by side do not
# change each other's results. Each boot's rows go to $GUEST/t4-*.csv,
# its log (with the traces) to $RESULTS, compressed. Sets status=1 if a
# boot failed.
t4_boots() { # runs boots...
	local runs=$1 n=0 total=$(($# - 1)) start=$(date +%s) board cfg i b
	shift
	for b in "$@"; do
		board=${b%%:*} cfg=${b#*:} i=${cfg#*:} cfg=${cfg%%:*}
		[ "$i" = "$cfg" ] && i=1
		rm -f "$GUEST/t4-$board-$cfg-$i.csv" "$RESULTS/soc-$board-table4-$cfg-$i.log.xz"
		n=$((n + 1))
		while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-$(nproc)}" ]; do
			wait -n || status=1
		done
		log "Table 4: boot $n of $total ($board, $cfg, repetition $i), $(( $(date +%s) - start )) s elapsed"
		(
			append="guest_mode=energy t4=$cfg t4_runs=$runs"
			case $cfg in walt[0-9]*)
				w=${cfg%%-*}
				append="$append walt_ravg_window=${w#walt}000000" ;;
			esac
			status=0
			soc_run $board "table4 $cfg" "$append" 'T4R?|EM|POLICY' \
				soc-$board-table4-$cfg-$i.log > "$GUEST/t4-$board-$cfg-$i.csv.new"
			sed -i "s/^$board,T4\(R\?\),$cfg,\([^,]*\),\([0-9]*\),/$board,T4\1,$cfg,\2,$i.\3,/" \
				"$GUEST/t4-$board-$cfg-$i.csv.new"
			mv "$GUEST/t4-$board-$cfg-$i.csv.new" "$GUEST/t4-$board-$cfg-$i.csv"
			xz -T1 -c "$GUEST/soc-$board-table4-$cfg-$i.log" \
				> "$RESULTS/soc-$board-table4-$cfg-$i.log.xz"
			exit $status
		) &
	done
	while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || status=1; done
	log "Table 4: $total boots in $(( $(date +%s) - start )) s"
}

# A part's progress, before each boot: which boot of how many, and the
# time since the part started.
progress() { # part boot total
	log "$1: boot $2 of $3, $(( $(date +%s) - part_start )) s elapsed"
}

status=0
for part in "${parts[@]}"; do
	part_start=$(date +%s)
	case $part in
	checks)
		progress checks 1 1
		log "booting: checks (x86_64, 2 vCPUs)"
		res=$(QEMU_TIMEOUT=${QEMU_TIMEOUT:-600} boot "$GUEST/checks.log" patched guest_mode=checks)
		grep -avE '^\s*$' "$GUEST/checks.log" | grep -aE '^(PASS|FAIL|==|bad inputs)' || true
		[ -n "$res" ] || guest_failed checks "$GUEST/checks.log"
		echo "checks: ${res:-the guest did not finish (see above)}"
		grep -q ' 0 failed' <<<"$res" || status=1
		;;
	tables)
		# One boot per table, each on a freshly booted kernel. The
		# guest ticks periodically: the idle CPU's decaying utilization
		# is sampled at every tick (with NO_HZ the nohz balancer would
		# refresh it only every 32 ms), and under TCG -icount, NO_HZ
		# delayed schedutil's kthread by seconds (README).
		: > "$RESULTS/raw-tables.csv.new"
		for t in 1 2; do
			progress tables $t 2
			append="guest_mode=ramp-step tables=$t"
			log "booting: table $t (-icount)"
			start=$(date +%s)
			res=$(boot "$GUEST/table$t.log" patched "$append" "${ICOUNT[@]}")
			log "table $t: $res in $(( $(date +%s) - start )) s"
			[ -n "$res" ] || guest_failed "table $t" "$GUEST/table$t.log"
			[ "$res" = "table $t ok" ] || { status=1; [ -z "$res" ] || tail -30 "$GUEST/table$t.log"; }
			grep -aE '^T(1|2S?|2P),' "$GUEST/table$t.log" >> "$RESULTS/raw-tables.csv.new" || true
		done
		mv "$RESULTS/raw-tables.csv.new" "$RESULTS/raw-tables.csv"
		;;
	bench)
		cfgs=(baseline pelt pelt8 walt walt-pl walt-boost boost uclamp)
		[ -n "${TABLE3_BOOTS:-}" ] && cfgs=($TABLE3_BOOTS)
		# TABLE3_BOOTS: only those configurations again, the others'
		# rows kept.
		kept_rows "$RESULTS/raw-bench.csv" "${cfgs[@]}" > "$RESULTS/raw-bench.csv.new"
		i=0
		for cfg in "${cfgs[@]}"; do
			i=$((i + 1))
			progress bench $i ${#cfgs[@]}
			kernel=patched
			[ $cfg = baseline ] || [ $cfg = uclamp ] && kernel=baseline
			log "booting: bench=$cfg on the $kernel kernel (-icount)"
			start=$(date +%s)
			res=$(boot "$GUEST/bench-$cfg.log" $kernel \
				"guest_mode=bench bench=$cfg" "${ICOUNT[@]}")
			log "bench $cfg: $res in $(( $(date +%s) - start )) s"
			[ -n "$res" ] || guest_failed "bench $cfg" "$GUEST/bench-$cfg.log"
			[ "$res" = "bench $cfg ok" ] || { status=1; [ -z "$res" ] || tail -30 "$GUEST/bench-$cfg.log"; }
			grep -a '^T3,' "$GUEST/bench-$cfg.log" >> "$RESULTS/raw-bench.csv.new" || true
		done
		mv "$RESULTS/raw-bench.csv.new" "$RESULTS/raw-bench.csv"
		;;
	bench-soc)
		# Table 3 on the virtual HiKey960: one boot per configuration,
		# JOBS (default: the host's cores) at a time; under -icount
		# guests side by side do not change each other's results.
		cfgs=(baseline pelt walt walt-pl boost walt-boost uclamp)
		[ -n "${TABLE3_SOC_BOOTS:-}" ] && cfgs=($TABLE3_SOC_BOOTS)
		for cfg in "${cfgs[@]}"; do
			while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-$(nproc)}" ]; do
				wait -n || status=1
			done
			kernel=patched-arm64
			[ $cfg = baseline ] || [ $cfg = uclamp ] && kernel=baseline-arm64
			log "booting: bench=$cfg on the virtual HiKey960, $kernel kernel (-icount)"
			(
				out=$GUEST/bench-soc-$cfg.log start=$(date +%s)
				res=$(boot_soc "$out" $kernel hikey960 \
					"guest_mode=bench bench=$cfg" "${ICOUNT[@]}")
				log "bench-soc $cfg: $res in $(( $(date +%s) - start )) s"
				[ -n "$res" ] || guest_failed "bench-soc $cfg" "$out"
				[ "$res" = "bench $cfg ok" ] || { [ -z "$res" ] || tail -30 "$out"; exit 1; }
			) &
		done
		while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || status=1; done
		{
			kept_rows "$RESULTS/raw-bench-soc.csv" "${cfgs[@]}"
			for cfg in "${cfgs[@]}"; do
				grep -a '^T3,' "$GUEST/bench-soc-$cfg.log" || true
			done
		} > "$RESULTS/raw-bench-soc.csv.new"
		mv "$RESULTS/raw-bench-soc.csv.new" "$RESULTS/raw-bench-soc.csv"
		;;
	soc)
		: > "$RESULTS/raw-soc.csv.new"
		i=0
		for run in hikey960:checks hikey:checks hikey:table1; do
			i=$((i + 1))
			progress soc $i 3
			board=${run%:*} what=${run#*:}
			soc_run $board $what "guest_mode=soc soc=$what sched_verbose" 'T1H|EM|POLICY|WORK|RTAPP|UTIL' \
				>> "$RESULTS/raw-soc.csv.new"
		done
		mv "$RESULTS/raw-soc.csv.new" "$RESULTS/raw-soc.csv"
		cp "$GUEST/soc-hikey-table1.log" "$RESULTS/soc-hikey-table1.log"
		;;
	place)
		progress place 1 1
		soc_run hikey960 table5 "guest_mode=place sched_verbose" 'T5|EM|POLICY' \
			> "$RESULTS/raw-place.csv"
		cp "$GUEST/soc-hikey960-table5.log" "$RESULTS/soc-hikey960-table5.log"
		;;
	energy|energy-full)
		# Table 4: one boot per board, configuration and repetition, on
		# the HiKey960 (TABLE4_BOARDS="hikey960 hikey" adds the HiKey,
		# symmetric, without EAS). energy: one boot per configuration,
		# one run of each load; energy-full: TABLE4_REPEAT (3) boots
		# per configuration, 3 runs of each load.
		runs=1 repeat=1 boards=${TABLE4_BOARDS:-hikey960}
		[ $part = energy-full ] && runs=3 repeat=${TABLE4_REPEAT:-3}
		boots=()
		for board in $boards; do
			for cfg in "${T4_CONFIGS[@]}"; do
				[ $board = hikey ] && [ $cfg = powersave ] && continue
				for i in $(seq $repeat); do boots+=("$board:$cfg:$i"); done
			done
		done
		seen=
		if [ -n "${TABLE4_BOOTS:-}" ]; then
			# Only those boots again, the others' results kept.
			boots=($TABLE4_BOOTS)
		else
			rm -f "$RESULTS"/soc-*-table4-*.log* "$GUEST"/t4-*.csv
		fi
		t4_boots $runs "${boots[@]}"
		# In the order of T4_CONFIGS (the table's columns), then any
		# other configuration booted.
		for f in $(for cfg in "${T4_CONFIGS[@]}"; do
				ls "$GUEST"/t4-*-$cfg-[0-9]*.csv 2>/dev/null
			done; ls "$GUEST"/t4-*.csv); do
			case " $seen " in *" $f "*) continue ;; esac
			seen="${seen:-} $f"
			cat "$f"
		done > "$RESULTS/raw-energy.csv"
		;;
	*) die "unknown part $part (checks, tables, bench, bench-soc, soc, place, energy, energy-full)" ;;
	esac
done

[[ " ${parts[*]} " == *" checks "* && ${#parts[@]} -eq 1 ]] && exit $status
python3 "$REPO/scripts/results.py" "$RESULTS" \
	"linux $(kernel_version "$SRC") (Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12))" ||
	status=1
exit $status
