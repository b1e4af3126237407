# SPDX-License-Identifier: GPL-2.0
"""What the parsed data must show: what holds by construction (a
configuration ran every load as often, bench pinned under performance
does the most work, -100 runs at the lowest OPP, rt-app's calibration)
and what the seeds claim (boost raises the average frequency
monotonically; WALT reaches 95% and falls to 10% within two windows).
Each function returns its problems, strings for results.py to print."""
import statistics

from report.common import BOOSTS, T3_BENCHES, T3_CONFIGS, T3_FULL_ONLY, T4_BENCH_MS

LOWEST_OPP = 208  # MHz, the virtual OPP driver's lowest
WALT_WINDOW_MS = 20


def table1(t1):
    """Table 1 (SchedTune) from parse.table1()."""
    out = [f"Table 1: no row for boost {b}" for b in BOOSTS if b not in t1]
    freqs = [t1[b][2] for b in (0, 15, 30, 60) if b in t1]
    if freqs != sorted(freqs) or len(set(freqs)) != len(freqs):
        out.append("Table 1: boosts 0/15/30/60 do not raise the "
                   f"average frequency monotonically: {freqs}")
    # The seed: "most of its time at one of the lowest OPPs" (363 MHz).
    if -100 in t1 and t1[-100][3] < 50:
        out.append(f"Table 1: boost -100 spends {t1[-100][3]:.0f}% of the "
                   f"time at the lowest OPP ({LOWEST_OPP} MHz), not most of it")
    return out


def table2(t2):
    """Table 2 (step response) from parse.table2()."""
    out = []
    for sig, t80, t95, t10, *_ in t2:
        if sig in ("walt", "walt-rt"):
            # Both within two windows of the change: by construction,
            # the first complete window after it holds only the new load.
            for what, t in (("rise to 95%", t95), ("fall to 10%", t10)):
                try:
                    if float(t) > 2 * WALT_WINDOW_MS:
                        out.append(f"Table 2: {sig}'s {what} took {t} ms, "
                                   f"more than two {WALT_WINDOW_MS} ms windows")
                except ValueError:
                    out.append(f"Table 2: {sig}'s {what} never happened")
    return out


def table3(vals):
    """Table 3 (overhead) from parse.table3(): every benchmark ran under
    every configuration (those only bench-full runs, once any of them
    ran)."""
    out = []
    ran = {name for key in vals if vals[key] for name in key}
    for bench in (b for b in T3_BENCHES if b not in T3_FULL_ONLY or b in ran):
        for cfg in (c for c in T3_CONFIGS if c not in T3_FULL_ONLY or c in ran):
            # pelt8 runs only where its clock runs at every switch.
            if not vals.get((bench, cfg)) and (cfg != "pelt8"
                                               or bench in ("pingpong", "periodic")):
                out.append(f"Table 3: no {bench} runs for {cfg}")
    return out


def table1_hikey(h):
    """Table 1 on the virtual HiKey from parse.table1_hikey()."""
    out = [f"Table 1 (HiKey): no run for boost {b}" for b in BOOSTS if b not in h.t1h]
    # By construction: -100 deflates CFS utilization to 0, so schedutil
    # asks for its lowest OPP (what PerfIndex then is, is measured).
    if -100 in h.t1h and h.t1h[-100][3] < 50:
        out.append(f"Table 1 (HiKey): boost -100 ran {h.t1h[-100][3]:.0f}% "
                   f"at {h.lowest} MHz")
    return out


def table5(t5):
    """Table 5 on the virtual HiKey960 from parse.table5(): three runs of
    every scenario and setting under each signal."""
    out = []
    for sig in ("pelt", "walt"):
        for scen, settings in (("heavy", ("-",)), ("sleeper", ("-",)),
                               ("place", ("0", "60")), ("place10", ("0", "80")),
                               ("wake4", ("0", "1"))):
            for st in settings:
                if len(t5.res.get((sig, scen, st), [])) != 3:
                    out.append(f"Table 5: {len(t5.res.get((sig, scen, st), []))} "
                               f"runs of {scen} {st} under {sig}, not 3")
    return out


def table4(t4):
    """Table 4 on one board from parse.Table4."""
    board, cfgs, loads = t4.board, t4.cfgs, t4.loads
    out = [f"Table 4 ({board}): {load} failed in run {run} under {cfg}"
           for cfg, load, run in t4.failed]
    for load in loads:
        if load not in t4.rtapp_loads and load not in ("video", "ui"):
            # By construction (bench is pinned): the performance governor
            # runs its CPU at the top OPP, powersave at the lowest.
            for i, ms in enumerate(T4_BENCH_MS):
                works = {c: statistics.median(t4.vals(c, load, lambda v, j, i=i: v[i]))
                         for c in cfgs if t4.vals(c, load, lambda v, j, i=i: v[i])}
                if "performance" in works and max(works.values()) > works["performance"] * 1.01:
                    out.append(f"Table 4 ({board}): bench {ms} ms: performance "
                               f"is not the fastest ({works})")
                if "powersave" in works and min(works.values()) < works["powersave"] * 0.99:
                    out.append(f"Table 4 ({board}): bench {ms} ms: powersave "
                               f"is not the slowest ({works})")
        for c in cfgs:
            r, jl = t4.res.get((c, load), {}), t4.joules.get((c, load), {})
            # By construction: a configuration ran every load as often (its
            # boots may be fewer than another's: TABLE4_BOOTS), and every
            # run left its trace.
            want = max(len(t4.res.get((c, ld), {})) for ld in loads)
            if len(r) != want:
                out.append(f"Table 4 ({board}): {len(r)} runs of {load} under {c}, "
                           f"not {want}")
            if set(r) - set(jl):
                out.append(f"Table 4 ({board}): no trace for runs "
                           f"{sorted(set(r) - set(jl))} of {load} under {c}")
    return out


def rtapp_calibration(board, cal, have_raw_soc):
    """rt-app's calibration (soc checks), the RTAPP rows of @board: a run
    event of 20 ms takes 20 ms x 1024/capacity x f_max/f at every OPP,
    within 2%."""
    out = []
    if have_raw_soc and not cal:
        out.append(f"rt-app calibration ({board}): no data")
    for p, khz, want, got in cal:
        if abs(int(got) - int(want)) > 0.02 * int(want):
            out.append(f"rt-app calibration ({board}): CPU {p} at {khz} kHz took "
                       f"{got} us, not {want}")
    return out
