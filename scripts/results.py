#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guests' raw CSV rows (scripts/guest/tables.sh, bench.sh,
soc.sh) into Tables 1-3, Table 1 on the virtual HiKey, Table 4 on the
virtual HiKey960 and HiKey and Table 5 on the virtual HiKey960:
results/table{1,1-hikey,2,2b,3,4-hikey960,4-hikey,5-hikey960}.csv, the
plots table1-hikey.png, table2.png, table4-{video,ui,bench}.png and
table5-hikey960.png, and results/tables.md, printed too.
Exits non-zero when the data is missing or does not show what the seeds
claim (boost raises the average frequency monotonically, and on the
virtual HiKey PerfIndex too; -100 brings the frequency near the lowest
OPP schedutil may pick; WALT reaches 95% and falls to 10% within two
20 ms windows) or what holds by construction (Table 4's pinned
cpufreq-bench: performance does the most work, powersave the least).

    scripts/results.py RESULTS_DIR KERNEL_DESCRIPTION [--publish REPO]
"""
import csv
import lzma
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import energy  # noqa: E402

# The seeds' numbers, for the side-by-side columns.
SEED_T1_FREQ = {0: 606, 15: 658, 30: 739, 60: 852, -100: 363}  # MHz, HiKey
# Its "actual boost" column as the RFC prints it (363 against 606 would be
# -40%; the RFC prints -36%).
SEED_T1_FREQ_BOOST = {0: "+0%", 15: "+9%", 30: "+22%", 60: "+41%", -100: "-36%"}
SEED_T1_PERF = {0: (0.53, 0.12), 15: (0.61, 0.07), 30: (0.68, 0.07),
                60: (0.71, 0.05), -100: (-98.84, 120.00)}  # PerfIndex avg, std
SEED_T2_PELT = {"80%": 74, "95%": 139, "10%": 108}  # ms
LOWEST_OPP, HIGHEST_OPP = 208, 1200  # MHz
WALT_WINDOW_MS = 20

results, kernel = sys.argv[1], sys.argv[2]
md = [f"Measured on {kernel}, x86_64 QEMU TCG guests, 2 vCPUs, "
      "virtual OPP cpufreq driver (208/432/729/960/1200 MHz), schedutil.", ""]
problems = []


def rows(name, tag):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [r[1:] for r in csv.reader(f) if r and r[0] == tag]


def pct(new, ref):
    return f"{(new - ref) / ref * 100:+.1f}%" if ref else "n/a"


def pct2(new, ref):
    return f"{(new - ref) / ref * 100:+.2f}%" if ref else "n/a"


def write_csv(name, header, data):
    with open(os.path.join(results, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(data)


# Table 1: SchedTune.
t1 = [r for r in rows("raw-tables.csv", "T1") if r[0] != "error"]
if t1:
    t1 = {int(r[0]): (float(r[1]), float(r[2]), float(r[3]), float(r[4]), int(r[5]))
          for r in t1}
    md += ["## Table 1: SchedTune, rt-app ramp 5% -> 60% (16 ms period) on CPU 1",
           "",
           "| boost | util avg | boosted util avg | actual util boost "
           "| freq avg [MHz] | actual freq boost | time at lowest OPP "
           "| seed freq [MHz] | seed freq boost | samples |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    base = t1.get(0)
    data = []
    for b in (0, 15, 30, 60, -100):
        if b not in t1:
            problems.append(f"Table 1: no row for boost {b}")
            continue
        u, bu, f, low, n = t1[b]
        seed = SEED_T1_FREQ[b]
        md.append(f"| {b} | {u:.0f} | {bu:.0f} | {pct(bu, base[1]) if base else 'n/a'} "
                  f"| {f:.0f} | {pct(f, base[2]) if base else 'n/a'} | {low:.0f}% | {seed} "
                  f"| {SEED_T1_FREQ_BOOST[b]} | {n} |")
        data.append([b, u, bu, f, low, n, seed])
    write_csv("table1.csv", ["boost", "util_avg", "boosted_util_avg", "freq_avg_mhz",
                             "pct_time_lowest_opp", "samples", "seed_freq_mhz"], data)
    freqs = [t1[b][2] for b in (0, 15, 30, 60) if b in t1]
    if freqs != sorted(freqs) or len(set(freqs)) != len(freqs):
        problems.append("Table 1: boosts 0/15/30/60 do not raise the "
                        f"average frequency monotonically: {freqs}")
    # The seed: "most of its time at one of the lowest OPPs" (363 MHz).
    if -100 in t1 and t1[-100][3] < 50:
        problems.append(f"Table 1: boost -100 spends {t1[-100][3]:.0f}% of the "
                        f"time at the lowest OPP ({LOWEST_OPP} MHz), not most of it")
    md += ["", "Utilization is the mean of the sched_boost_cpu events of CPU 1 "
           "(every schedutil update); frequency is weighted by cpufreq's "
           "time_in_state over the whole run, idle time included.", ""]
else:
    problems.append("Table 1: no data (run scripts/run.sh tables)")

# Table 2: WALT vs PELT.
OPPS = (208, 432, 729, 960, 1200)  # MHz, the virtual OPP driver's


def nearest_opp(mhz):
    return min(range(len(OPPS)), key=lambda i: abs(OPPS[i] - mhz))


t2 = [r for r in rows("raw-tables.csv", "T2") if r[0] != "error"]
if t2:
    md += ["## Table 2: step response on CPU 1, PELT (half-life 32, 16 and 8 ms) "
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
        if sig in ("walt", "walt-rt"):
            # Both within two windows of the change: by construction,
            # the first complete window after it holds only the new load.
            for what, t in (("rise to 95%", t95), ("fall to 10%", t10)):
                try:
                    if float(t) > 2 * WALT_WINDOW_MS:
                        problems.append(f"Table 2: {sig}'s {what} took {t} ms, "
                                        f"more than two {WALT_WINDOW_MS} ms windows")
                except ValueError:
                    problems.append(f"Table 2: {sig}'s {what} never happened")
    md.append(f"| seed: PELT (WALT RFC cover letter) | {SEED_T2_PELT['80%']} "
              f"| {SEED_T2_PELT['95%']} | {SEED_T2_PELT['10%']} | | | | | |")
    write_csv("table2.csv", ["signal", "to80_ms", "to95_ms", "to10_ms",
                             "to_highest_opp_ms", "opp_at_step_khz", "peak_util",
                             "samples", "to_lowest_opp_ms"], data)
    md += ["", "Thresholds are 819, 973 and 102 of 1024, read from the "
           "sched_boost_cpu events (the signal schedutil saw); times start at "
           "trace markers written by the load generator. The -rt rows run the "
           "step as SCHED_FIFO with sched_util_clamp_min_rt_default 0 (as "
           "Android sets it) and RT throttling off; PELT's signal is the fair "
           "class's, so its RT rows have no utilization columns, only the OPPs "
           "schedutil chose from CFS + RT.", ""]
else:
    problems.append("Table 2: no data (run scripts/run.sh tables)")

t2p = rows("raw-tables.csv", "T2P")
if t2p:
    data = os.path.join(results, "plot-table2.dat")
    with open(data, "w") as f:
        for sig in ("pelt", "pelt8", "walt"):
            f.write(f"# {sig}\n")
            for r in t2p:
                if r[0] == sig:
                    f.write(" ".join(r[1:]) + "\n")
            f.write("\n\n")
    png = os.path.join(results, "table2.png")
    subprocess.run(["gnuplot"], text=True, check=True, input="\n".join([
        "set terminal pngcairo size 1000,500 font ',9' noenhanced",
        f"set output '{png}'", "set xrange [-50:1500]",
        "set title 'Table 2: 0 -> 100% -> 0 step on CPU 1 (x86_64 guest, "
        "virtual OPPs: the vCPU speed does not change)'",
        "set xlabel 'ms from the step up (the step down is at 1000 ms)'",
        "set ylabel 'utilization schedutil saw'", "set y2label 'MHz'",
        "set ytics nomirror", "set y2tics", "set yrange [0:1100]",
        "set y2range [0:1300]", "set key right center",
        f"plot '{data}' index 0 using 1:2 with lines title 'PELT util', "
        f"'' index 1 using 1:2 with lines title 'PELT 8 ms util', "
        f"'' index 2 using 1:2 with lines title 'WALT util', "
        f"'' index 0 using 1:3 axes x1y2 with steps dt 2 title 'PELT frequency', "
        f"'' index 1 using 1:3 axes x1y2 with steps dt 2 title 'PELT 8 ms frequency', "
        f"'' index 2 using 1:3 axes x1y2 with steps dt 2 title 'WALT frequency'"]))
    md += ["Plot: table2.png (utilization and frequency of the SCHED_OTHER "
           "steps).", ""]

t2s = [r for r in rows("raw-tables.csv", "T2S") if r[0] != "error"]
if t2s:
    md += ["## Table 2b: a steady 5 ms in 16 ms load on CPU 1 for 4 s",
           "",
           "| policy | signal | average frequency [MHz] | time at lowest OPP |",
           "|---|---|---:|---:|"]
    avg = {}
    for policy, sig, mhz, low in t2s:
        avg[(policy, sig)] = float(mhz)
        md.append(f"| {policy} | {sig} | {float(mhz):.0f} | {float(low):.0f}% |")
    write_csv("table2b.csv", ["policy", "signal", "freq_avg_mhz",
                              "pct_time_lowest_opp"], t2s)
    apart = []
    for policy in ("SCHED_OTHER", "SCHED_FIFO"):
        if (policy, "pelt") in avg and (policy, "walt") in avg:
            d = abs(nearest_opp(avg[(policy, "walt")]) -
                    nearest_opp(avg[(policy, "pelt")]))
            apart.append(f"{policy} {d}")
    md += ["", "sched_util_clamp_min_rt_default 0; frequency weighted by "
           "time_in_state over the run, idle included. WALT's average vs "
           "PELT's, in OPPs apart (nearest OPP of each average): "
           + ", ".join(apart) + ".", ""]
else:
    problems.append("Table 2b: no data (run scripts/run.sh tables)")

# Table 3: overhead.
t3 = rows("raw-bench.csv", "T3")
if t3:
    vals = {}
    for bench, cfg, _, elapsed, cpu, *switches in t3:
        if elapsed and cpu:
            v = vals.setdefault((bench, cfg), ([], [], []))
            v[0].append(float(elapsed))
            v[1].append(float(cpu))
            if switches and switches[0]:
                v[2].append(float(switches[0]))
    benches = {"hackbench-1cpu": "hackbench on CPU 1, us per run",
               "hackbench": "hackbench on 2 CPUs, us per run",
               "messaging": "the SchedTune RFC's perf bench sched messaging "
                            "(hackbench -p --threads -g 25 -l 1000), us per run",
               "pingpong": "ping-pong on CPU 1, ns per round trip",
               "periodic": "1 ms wake from idle, ns per period "
                           "(elapsed: beyond 1 ms)",
               "ipi": "IPIs to an idle CPU, ns per IPI",
               "migrate": "migrating wake-ups, ns per round trip"}
    md += ["## Table 3: overhead, QEMU -icount (guest time counts instructions)",
           "",
           "| benchmark | configuration | runs | CPU time median (min-max) "
           "| vs baseline | elapsed median (min-max) | vs baseline "
           "| context switches per run |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    data = []
    goal = []
    boosts = {}
    for bench, what in benches.items():
        base = vals.get((bench, "baseline"))
        for cfg in ("baseline", "pelt", "pelt8", "walt", "walt-boost", "boost",
                    "uclamp"):
            v = vals.get((bench, cfg))
            if not v:
                # pelt8 runs only where its clock runs at every switch.
                if cfg != "pelt8" or bench in ("pingpong", "periodic"):
                    problems.append(f"Table 3: no {bench} runs for {cfg}")
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
            if cfg == "walt-boost" and base:
                spread = (max(base[1]) - min(base[1])) / statistics.median(base[1])
                goal.append(f"{what.split(',')[0]} {rc} (baseline runs "
                            f"spread {spread * 100:.1f}%)")
            if cfg in ("boost", "uclamp") and base:
                boosts.setdefault(what.split(',')[0], []).append(f"{cfg} {rc}")
    write_csv("table3.csv", ["benchmark", "config", "runs", "cpu_median", "cpu_min",
                             "cpu_max", "elapsed_median", "elapsed_min",
                             "elapsed_max", "switches_median"], data)
    md += ["", "baseline: pristine 6.12 + the virtual OPP driver only; pelt: the "
           "series with PELT selected, WALT off, no boost ever set; walt: WALT "
           "selected; walt-boost: WALT and the benchmark in a group boosted 10; "
           "boost: PELT and the benchmark in a group boosted 10 (SchedTune "
           "alone); uclamp: the baseline kernel with the benchmark's tasks at "
           "uclamp.min 10% (upstream's per-task boost, for reference). "
           "hackbench -p -g 2 -l 100, pinned to CPU 1 with taskset (20 runs) "
           "and on both CPUs (10 runs); the SchedTune RFC's overhead "
           "benchmark, perf bench sched messaging --thread --group 25 --loop "
           "1000, run as the same program, hackbench --threads -g 25 -l 1000, "
           "with pipes instead of sockets (-p: the guest kernel has no "
           "networking; 3 runs, both CPUs; the RFC ran it at boosts 0, 10 "
           "and 90); "
           "ping-pong: two processes pinned to "
           "CPU 1, 50000 round trips; 1 ms wake from idle: a task pinned "
           "to CPU 1, otherwise idle, sleeping 1 ms (high-resolution timer, 1 ns slack) 2000 times, its elapsed "
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
           "Target, WALT + boost within +0.5% of the baseline (CPU time): "
           + "; ".join(goal) + ".", "",
           "A boost on its own, SchedTune's (boost) next to upstream uclamp's "
           "(uclamp), CPU time: "
           + "; ".join(f"{b}: {', '.join(v)}" for b, v in boosts.items())
           + ".", ""]
else:
    problems.append("Table 3: no data (run scripts/run.sh bench)")

# Table 1 on the virtual HiKey (scripts/guest/soc.sh): PerfIndex from
# socload, frequency and energy from the trace of each ramp.
BOOSTS = (0, 15, 30, 60, -100)


def soc_rows(board, tag):
    return [r[1:] for r in rows("raw-soc.csv", board) if r and r[0] == tag]


def trace_segments(path, head="== trace ", key=lambda w: int(w[2])):
    """{key: (lines, {policy: kHz at the start})} of the traces in a guest
    log, each from a line starting with @head (its words give the key) to
    "== trace end"; by default the boosts of a table1 log."""
    seg, cur = {}, None
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("== trace end"):
                cur = None
            elif line.startswith(head):
                cur = key(line.split())
                seg[cur] = ([], {})
            elif cur is not None and line.startswith("F0,"):
                _, p, khz = line.split(",")
                seg[cur][1][int(p)] = int(khz)
            elif cur is not None:
                seg[cur][0].append(line)
    return seg


def plot_ramps(series, png):
    """One panel per boost: util, boosted util and frequency over time."""
    data = os.path.join(results, "plot-table1-hikey.dat")
    with open(data, "w") as f:
        for b in BOOSTS:
            # A point off the plot: gnuplot drops empty blocks, and the
            # index of every later one would shift.
            f.write(f"# boost {b}\n-99999 -1 -1 -1\n")
            for t, u, bu, mhz in series.get(b, []):
                f.write(f"{t:.4f} {u} {bu} {mhz}\n")
            f.write("\n\n")
    cmds = ["set terminal pngcairo size 1100,1300 font ',9' noenhanced",
            f"set output '{png}'",
            "set multiplot layout 5,1 title 'Table 1 on the virtual HiKey: "
            "ramp 5%->60% of 16 ms as work on CPU 1 (emulated; energy from the EM)'",
            "set ylabel 'utilization'", "set y2label 'MHz'", "set ytics nomirror",
            "set y2tics", "set yrange [0:1024]", "set y2range [0:1300]",
            "set key outside top center horizontal"]
    for i, b in enumerate(BOOSTS):
        cmds += [f"set title 'boost {b}'",
                 "set xlabel 's'" if i == len(BOOSTS) - 1 else "unset xlabel",
                 f"plot '{data}' index {i} using 1:2 with lines title 'util', "
                 f"'' index {i} using 1:3 with lines title 'boosted util', "
                 f"'' index {i} using 1:4 axes x1y2 with steps title 'frequency'"]
    cmds.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(cmds), text=True, check=True)


soc = {r[0]: r[1:] for r in soc_rows("hikey", "T1H")}
log1 = os.path.join(results, "soc-hikey-table1.log")
if soc and os.path.exists(log1):
    em, policies, inefficient = {}, {}, set()
    for p, khz, uw, ineff in soc_rows("hikey", "EM"):
        em.setdefault(int(p), {})[int(khz)] = int(uw)
        if ineff == "1":
            inefficient.add(int(khz))
    for p, cpus in soc_rows("hikey", "POLICY"):
        policies[int(p)] = [int(c) for c in cpus.split(":")]
    segs = trace_segments(log1)
    # schedutil skips OPPs the EM marks inefficient (CPUFREQ_RELATION_E):
    # the Hi6220's 208 MHz has 432 MHz's voltage, so the same energy per
    # cycle, and the lowest OPP it picks is 432 MHz.
    lowest = min(set(em[0]) - inefficient) // 1000
    md += ["## Table 1 on the virtual HiKey: PerfIndex, frequency and energy",
           "",
           "| boost | PerfIndex avg | std | actual boost | freq avg [MHz] "
           f"| actual freq boost | time at {lowest} MHz | energy [mJ] | vs boost 0 "
           "| seed PerfIndex avg (std) | seed freq [MHz] |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    t1h, series = {}, {}
    for b in BOOSTS:
        if str(b) not in soc or b not in segs:
            problems.append(f"Table 1 (HiKey): no run for boost {b}")
            continue
        perf, std, n = float(soc[str(b)][0]), float(soc[str(b)][1]), int(soc[str(b)][2])
        lines, f0 = segs[b]
        ev = energy.parse_ftrace(lines)
        t0, t1 = energy.mark_time(ev, "ramp_start"), energy.mark_time(ev, "ramp_end")
        mj = sum(energy.busy_energy(ev, em, policies, f0, t0, t1).values()) / 1000
        mhz = energy.average_frequency(ev, 0, f0[0], t0, t1) / 1000
        low = energy.time_at(ev, 0, f0[0], lowest * 1000, t0, t1) / (t1 - t0) * 100
        t1h[b] = (perf, std, mhz, low, mj, n)
        f, pts = f0[0], []
        for e in sorted(ev, key=lambda e: e.time):
            if e.kind == "freq" and e.a == 0:
                f = e.b
            elif e.kind == "boost" and t0 <= e.time <= t1:
                pts.append((e.time - t0, e.a, e.a + e.b, f // 1000))
        series[b] = pts
    base = t1h.get(0)
    data = []
    for b, (perf, std, mhz, low, mj, n) in t1h.items():
        sp, ss = SEED_T1_PERF[b]
        md.append(f"| {b} | {perf:.2f} | {std:.2f} | {pct(perf, base[0]) if base else 'n/a'} "
                  f"| {mhz:.0f} | {pct(mhz, base[2]) if base else 'n/a'} | {low:.0f}% "
                  f"| {mj:.1f} | {pct(mj, base[4]) if base else 'n/a'} "
                  f"| {sp} ({ss}) | {SEED_T1_FREQ[b]} |")
        data.append([b, perf, std, mhz, low, mj, n, sp, SEED_T1_FREQ[b]])
    write_csv("table1-hikey.csv", ["boost", "perf_index_avg", "perf_index_std",
                                   "freq_avg_mhz", "pct_time_lowest_opp",
                                   "energy_mj", "activations", "seed_perf_index",
                                   "seed_freq_mhz"], data)
    # By construction: -100 deflates CFS utilization to 0, so schedutil
    # asks for its lowest OPP (what PerfIndex then is, is measured).
    if -100 in t1h and t1h[-100][3] < 50:
        problems.append(f"Table 1 (HiKey): boost -100 ran {t1h[-100][3]:.0f}% "
                        f"at {lowest} MHz")
    png = os.path.join(results, "table1-hikey.png")
    plot_ramps(series, png)
    md += ["", "Virtual HiKey: QEMU arm64 virt, 8 vCPUs, -icount, with the "
           "Hi6220's CPUs, OPP table (208-1200 MHz) and power coefficient from "
           "the kernel's hi6220.dtsi; EAS off (symmetric CPUs). The ramp's work "
           "is emulated: it takes 1200/f as long at f MHz (scripts/guest/socload.c); "
           "the kernel and all else run at vCPU speed. PerfIndex is LISA's, "
           "slack / (period - run) per activation, rt-app's absolute timer. "
           "Frequency: policy 0, time-weighted over the ramp, idle included; "
           f"{lowest} MHz is the lowest OPP schedutil picks: the EM marks "
           f"{', '.join(str(k // 1000) for k in sorted(inefficient))} MHz inefficient "
           "(no less energy per cycle than a faster OPP) and 6.12's cpufreq "
           "skips it. "
           "Energy: the Energy Model's power of each busy CPU at its OPP, "
           "summed over the 8 CPUs; idle power 0 (modelled, busy energy only). "
           "Plot: table1-hikey.png.", ""]
elif os.path.exists(os.path.join(results, "raw-soc.csv")):
    problems.append("Table 1 (HiKey): no data (run scripts/run.sh soc)")


# Table 5 on the virtual HiKey960 (scripts/guest/soc.sh, soc=table5):
# placement with PELT and WALT selected, SchedTune and prefer_idle.
BIG = 1024


def place_rows(tag):
    return [r[1:] for r in rows("raw-place.csv", "hikey960") if r and r[0] == tag]


def spread(vals, fmt="{:.0f}"):
    """median (min-max) of a list of numbers, or n/a."""
    if not vals:
        return "n/a"
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(vals))}-{fmt.format(max(vals))})"


def task_timeline(ev, t0):
    """[(start, end, cpu)] of the one task whose switches the trace holds."""
    pids = [e.a for e in ev if e.kind == "switch" and e.a != 0]
    if not pids:
        return []
    pid = statistics.mode(pids)
    on, segs = {}, []
    for e in sorted(ev, key=lambda e: e.time):
        if e.kind != "switch":
            continue
        if e.b == pid and e.cpu in on:
            segs.append((on.pop(e.cpu) - t0, e.time - t0, e.cpu))
        if e.a == pid:
            on[e.cpu] = e.time
    return segs


def plot_timelines(panels, caps, png):
    """One panel per (title, segments): the task's CPU over time."""
    data = os.path.join(results, "plot-table5-hikey960.dat")
    with open(data, "w") as f:
        for _, segs in panels:
            for big in (False, True):
                # A point off the plot: gnuplot drops empty blocks, and
                # the index of every later one would shift.
                f.write("# big\n" if big else "# little\n")
                f.write("-99999 -9\n\n")
                for a, b, cpu in segs:
                    if (caps.get(cpu, 0) == BIG) == big:
                        f.write(f"{a * 1000:.2f} {cpu}\n{b * 1000:.2f} {cpu}\n\n")
                f.write("\n")
    cmds = ["set terminal pngcairo size 1100,1100 font ',9' noenhanced",
            f"set output '{png}'",
            f"set multiplot layout {len(panels)},1 title 'Table 5 on the virtual "
            "HiKey960: the CPU the task runs on (0-3 little, 4-7 big; "
            "emulated work, EAS on)'",
            "set ylabel 'CPU'", "set yrange [-0.5:7.5]", "set ytics 1",
            "set xrange [-1400:1100]",
            "set key outside top right"]
    for i, (title, _) in enumerate(panels):
        cmds += [f"set title '{title}'",
                 "set xlabel 'ms'" if i == len(panels) - 1 else "unset xlabel",
                 f"plot '{data}' index {2 * i} using 1:2 with lines lw 4 lc rgb '#3070b0' "
                 f"title 'little', '' index {2 * i + 1} using 1:2 with lines lw 4 "
                 "lc rgb '#d04020' title 'big'"]
    cmds.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(cmds), text=True, check=True)


t5 = place_rows("T5")
log5 = os.path.join(results, "soc-hikey960-table5.log")
if t5 and os.path.exists(log5):
    em, policies, caps = {}, {}, {}
    for p, khz, uw, ineff in place_rows("EM"):
        em.setdefault(int(p), {})[int(khz)] = int(uw)
    for p, cpus in place_rows("POLICY"):
        policies[int(p)] = [int(c) for c in cpus.split(":")]
    # The HiKey960's capacities: the policy of the highest OPP power is big.
    big_policy = max(policies, key=lambda p: max(em[p].values()))
    for p, cpus in policies.items():
        for c in cpus:
            caps[c] = BIG if p == big_policy else 0
    # {(signal, scenario, setting, run): (lines, {policy: kHz})}
    segs = trace_segments(log5, "== trace5 ", lambda w: tuple(w[2:6]))
    res = {}
    for sig, scen, setting, run, *vals in t5:
        res.setdefault((sig, scen, setting), []).append([float(v) for v in vals])
    energy5, from_idle = {}, {}
    for (sig, scen, setting, run), (lines, f0) in segs.items():
        if scen == "wake4":
            # A wakee's switches in: from the idle task (it found its CPU
            # idle) or from another task (it waited or preempted).
            ins = [e for e in energy.parse_ftrace(lines) if e.kind == "switch"]
            if ins:
                from_idle.setdefault((sig, setting), []).append(
                    100 * sum(1 for e in ins if e.b == 0) / len(ins))
        if scen not in ("place", "place10"):
            continue
        ev = energy.parse_ftrace(lines)
        t0, t1 = energy.mark_time(ev, "place_start"), energy.mark_time(ev, "place_end")
        mj = sum(energy.busy_energy(ev, em, policies, f0, t0, t1).values()) / 1000
        energy5.setdefault((sig, scen, setting), []).append(mj)

    def col(key, i, fmt="{:.0f}", where=None):
        vals = [v[i] for v in res.get(key, []) if where is None or where(v)]
        return spread(vals, fmt)

    def count(key, pred):
        vals = res.get(key, [])
        return f"{sum(1 for v in vals if pred(v))}/{len(vals)}"

    md += ["## Table 5 on the virtual HiKey960: placement by PELT and WALT",
           "",
           "| scenario | measure | PELT | WALT | the RFCs |",
           "|---|---|---:|---:|---|"]
    rfc_heavy = ("WALT: max demand after about 3 windows with invariance "
                 "(~30 ms at 10 ms windows); PELT ~74 ms to 80%")
    rows5 = [
        ("heavy: 10% steps to 100%", "on a big CPU at the step",
         *(count((s, "heavy", "-"), lambda v: v[0] == BIG) for s in ("pelt", "walt")), ""),
        ("", "ms from the step to a big CPU",
         *(col((s, "heavy", "-"), 1, where=lambda v: v[1] >= 0) for s in ("pelt", "walt")),
         rfc_heavy),
        ("", "runs never on a big CPU within 1 s",
         *(count((s, "heavy", "-"), lambda v: v[1] < 0) for s in ("pelt", "walt")), ""),
        ("sleeper: 80%, 300 ms asleep", "woke on a big CPU",
         *(count((s, "sleeper", "-"), lambda v: v[0] == BIG) for s in ("pelt", "walt")),
         "WALT keeps the demand and can move up at once; PELT decays to ~0 in ~213 ms"),
        ("", "ms from the wake-up to a big CPU",
         *(col((s, "sleeper", "-"), 1, where=lambda v: v[1] >= 0) for s in ("pelt", "walt")), ""),
    ]
    for scen, duty, b, rfc in (
            ("place", 25, "0", ""),
            ("place", 25, "60", "SchedTune RFC: a boosted task's placement is the boost's next use"),
            ("place10", 10, "0", ""),
            ("place10", 10, "80", "boosted past the fitness headroom (100 + 739 > 819): a hint, like uclamp.min")):
        rows5 += [
            (f"{scen}: {duty}% task, boost {b}", "% of its CPU time on big CPUs",
             *(col((s, scen, b), 0) for s in ("pelt", "walt")), rfc),
            ("", "PerfIndex",
             *(col((s, scen, b), 1, "{:.2f}") for s in ("pelt", "walt")), ""),
            ("", "energy [mJ, modelled]",
             *(spread(energy5.get((s, scen, b), []), "{:.1f}") for s in ("pelt", "walt")), ""),
        ]
    for pi in ("0", "1"):
        rows5 += [
            (f"wake4: prefer_idle {pi}", "wake-up latency p50 [us]",
             *(col((s, "wake4", pi), 0) for s in ("pelt", "walt")),
             "Android: prefer_idle trades energy for latency" if pi == "1" else ""),
            ("", "p95 [us]", *(col((s, "wake4", pi), 1) for s in ("pelt", "walt")), ""),
            ("", "max [us]", *(col((s, "wake4", pi), 2) for s in ("pelt", "walt")), ""),
            ("", "% of wake-ups on a big CPU",
             *(col((s, "wake4", pi), 4) for s in ("pelt", "walt")), ""),
            ("", "% of the wakees' switches in from idle",
             *(spread(from_idle.get((s, pi), [])) for s in ("pelt", "walt")), ""),
        ]
    data = []
    for r in rows5:
        md.append("| " + " | ".join(r) + " |")
    for (sig, scen, setting), runs in sorted(res.items()):
        for i, v in enumerate(runs):
            data.append([sig, scen, setting, i + 1, *v])
    write_csv("table5-hikey960.csv", ["signal", "scenario", "setting", "run",
                                      "value1", "value2", "value3", "value4",
                                      "value5"], data)
    for sig in ("pelt", "walt"):
        for scen, settings in (("heavy", ("-",)), ("sleeper", ("-",)),
                               ("place", ("0", "60")), ("place10", ("0", "80")),
                               ("wake4", ("0", "1"))):
            for st in settings:
                if len(res.get((sig, scen, st), [])) != 3:
                    problems.append(f"Table 5: {len(res.get((sig, scen, st), []))} "
                                    f"runs of {scen} {st} under {sig}, not 3")
    panels = []
    for scen, mark in (("heavy", "step"), ("sleeper", "wake")):
        for sig in ("pelt", "walt"):
            key = (sig, scen, "-", "1")
            if key in segs:
                ev = energy.parse_ftrace(segs[key][0])
                panels.append((f"{scen} ({'step to 100% at 0' if scen == 'heavy' else 'wakes at 0'}), "
                               f"{sig.upper()}", task_timeline(ev, energy.mark_time(ev, mark))))
    if panels:
        plot_timelines(panels, caps, os.path.join(results, "table5-hikey960.png"))
    md += ["", "Virtual HiKey960: QEMU arm64 virt, 8 vCPUs, -icount, with the "
           "Hi3660's CPUs (4 x A53 of capacity 462, 4 x A73 of 1024), OPPs and "
           "power coefficients from the kernel's hi3660.dtsi; EAS on; schedutil; "
           "WALT with 20 ms windows. Three runs each, median (min-max). Work is "
           "emulated: it takes 1024/capacity x f_max/f as long "
           "(scripts/guest/socload.c), the kernel and all else run at vCPU "
           "speed. Energy: the Energy Model's power of each busy CPU at its OPP "
           "over the 2 s run, all tasks (modelled, busy energy only). wake4: "
           "four tasks of a schedtune group woken together every 32 ms, 0.5 ms "
           "of work each, beside four tasks of 3 ms every 16 ms in the root "
           "group; latency from the waker's first write to the wakee's return "
           "from read(), in guest time: under -icount the vCPUs take turns on "
           "one host thread, and a woken vCPU waits for the running ones' "
           "turns, so the latencies hold QEMU's round-robin as well. "
           "Timelines: table5-hikey960.png.", ""]
elif os.path.exists(os.path.join(results, "raw-place.csv")):
    problems.append("Table 5 (HiKey960): no data (run scripts/run.sh place)")

# Table 4 on the virtual HiKey960 and HiKey (scripts/guest/soc.sh,
# soc=table4): energy and performance per configuration, every run of
# every boot (scripts/run.sh energy: one boot per configuration, one run;
# energy-full: three boots of three runs). Columns in the order of the
# data (run.sh's T4_CONFIGS); a configuration without a label here is
# named by its t4= name.
T4_LABELS = {"performance": "performance", "pelt": "PELT", "pelt16": "PELT 16 ms",
             "pelt8": "PELT 8 ms", "pelt-boost10": "PELT + boost 10",
             "pelt-hs": "PELT + hispeed",
             "walt": "WALT 20 ms", "walt10": "WALT 10 ms",
             "walt-pl": "WALT + pl", "walt-hs": "WALT + hispeed",
             "walt-pl-wait": "WALT + pl + runnable wait",
             "walt-pl-hs": "WALT + pl + hispeed",
             "walt16-pl-hs": "WALT 16 ms + pl + hispeed",
             "walt8-pl-hs": "WALT 8 ms + pl + hispeed",
             "walt-boost10": "WALT + boost 10", "powersave": "powersave"}
T4_BENCH_MS = (50, 100, 150, 200, 250)
# A cluster's own power while any of its CPUs runs (L2, interconnect), as a
# share of one CPU's EM power at the cluster's OPP: LISA's HiKey energy
# model (lisa/platforms/hikey_energy.py, measured on the board) gives the
# cluster 112 against a CPU's 670 at 1200 MHz (0.17; 0.20-0.23 at lower
# OPPs), and 0 in cluster sleep. The HiKey960 has no such published
# model; the same share is applied to it.
CLUSTER_SHARE = 0.17
# The WALT RFC's cpufreq-bench: % of the performance governor's work.
RFC_BENCH = {"walt": (67.4, 80.4, 85.9, 89.3, 90.9),
             "pelt": (76.5, 76.2, 82.5, 85.7, 88.6)}
RFC_T4 = {
    "video": "WALT RFC, 1080p/2160p playback: energy -4.6% (Chrome) and "
             "-10.8% (Firefox) on an i7, average current -9.6% and -3% on a "
             "Snapdragon 820",
    "ui": "WALT RFC, Jankbench: 90th percentile frame time 3-4% better, "
          "99th up to 7%",
}


def energy_rows(board, tag):
    return [r[1:] for r in rows("raw-energy.csv", board) if r and r[0] == tag]


def med0(vals):
    """The median, 0 without values."""
    return statistics.median(vals) if vals else 0


def apart(a, b):
    """The ranges of two samples of at least two runs each do not overlap:
    a difference to call. One run has no range: nothing is called."""
    return len(a) >= 2 and len(b) >= 2 and (max(a) < min(b) or max(b) < min(a))


def plot_pareto(load, points, ylabel, png):
    """Energy against @ylabel, one point per (board, configuration): the
    median with the range of both as error bars."""
    data = os.path.join(results, f"plot-table4-{load}.dat")
    boards = sorted({p[0] for p in points})
    with open(data, "w") as f:
        for b in boards:
            f.write(f"# {b}\n")
            for pb, label, xs, ys in points:
                if pb == b:
                    f.write(f"{statistics.median(xs):.4f} {statistics.median(ys):.3f} "
                            f"{min(xs):.4f} {max(xs):.4f} {min(ys):.3f} {max(ys):.3f} "
                            f'"{label}"\n')
            f.write("\n\n")
    cmds = ["set terminal pngcairo size 900,600 font ',10' noenhanced",
            f"set output '{png}'",
            f"set title 'Table 4, {load}: median and range per configuration, lower left is better "
            "(virtual SoC: work emulated, energy modelled, busy only)'",
            "set xlabel 'energy [J, modelled]'", f"set ylabel '{ylabel}'",
            "set key outside top center horizontal", "set grid",
            "set offsets graph 0.05, graph 0.25, graph 0.08, graph 0.05"]
    plots = []
    for i, b in enumerate(boards):
        plots += [f"'{data}' index {i} using 1:2:3:4:5:6 with xyerrorbars "
                  f"pt {7 + 2 * i} ps 1.3 title '{b}'",
                  f"'' index {i} using 1:2:7 with labels offset 1,0.7 left notitle"]
    cmds.append("plot " + ", ".join(plots))
    subprocess.run(["gnuplot"], input="\n".join(cmds), text=True, check=True)


def read_log(path):
    """A guest log: the file, or its .xz (Table 4 keeps them compressed)."""
    for p in (path, path + ".xz"):
        if os.path.exists(p):
            return p
    return None


t4_boards = [b for b in ("hikey960", "hikey") if energy_rows(b, "T4")]
t4_points, t4_summary = {}, {}
for board in t4_boards:
    em, policies = {}, {}
    for p, khz, uw, ineff in energy_rows(board, "EM"):
        em.setdefault(int(p), {})[int(khz)] = int(uw)
    for p, cpus in energy_rows(board, "POLICY"):
        policies[int(p)] = [int(c) for c in cpus.split(":")]
    # {(config, load): {run: [values...]}}, run "BOOT.RUN"; loads of rt-app
    # (T4R rows) in rtapp_loads.
    res, cfgs, loads, rtapp_loads = {}, [], [], []
    for tag in ("T4", "T4R"):
        for cfg, load, run, *vals in energy_rows(board, tag):
            try:
                res.setdefault((cfg, load), {})[run] = [float(v) for v in vals]
            except ValueError:
                problems.append(f"Table 4 ({board}): {load} failed in run {run} "
                                f"under {cfg}")
            if cfg not in cfgs:
                cfgs.append(cfg)
            if load not in loads:
                loads.append(load)
            if tag == "T4R" and load not in rtapp_loads:
                rtapp_loads.append(load)
    # Columns in T4_LABELS' order, then any other configuration.
    cfgs.sort(key=lambda c: list(T4_LABELS).index(c) if c in T4_LABELS else len(T4_LABELS))
    # {(config, load): {run: J}}: busy energy, and with the clusters' power
    joules, joules_cl = {}, {}
    for cfg in cfgs:
        boot = 1
        while True:
            log4 = read_log(os.path.join(results, f"soc-{board}-table4-{cfg}-{boot}.log"))
            if not log4:
                break
            segs = trace_segments(log4, "== trace4 ", lambda w: tuple(w[2:5]))
            for (c, load, run), (lines, f0) in segs.items():
                ev = energy.parse_ftrace(lines)
                try:
                    t0, t1 = energy.mark_time(ev, "t4_start"), energy.mark_time(ev, "t4_end")
                except ValueError:
                    # A failed run: its row says so.
                    continue
                uj = sum(energy.busy_energy(ev, em, policies, f0, t0, t1).values())
                joules.setdefault((c, load), {})[f"{boot}.{run}"] = uj / 1e6
                uj += sum(energy.cluster_energy(ev, em, policies, f0, t0, t1,
                                                CLUSTER_SHARE).values())
                joules_cl.setdefault((c, load), {})[f"{boot}.{run}"] = uj / 1e6
            boot += 1

    def vals(cfg, load, f, joules=joules):
        """f(values, J) over the runs of (cfg, load) with both."""
        r, j = res.get((cfg, load), {}), joules.get((cfg, load), {})
        out = [f(r[k], j[k]) for k in sorted(r) if k in j]
        return [x for x in out if x is not None]

    def cell(cfg, load, f, fmt="{:.0f}", joules=joules):
        return spread(vals(cfg, load, f, joules), fmt)

    def vs_pelt(cfg, load, f, joules=joules):
        """The median's change against PELT's, marked * where the ranges
        are apart."""
        mine, ref = vals(cfg, load, f, joules), vals("pelt", load, f, joules)
        if not mine or not ref or cfg == "pelt":
            return ""
        return (pct(statistics.median(mine), statistics.median(ref))
                + (" *" if apart(mine, ref) else ""))

    runs_of = {c: max(len(res.get((c, ld), {})) for ld in loads) for c in cfgs}
    boots_of = {c: len({k.split(".")[0] for ld in loads for k in res.get((c, ld), {})})
                for c in cfgs}
    counts = sorted({(boots_of[c], runs_of[c]) for c in cfgs}, reverse=True)
    md += [f"## Table 4 on the virtual {'HiKey960' if board == 'hikey960' else 'HiKey'}: "
           "energy and performance", "",
           "; ".join(f"{b} boot(s), {n} run(s) of each load in all: "
                     + ", ".join(T4_LABELS.get(c, c) for c in cfgs
                                 if (boots_of[c], runs_of[c]) == (b, n))
                     for b, n in counts)
           + ". Median (min-max) over the runs; * : the ranges of this configuration "
           "and PELT's are apart.", "",
           "| load | measure | " + " | ".join(T4_LABELS.get(c, c) for c in cfgs)
           + " | the RFC |",
           "|---|---|" + "---:|" * len(cfgs) + "---|"]
    energy_j = (lambda v, j: j)
    data = []
    pareto_better = []
    for load in loads:
        lines = [("energy [J, modelled]", [cell(c, load, energy_j, "{:.3f}") for c in cfgs],
                  RFC_T4.get(load, "")),
                 ("energy against PELT", [vs_pelt(c, load, energy_j) for c in cfgs], ""),
                 ("energy with cluster power [J]",
                  [cell(c, load, energy_j, "{:.3f}", joules_cl) for c in cfgs], ""),
                 ("with cluster power, against PELT",
                  [vs_pelt(c, load, energy_j, joules_cl) for c in cfgs], "")]
        if load in rtapp_loads:
            # in_bench_rtapp: threads, activations, missed, PerfIndex, stretch
            n = int(max(med0(vals(c, load, lambda v, j: v[1])) for c in cfgs))
            th = int(max(med0(vals(c, load, lambda v, j: v[0])) for c in cfgs))
            missed, stretch = (lambda v, j: v[2]), (lambda v, j: v[4])
            if n:
                lines += [(f"activations that missed their period (of {n}, "
                           f"{th} periodic threads)",
                           [cell(c, load, missed) for c in cfgs], ""),
                          ("PerfIndex (LISA), mean",
                           [cell(c, load, lambda v, j: v[3], "{:.2f}") for c in cfgs], "")]
            lines += [("run time over reference work (all threads)",
                       [cell(c, load, stretch, "{:.2f}") for c in cfgs], ""),
                      ("run time against PELT", [vs_pelt(c, load, stretch) for c in cfgs], "")]
            # The periodic threads of rt-app's workloads are small (a vsync
            # or an audio tick): how long all the work took is the
            # performance every workload has.
            ylabel, pareto_y = "run time over reference work (all threads)", stretch
        elif load in ("video", "ui"):
            n = int(max(med0(vals(c, load, lambda v, j: v[0])) for c in cfgs))
            late = (lambda v, j: v[1])
            lines += [(f"frames late (of {n})", [cell(c, load, late) for c in cfgs], ""),
                      ("late frames against PELT", [vs_pelt(c, load, late) for c in cfgs], "")]
            for i, q in ((2, "p90"), (3, "p95"), (4, "p99")):
                lines.append((f"frame time {q} [ms]",
                              [cell(c, load, lambda v, j, i=i: v[i] / 1000, "{:.1f}")
                               for c in cfgs], ""))
            if any(len(v) > 6 for c in cfgs for v in res.get((c, load), {}).values()):
                for i, q in ((5, "p50"), (6, "p95")):
                    lines.append((f"render's wake-up latency {q} [ms]",
                                  [cell(c, load, lambda v, j, i=i: v[i] / 1000
                                        if len(v) > i else None, "{:.2f}")
                                   for c in cfgs], ""))
            ylabel, pareto_y = "frames late", late
        else:
            ref = {i: statistics.median(vals("performance", load, lambda v, j, i=i: v[i]))
                   for i in range(5) if vals("performance", load, lambda v, j, i=i: v[i])}
            for i, ms in enumerate(T4_BENCH_MS):
                rfc = f"WALT {RFC_BENCH['walt'][i]}%, PELT {RFC_BENCH['pelt'][i]}%"
                lines.append((f"work in {ms} ms phases, % of performance",
                              [cell(c, load, lambda v, j, i=i: 100 * v[i] / ref[i], "{:.1f}")
                               if i in ref else "n/a" for c in cfgs], rfc))
            per_work = (lambda v, j: j / (sum(v[:5]) / 1e6))
            lines += [("energy per second of reference work [J]",
                       [cell(c, load, per_work, "{:.3f}") for c in cfgs], ""),
                      ("energy per work against PELT",
                       [vs_pelt(c, load, per_work) for c in cfgs], "")]
            ref_all = sum(ref.values())
            ylabel = "work not done, % of the performance governor (all lengths)"
            pareto_y = (lambda v, j: round(100 - 100 * sum(v[:5]) / ref_all, 2) + 0.0) \
                if ref_all else None
            # By construction (bench is pinned): the performance governor
            # runs its CPU at the top OPP, powersave at the lowest.
            for i, ms in enumerate(T4_BENCH_MS):
                works = {c: statistics.median(vals(c, load, lambda v, j, i=i: v[i]))
                         for c in cfgs if vals(c, load, lambda v, j, i=i: v[i])}
                if "performance" in works and max(works.values()) > works["performance"] * 1.01:
                    problems.append(f"Table 4 ({board}): bench {ms} ms: performance "
                                    f"is not the fastest ({works})")
                if "powersave" in works and min(works.values()) < works["powersave"] * 0.99:
                    problems.append(f"Table 4 ({board}): bench {ms} ms: powersave "
                                    f"is not the slowest ({works})")
        for j, (measure, cells, rfc) in enumerate(lines):
            md.append(f"| {load if j == 0 else ''} | {measure} | " + " | ".join(cells)
                      + f" | {rfc} |")
        if pareto_y:
            perf_name = {"video": "frames late", "ui": "frames late"}.get(
                load, "run time / reference work" if load in rtapp_loads
                else "work not done, %")
            t4_summary.setdefault(board, {"cfgs": cfgs, "rows": []})["rows"].append(
                (load, perf_name,
                 {c: (vs_pelt(c, load, energy_j) or "ref",
                      cell(c, load, pareto_y, "{:.2f}" if load in rtapp_loads else "{:.0f}")
                      + (" *" if c != "pelt" and apart(vals(c, load, pareto_y),
                                                       vals("pelt", load, pareto_y)) else ""))
                  for c in cfgs}))
            for c in cfgs:
                xs, ys = vals(c, load, energy_j), vals(c, load, pareto_y)
                if xs and ys:
                    t4_points.setdefault(load, ([], ylabel))[0].append(
                        (board, T4_LABELS.get(c, c), xs, ys))
            # Pareto-better than PELT: lower energy, the ranges apart, at a
            # median performance measure no worse; or a better measure, the
            # ranges apart, at a median energy no higher. The measure of
            # rt-app's loads is their missed activations (a deadline, as
            # the frames'); a run time of all threads longer than PELT's,
            # the ranges apart, is said beside.
            measure = missed if load in rtapp_loads and n else pareto_y
            better = []
            for c in cfgs:
                ce, pe = vals(c, load, energy_j), vals("pelt", load, energy_j)
                cy, py = vals(c, load, measure), vals("pelt", load, measure)
                if c == "pelt" or not ce or not pe or not cy or not py:
                    continue
                if (max(ce) < min(pe) and statistics.median(cy) <= statistics.median(py)) or \
                   (max(cy) < min(py) and statistics.median(ce) <= statistics.median(pe)):
                    note = ""
                    if load in rtapp_loads:
                        cs, ps = vals(c, load, stretch), vals("pelt", load, stretch)
                        if cs and ps and min(cs) > max(ps):
                            note = (" (all threads' run time "
                                    f"{pct(statistics.median(cs), statistics.median(ps))})")
                    better.append(T4_LABELS.get(c, c) + note)
            pareto_better.append(f"{load}: {', '.join(better) if better else 'none'}")
        for c in cfgs:
            r, jl = res.get((c, load), {}), joules.get((c, load), {})
            for k in sorted(r):
                data.append([board, c, load, k, *r[k],
                             f"{jl[k]:.4f}" if k in jl else ""])
            # By construction: a configuration ran every load as often (its
            # boots may be fewer than another's: TABLE4_BOOTS), and every
            # run left its trace.
            want = max(len(res.get((c, ld), {})) for ld in loads)
            if len(r) != want:
                problems.append(f"Table 4 ({board}): {len(r)} runs of {load} under {c}, "
                                f"not {want}")
            if set(r) - set(jl):
                problems.append(f"Table 4 ({board}): no trace for runs "
                                f"{sorted(set(r) - set(jl))} of {load} under {c}")
    md += ["", "Pareto-better than PELT (lower energy with the ranges apart at a median "
           "performance measure no worse, or a better measure with the ranges apart at a "
           "median energy no higher; the measure is the frames late, the work not done, "
           "and for rt-app's loads the missed activations): "
           + "; ".join(pareto_better) + "."]
    write_csv(f"table4-{board}.csv", ["board", "config", "load", "boot.run", "value1",
                                       "value2", "value3", "value4", "value5",
                                       "energy_J"], data)
    md += ["", f"Virtual {board}: QEMU arm64 virt, 8 vCPUs, -icount, the CPUs, OPPs "
           "and power coefficients of the kernel's "
           f"{'hi3660' if board == 'hikey960' else 'hi6220'} device tree. Work is "
           "emulated: it takes 1024/capacity x f_max/f as long "
           "(scripts/guest/emuwork.h); energy is modelled: the Energy Model's "
           "power of each busy CPU at its OPP, all tasks (busy energy), and with "
           f"cluster power: while a CPU of a cluster runs, {CLUSTER_SHARE} of one "
           "CPU's EM power at the cluster's OPP (LISA's HiKey energy model: cluster "
           "112 against a CPU's 670 at 1200 MHz), nothing in cluster sleep. "
           "video: 10 s at 60 Hz through a queue of 3 buffers: a decoder "
           "working ahead (an I-frame of 2-4 ms of work on the reference CPU "
           "every 8 frames, P-frames of 0.5-1.5 ms), a render thread (0.5-1.5 ms) "
           "and the display latching a rendered frame at each vsync; a vsync "
           "with none ready is a late (janky) frame, frame time from the start "
           "of its decode to the end of its render; beside it a SCHED_FIFO audio "
           "thread on CPU 0 (0.3 ms every 10 ms; RT uclamp.min default 0, a "
           "battery-powered setting). ui: 51 bursts of 10 frames after 250 ms "
           "idle, the first discarded; a UI thread (1.5-2.5 ms of work, one "
           "frame in 6 heavy: 3-5 ms) hands each frame to a render thread "
           "(1-2 ms, heavy 2-3 ms) once it finished the previous one and starts "
           "the next at the first vsync after, as Android's Choreographer; "
           "frame time from its vsync to the end of its render, late above "
           "16.67 ms. Per-frame work is drawn from a seeded generator, the same "
           "in every run. The render thread's wake-up latency: from the frame's "
           "write to the pipe to the return of the render's read. "
           "bench: cpufreq-bench pinned to "
           "the last CPU, 5 rounds of each load length, sleeps as long; work as a "
           "% of the performance governor's. "
           + (", ".join(rtapp_loads) + ": rt-app's own workloads (its doc/examples, "
              "Android use cases), unchanged but for their duration, run by rt-app 1.0 "
              "whose run events do the emulated work (a run of X us is X us on the "
              "reference CPU, the biggest at its top OPP, not on the JSON's "
              "calibration CPU); an activation of a periodic "
              "thread (one with a timer) missed its period when its slack is negative. "
              if rtapp_loads else "")
           + "Plots: " + ", ".join(f"table4-{ld}.png" for ld in loads) + ".", ""]
for load, (pts, ylabel) in t4_points.items():
    plot_pareto(load, pts, ylabel, os.path.join(results, f"table4-{load}.png"))
if not t4_boards and os.path.exists(os.path.join(results, "raw-energy.csv")):
    problems.append("Table 4: no data (run scripts/run.sh energy)")

# rt-app's calibration (soc checks): a run event of 20 ms takes
# 20 ms x 1024/capacity x f_max/f at every OPP, within 2%.
for board in ("hikey960", "hikey"):
    cal = soc_rows(board, "RTAPP")
    if os.path.exists(os.path.join(results, "raw-soc.csv")) and not cal:
        problems.append(f"rt-app calibration ({board}): no data")
    for p, khz, want, got in cal:
        if abs(int(got) - int(want)) > 0.02 * int(want):
            problems.append(f"rt-app calibration ({board}): CPU {p} at {khz} kHz took "
                            f"{got} us, not {want}")

with open(os.path.join(results, "tables.md"), "w") as f:
    f.write("\n".join(md) + "\n")
print("\n".join(md))


def readme_summary():
    """Table 4 in short, for the README: per load and configuration the
    energy against PELT and the load's performance measure, medians."""
    out = []
    for board, t in t4_summary.items():
        cfgs = t["cfgs"]
        out += [f"**Table 4 on the virtual {'HiKey960' if board == 'hikey960' else 'HiKey'}** "
                "(work emulated, energy modelled from the EM, busy energy; medians, "
                "* where the ranges of all runs and PELT's are apart; every figure "
                "with its range in `results/tables.md`): energy against PELT / the "
                "load's performance measure (lower is better), one row per "
                "configuration", "",
                "| configuration | " + " | ".join(
                    f"{load}: energy / {name}" for load, name, _ in t["rows"]) + " |",
                "|---|" + "---:|" * len(t["rows"])]
        for c in cfgs:
            out.append(f"| {T4_LABELS.get(c, c)} | "
                       + " | ".join(f"{cells[c][0]} / {cells[c][1]}"
                                    for _, _, cells in t["rows"]) + " |")
        out.append("")
    return "\n".join(out)


# scripts/results.py RESULTS KERNEL --publish REPO: the tables and plots
# into REPO/results, Table 4's summary into results/readme-summary.md and
# the README between its markers. The README's figures then come from this
# run, not a hand; scripts/check-figures.py checks that they do.
if len(sys.argv) > 4 and sys.argv[3] == "--publish":
    repo = sys.argv[4]
    for f in os.listdir(results):
        if f == "tables.md" or f.endswith(".png"):
            shutil.copy(os.path.join(results, f), os.path.join(repo, "results", f))
    with open(os.path.join(repo, "results", "readme-summary.md"), "w") as f:
        f.write(readme_summary() + "\n")
    readme = os.path.join(repo, "README.md")
    text = open(readme).read()
    begin, end = "<!-- table4 summary: scripts/results.py --publish -->", "<!-- end of table4 summary -->"
    if begin in text and end in text:
        text = (text[:text.index(begin) + len(begin)] + "\n" + readme_summary()
                + text[text.index(end):])
        open(readme, "w").write(text)
    else:
        problems.append("README.md has no Table 4 summary markers")
for p in problems:
    print("RESULT PROBLEM:", p)
print(f"results written to {results}")
sys.exit(1 if problems else 0)
