# SPDX-License-Identifier: GPL-2.0
"""The x86_64 guests' tables as markdown and table*.csv: Table 1
(SchedTune), Table 2 (WALT and PELT's step response), Table 2b (a steady
load) and Table 3 (overhead). Each function takes parse's data, writes
its CSV into RESULTS_DIR and returns its markdown lines."""
import statistics

from report.common import BOOSTS, SEED_T1_FREQ, T3_BENCHES, T3_CONFIGS, pct, pct2, write_csv

# The seed's Table 1 "actual boost" column as the RFC prints it (363
# against 606 would be -40%; the RFC prints -36%).
SEED_T1_FREQ_BOOST = {0: "+0%", 15: "+9%", 30: "+22%", 60: "+41%", -100: "-36%"}
SEED_T2_PELT = {"80%": 74, "95%": 139, "10%": 108}  # ms
OPPS = (208, 432, 729, 960, 1200)  # MHz, the virtual OPP driver's


def table1(results, t1):
    """Table 1: SchedTune, from parse.table1()."""
    md = ["## Table 1: SchedTune, rt-app ramp 5% -> 60% (16 ms period) on CPU 1",
          "",
          "| boost | util avg | boosted util avg | actual util boost "
          "| freq avg [MHz] | actual freq boost | time at lowest OPP "
          "| seed freq [MHz] | seed freq boost | samples |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    base = t1.get(0)
    data = []
    for b in BOOSTS:
        if b not in t1:
            continue
        u, bu, f, low, n = t1[b]
        seed = SEED_T1_FREQ[b]
        md.append(f"| {b} | {u:.0f} | {bu:.0f} | {pct(bu, base[1]) if base else 'n/a'} "
                  f"| {f:.0f} | {pct(f, base[2]) if base else 'n/a'} | {low:.0f}% | {seed} "
                  f"| {SEED_T1_FREQ_BOOST[b]} | {n} |")
        data.append([b, u, bu, f, low, n, seed])
    write_csv(results, "table1.csv", ["boost", "util_avg", "boosted_util_avg",
                                      "freq_avg_mhz", "pct_time_lowest_opp", "samples",
                                      "seed_freq_mhz"], data)
    md += ["", "Utilization is the mean of the sched_boost_cpu events of CPU 1 "
           "(every schedutil update); frequency is weighted by cpufreq's "
           "time_in_state over the whole run, idle time included.", ""]
    return md


def nearest_opp(mhz):
    return min(range(len(OPPS)), key=lambda i: abs(OPPS[i] - mhz))


def table2(results, t2):
    """Table 2: WALT vs PELT, from parse.table2()."""
    md = ["## Table 2: step response on CPU 1, PELT (half-life 32, 16 and 8 ms) "
          "and WALT (20 ms windows)",
          "",
          "| signal | 0->100%: to 80% [ms] | to 95% [ms] | 100->0%: to 10% [ms] "
          "| lowest -> highest OPP [ms] | 100->0%: to lowest OPP [ms] "
          "| OPP at the step [MHz] | peak util | samples |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    data = []
    for r in t2:
        sig, t80, t95, t10, tmax, f0, peak, n, tlow = r
        md.append(f"| {sig} | {t80} | {t95} | {t10} | {tmax} | {tlow} "
                  f"| {int(f0) // 1000} | {peak} | {n} |")
        data.append(r)
    md.append(f"| seed: PELT (WALT RFC cover letter) | {SEED_T2_PELT['80%']} "
              f"| {SEED_T2_PELT['95%']} | {SEED_T2_PELT['10%']} | | | | | |")
    write_csv(results, "table2.csv", ["signal", "to80_ms", "to95_ms", "to10_ms",
                                      "to_highest_opp_ms", "opp_at_step_khz", "peak_util",
                                      "samples", "to_lowest_opp_ms"], data)
    md += ["", "Thresholds are 819, 973 and 102 of 1024, read from the "
           "sched_boost_cpu events (the signal schedutil saw); times start at "
           "trace markers written by the load generator. The -rt rows run the "
           "step as SCHED_FIFO with sched_util_clamp_min_rt_default 0 (as "
           "Android sets it) and RT throttling off; PELT's signal is the fair "
           "class's, so its RT rows have no utilization columns, only the OPPs "
           "schedutil chose from CFS + RT.", ""]
    return md


def table2_plot():
    """What Table 2 says of its plot (plots.table2())."""
    return ["Plot: table2.png (utilization and frequency of the SCHED_OTHER "
            "steps).", ""]


def table2b(results, t2s):
    """Table 2b: a steady load, from parse.table2b()."""
    md = ["## Table 2b: a steady 5 ms in 16 ms load on CPU 1 for 4 s",
          "",
          "| policy | signal | average frequency [MHz] | time at lowest OPP |",
          "|---|---|---:|---:|"]
    avg = {}
    for policy, sig, mhz, low in t2s:
        avg[(policy, sig)] = float(mhz)
        md.append(f"| {policy} | {sig} | {float(mhz):.0f} | {float(low):.0f}% |")
    write_csv(results, "table2b.csv", ["policy", "signal", "freq_avg_mhz",
                                       "pct_time_lowest_opp"], t2s)
    opps_apart = []
    for policy in ("SCHED_OTHER", "SCHED_FIFO"):
        if (policy, "pelt") in avg and (policy, "walt") in avg:
            d = abs(nearest_opp(avg[(policy, "walt")]) -
                    nearest_opp(avg[(policy, "pelt")]))
            opps_apart.append(f"{policy} {d}")
    md += ["", "sched_util_clamp_min_rt_default 0; frequency weighted by "
           "time_in_state over the run, idle included. WALT's average vs "
           "PELT's, in OPPs apart (nearest OPP of each average): "
           + ", ".join(opps_apart) + ".", ""]
    return md


# Table 3's benchmarks, as its rows name them.
T3_WHAT = {"hackbench-1cpu": "hackbench on CPU 1, us per run",
           "hackbench": "hackbench on 2 CPUs, us per run",
           "messaging": "the SchedTune RFC's perf bench sched messaging "
                        "(hackbench -p --threads -g 25 -l 1000), us per run",
           "pingpong": "ping-pong on CPU 1, ns per round trip",
           "periodic": "1 ms wake from idle, ns per period "
                       "(elapsed: beyond 1 ms)",
           "ipi": "IPIs to an idle CPU, ns per IPI",
           "migrate": "migrating wake-ups, ns per round trip"}


T3_HEAD = ["| benchmark | configuration | runs | CPU time median (min-max) "
           "| vs baseline | elapsed median (min-max) | vs baseline "
           "| context switches per run |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
T3_CSV_HEAD = ["benchmark", "config", "runs", "cpu_median", "cpu_min", "cpu_max",
               "elapsed_median", "elapsed_min", "elapsed_max", "switches_median"]


def overhead_rows(vals, benches, what_of, configs):
    """The rows of an overhead table (Table 3 and its arm64 version): the
    markdown rows, the CSV rows and {(benchmark, configuration): CPU time
    against the baseline} of every benchmark under every configuration
    that ran it."""
    md, data, vs_base = [], [], {}
    for bench in benches:
        what = what_of[bench]
        base = vals.get((bench, "baseline"))
        for cfg in configs:
            v = vals.get((bench, cfg))
            if not v:
                continue
            el, cpu, sw = v
            mc, me = statistics.median(cpu), statistics.median(el)
            ms = statistics.median(sw) if sw else float("nan")
            rc = pct2(mc, statistics.median(base[1])) if base else "n/a"
            re_ = pct2(me, statistics.median(base[0])) if base else "n/a"
            md.append(f"| {what} | {cfg} | {len(cpu)} "
                      f"| {mc:.0f} ({min(cpu):.0f}-{max(cpu):.0f}) | {rc} "
                      f"| {me:.0f} ({min(el):.0f}-{max(el):.0f}) | {re_} "
                      f"| {ms:.0f} |")
            data.append([bench, cfg, len(cpu), mc, min(cpu), max(cpu),
                         me, min(el), max(el), ms])
            vs_base[bench, cfg] = rc
    return md, data, vs_base


def table3(results, vals):
    """Table 3: overhead, from parse.table3()."""
    rows, data, vs_base = overhead_rows(vals, T3_BENCHES, T3_WHAT, T3_CONFIGS)
    md = ["## Table 3: overhead, QEMU -icount (guest time counts instructions)",
          ""] + T3_HEAD + rows
    goal = []
    boosts = {}
    for bench in T3_BENCHES:
        what = T3_WHAT[bench].split(',')[0]
        base = vals.get((bench, "baseline"))
        if not base:
            continue
        if (bench, "walt-boost") in vs_base:
            runs_spread = (max(base[1]) - min(base[1])) / statistics.median(base[1])
            goal.append(f"{what} {vs_base[bench, 'walt-boost']} (baseline runs "
                        f"spread {runs_spread * 100:.1f}%)")
        for cfg in ("boost", "uclamp"):
            if (bench, cfg) in vs_base:
                boosts.setdefault(what, []).append(f"{cfg} {vs_base[bench, cfg]}")
    write_csv(results, "table3.csv", T3_CSV_HEAD, data)
    md += ["", "scripts/run.sh bench runs baseline, pelt, walt, boost and uclamp "
           "without the messaging benchmark; scripts/run.sh bench-full every "
           "configuration and benchmark below. "
           "baseline: pristine 6.12 + the virtual OPP driver only; pelt: the "
           "series with PELT selected, WALT off, no boost ever set; walt: WALT "
           "selected; walt-pl: WALT with what the Android kernels added to it, "
           "schedutil's pl on every policy (so each CPU's predicted demand is "
           "summed at every enqueue and dequeue) and runnable wait in task "
           "demand; walt-boost: WALT and the benchmark in a group boosted 10; "
           "boost: PELT and the benchmark in a group boosted 10 (SchedTune "
           "alone); boost90: the same at boost 90 (scripts/run.sh bench-full "
           "only); uclamp: the baseline kernel with the benchmark's tasks at "
           "uclamp.min 10% (upstream's per-task boost, for reference). "
           "hackbench -p -g 2 -l 100, pinned to CPU 1 with taskset (20 runs) "
           "and on both CPUs (10 runs); the SchedTune RFC's overhead "
           "benchmark, perf bench sched messaging --thread --group 25 --loop "
           "1000, run as the same program, hackbench --threads -g 25 -l 1000, "
           "with pipes instead of sockets (-p: the guest kernel has no "
           "networking; 3 runs, both CPUs; the RFC ran it at boosts 0, 10 "
           "and 90; most of a boot's guest work, so only scripts/run.sh "
           "bench-full runs it); "
           "ping-pong: two processes pinned to "
           "CPU 1, 50000 round trips; 1 ms wake from idle: a task pinned "
           "to CPU 1, otherwise idle, sleeping 1 ms (high-resolution timer, 1 ns "
           "slack) 2000 times, its elapsed "
           "time per period beyond the 1 ms is the timer IRQ, the wake-up "
           "and the switches to and from idle; IPIs: reads of "
           "/dev/cpu/1/cpuid from CPU 0, each a function-call IPI to idle "
           "CPU 1 whose handler wakes the reader, asleep on CPU 0 "
           "(20000 reads; an IRQ on an idle CPU, two switches on CPU 0); "
           "migrating wake-ups: a waker pinned to CPU 0 waits until a "
           "sleeper sleeps (its /proc stat), moves its affinity to the other "
           "CPU and wakes it through a pipe, so that every wake-up migrates "
           "the sleeper (the sleeper checks), and the sleeper wakes the "
           "waker back (5000 round trips; the /proc reads and the affinity "
           "changes are part of every configuration's time). "
           "CPU time is user + system of all the "
           "benchmark's processes (exact sum_exec_runtime); elapsed time also "
           "holds idle gaps that vary with wake-up placement. Context "
           "switches: /proc/stat ctxt across the run, whole guest. On two "
           "CPUs hackbench's cross-CPU wake-ups and spinning make runs of the "
           "same kernel differ by tens of percent; pinned, by a few percent, "
           "and medians of 20 runs of the same kernel by about 0.5%. The "
           "seed's SchedTune cost +1.1% ... +3.0% (hackbench, HiKey).", "",
           *(["Target, WALT + boost within +0.5% of the baseline (CPU time): "
              + "; ".join(goal) + ".", ""] if goal else []),
           "A boost on its own, SchedTune's (boost) next to upstream uclamp's "
           "(uclamp), CPU time: "
           + "; ".join(f"{b}: {', '.join(v)}" for b, v in boosts.items())
           + ".", ""]
    return md
