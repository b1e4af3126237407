# SPDX-License-Identifier: GPL-2.0
"""The virtual SoC tables as markdown and table*.csv: Table 1 on the
virtual HiKey, Table 5 on the virtual HiKey960, Table 4 on both, Table 3
on the virtual HiKey960, and Table 4 in short for the README. Each table function takes parse's data,
writes its CSV into RESULTS_DIR and returns its markdown lines."""
import statistics

from report.common import (BIG, CLUSTER_SHARE, SEED_T1_FREQ, T4_BENCH_MS, T4_LABELS,
                           apart, med0, pct, pct2, spread, write_csv)
from report.tables_x86 import T3_CSV_HEAD, T3_HEAD, overhead_rows

# The seed's Table 1 PerfIndex, for the side-by-side columns.
SEED_T1_PERF = {0: (0.53, 0.12), 15: (0.61, 0.07), 30: (0.68, 0.07),
                60: (0.71, 0.05), -100: (-98.84, 120.00)}  # PerfIndex avg, std
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


def table1_hikey(results, h):
    """Table 1 on the virtual HiKey: PerfIndex, frequency and energy per
    boost, from parse.table1_hikey()."""
    t1h, lowest, inefficient = h.t1h, h.lowest, h.inefficient
    md = ["## Table 1 on the virtual HiKey: PerfIndex, frequency and energy",
          "",
          "| boost | PerfIndex avg | std | actual boost | freq avg [MHz] "
          f"| actual freq boost | time at {lowest} MHz | energy [mJ] | vs boost 0 "
          "| seed PerfIndex avg (std) | seed freq [MHz] |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    base = t1h.get(0)
    data = []
    for b, (perf, std, mhz, low, mj, n) in t1h.items():
        sp, ss = SEED_T1_PERF[b]
        md.append(f"| {b} | {perf:.2f} | {std:.2f} | {pct(perf, base[0]) if base else 'n/a'} "
                  f"| {mhz:.0f} | {pct(mhz, base[2]) if base else 'n/a'} | {low:.0f}% "
                  f"| {mj:.1f} | {pct(mj, base[4]) if base else 'n/a'} "
                  f"| {sp} ({ss}) | {SEED_T1_FREQ[b]} |")
        data.append([b, perf, std, mhz, low, mj, n, sp, SEED_T1_FREQ[b]])
    write_csv(results, "table1-hikey.csv", ["boost", "perf_index_avg", "perf_index_std",
                                            "freq_avg_mhz", "pct_time_lowest_opp",
                                            "energy_mj", "activations",
                                            "seed_perf_index", "seed_freq_mhz"], data)
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
    return md


def table5(results, t5):
    """Table 5 on the virtual HiKey960: placement by PELT and WALT, from
    parse.table5()."""
    res, energy5, from_idle = t5.res, t5.energy5, t5.from_idle

    def col(key, i, fmt="{:.0f}", where=None):
        vals = [v[i] for v in res.get(key, []) if where is None or where(v)]
        return spread(vals, fmt)

    def count(key, pred):
        vals = res.get(key, [])
        return f"{sum(1 for v in vals if pred(v))}/{len(vals)}"

    md = ["## Table 5 on the virtual HiKey960: placement by PELT and WALT",
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
            ("place", 25, "60",
             "SchedTune RFC: a boosted task's placement is the boost's next use"),
            ("place10", 10, "0", ""),
            ("place10", 10, "80",
             "boosted past the fitness headroom (100 + 739 > 819): a hint, like uclamp.min")):
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
    write_csv(results, "table5-hikey960.csv", ["signal", "scenario", "setting", "run",
                                               "value1", "value2", "value3", "value4",
                                               "value5"], data)
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
    return md


def table4(results, t4):
    """Table 4 on one board: energy and performance per configuration,
    every run of every boot, from parse.Table4. Returns its markdown lines,
    its README summary ({"cfgs": [...], "rows": [(load, measure name,
    {config: (energy against PELT, measure)})]}, None without a row) and
    its plots' points ({load: ([(board, label, [J], [measure])], the
    measure's name)})."""
    board, res, joules, joules_cl = t4.board, t4.res, t4.joules, t4.joules_cl
    cfgs, loads, rtapp_loads, vals = t4.cfgs, t4.loads, t4.rtapp_loads, t4.vals
    summary, points = None, {}

    def cell(cfg, load, f, fmt="{:.0f}", joules=None):
        return spread(vals(cfg, load, f, joules), fmt)

    def vs_pelt(cfg, load, f, joules=None):
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
    md = [f"## Table 4 on the virtual {'HiKey960' if board == 'hikey960' else 'HiKey'}: "
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
        for j, (measure, cells, rfc) in enumerate(lines):
            md.append(f"| {load if j == 0 else ''} | {measure} | " + " | ".join(cells)
                      + f" | {rfc} |")
        if pareto_y:
            perf_name = {"video": "frames late", "ui": "frames late"}.get(
                load, "run time / reference work" if load in rtapp_loads
                else "work not done, %")
            if summary is None:
                summary = {"cfgs": cfgs, "rows": []}
            summary["rows"].append(
                (load, perf_name,
                 {c: (vs_pelt(c, load, energy_j) or "ref",
                      cell(c, load, pareto_y, "{:.2f}" if load in rtapp_loads else "{:.0f}")
                      + (" *" if c != "pelt" and apart(vals(c, load, pareto_y),
                                                       vals("pelt", load, pareto_y)) else ""))
                  for c in cfgs}))
            for c in cfgs:
                xs, ys = vals(c, load, energy_j), vals(c, load, pareto_y)
                if xs and ys:
                    points.setdefault(load, ([], ylabel))[0].append(
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
    md += ["", "Pareto-better than PELT (lower energy with the ranges apart at a median "
           "performance measure no worse, or a better measure with the ranges apart at a "
           "median energy no higher; the measure is the frames late, the work not done, "
           "and for rt-app's loads the missed activations): "
           + "; ".join(pareto_better) + "."]
    write_csv(results, f"table4-{board}.csv", ["board", "config", "load", "boot.run",
                                                "value1", "value2", "value3", "value4",
                                                "value5", "energy_J"], data)
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
    return md, summary, points


def readme_summary(t4_summary):
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


# Table 3 on the virtual HiKey960 (scripts/guest/bench.sh, run.sh
# bench-soc): the benchmarks an arm64 guest runs, and EAS's wake-up.
T3_SOC_BENCHES = ("pingpong", "periodic", "migrate", "eas-wakeup")
T3_SOC_CONFIGS = ("baseline", "pelt", "walt", "walt-pl", "boost", "walt-boost", "uclamp")
T3_SOC_WHAT = {"pingpong": "ping-pong on little CPU 1, ns per round trip",
               "periodic": "1 ms wake from idle on little CPU 1, ns per "
                           "period (elapsed: beyond 1 ms)",
               "migrate": "migrating wake-ups between little CPUs 0 and 1, "
                          "ns per round trip",
               "eas-wakeup": "EAS wake-ups: 4 tasks of 0.5 ms every 8 ms, "
                             "ns per period (elapsed: wake-up latency; CPU: "
                             "beyond the 0.5 ms run)"}


def table3_soc(results, vals):
    """Table 3 on the virtual HiKey960, from parse.table3(results,
    "raw-bench-soc.csv")."""
    rows, data, _ = overhead_rows(vals, T3_SOC_BENCHES, T3_SOC_WHAT, T3_SOC_CONFIGS)
    md = ["## Table 3 on the virtual HiKey960: overhead on arm64 with EAS, "
          "QEMU -icount (guest time counts instructions)", ""] + T3_HEAD + rows
    walt_vs_pelt = []
    for bench in T3_SOC_BENCHES:
        pelt, walt = vals.get((bench, "pelt")), vals.get((bench, "walt"))
        if pelt and walt:
            for i, name in ((1, "CPU time"), (0, "elapsed")):
                walt_vs_pelt.append(
                    f"{T3_SOC_WHAT[bench].split(',')[0]}, {name}: "
                    f"{pct2(statistics.median(walt[i]), statistics.median(pelt[i]))}")
    write_csv(results, "table3-hikey960.csv", T3_CSV_HEAD, data)
    md += ["", "The virtual HiKey960 (arm64, 8 vCPUs: CPUs 0-3 little, 4-7 big, "
           "EAS on; scripts/run.sh bench-soc), configurations as in Table 3, "
           "the baseline the arm64 baseline kernel. Its initramfs has no "
           "hackbench and arm64 has no cpuid device: ping-pong, the 1 ms wake "
           "from idle and the migrating wake-ups as in Table 3, on little "
           "CPUs; EAS wake-ups: four tasks, not pinned, each woken by its "
           "timer every 8 ms to run 0.5 ms, 500 times, so that every wake-up "
           "places the task with find_energy_efficient_cpu(), which reads the "
           "placement signal's cpu_util_without() for each candidate CPU; "
           "elapsed is the mean latency from the timer's expiry to the task "
           "running, CPU the task's CPU time per period beyond its run. The "
           "migrating wake-ups' waker polls (sched_yield() until the sleeper "
           "sleeps): where a configuration's context switches per run "
           "differ from the baseline's, so does the number of polls, and "
           "that row compares the polling, not the migration.", "",
           "WALT selected against PELT selected: " + "; ".join(walt_vs_pelt)
           + ".", ""]
    return md
