# SPDX-License-Identifier: GPL-2.0
"""Read what the guests left in RESULTS_DIR into plain Python data: the
raw-*.csv rows (scripts/guest/ramp-step.sh, bench.sh, soc.sh, place.sh,
energy.sh), and the traces in their logs (soc-*.log, soc-*.log.xz), each
run's trace turned
into its figures by scripts/energy.py (energy, average frequency, time at
an OPP, the task's CPUs)."""
import csv
import lzma
import os
import statistics
from types import SimpleNamespace

import energy
from report.common import BIG, BOOSTS, CLUSTER_SHARE, T4_LABELS


def have(results, name):
    """RESULTS_DIR holds the file @name."""
    return os.path.exists(os.path.join(results, name))


def rows(results, name, tag):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [r[1:] for r in csv.reader(f) if r and r[0] == tag]


def soc_rows(results, board, tag):
    return [r[1:] for r in rows(results, "raw-soc.csv", board) if r and r[0] == tag]


def place_rows(results, tag):
    return [r[1:] for r in rows(results, "raw-place.csv", "hikey960") if r and r[0] == tag]


def energy_rows(results, board, tag):
    return [r[1:] for r in rows(results, "raw-energy.csv", board) if r and r[0] == tag]


def energy_model(em_rows, policy_rows):
    """The EM and POLICY rows of a board: ({policy: {kHz: uW}},
    {policy: [cpu...]}, {kHz the EM marks inefficient})."""
    em, policies, inefficient = {}, {}, set()
    for p, khz, uw, ineff in em_rows:
        em.setdefault(int(p), {})[int(khz)] = int(uw)
        if ineff == "1":
            inefficient.add(int(khz))
    for p, cpus in policy_rows:
        policies[int(p)] = [int(c) for c in cpus.split(":")]
    return em, policies, inefficient


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


def read_log(path):
    """A guest log: the file, or its .xz (Table 4 keeps them compressed)."""
    for p in (path, path + ".xz"):
        if os.path.exists(p):
            return p
    return None


def table1(results):
    """Table 1 (SchedTune): {boost: (util avg, boosted util avg, MHz avg,
    % of the time at the lowest OPP, samples)}, empty without data."""
    t1 = [r for r in rows(results, "raw-tables.csv", "T1") if r[0] != "error"]
    return {int(r[0]): (float(r[1]), float(r[2]), float(r[3]), float(r[4]), int(r[5]))
            for r in t1}


def table2(results):
    """Table 2 (step response): its T2 rows, as written."""
    return [r for r in rows(results, "raw-tables.csv", "T2") if r[0] != "error"]


def table2_plot(results):
    """Table 2's plot: the T2P rows, signal then the plot's columns."""
    return rows(results, "raw-tables.csv", "T2P")


def table2b(results):
    """Table 2b (steady load): its T2S rows, as written."""
    return [r for r in rows(results, "raw-tables.csv", "T2S") if r[0] != "error"]


def table3(results, name="raw-bench.csv"):
    """Table 3 (overhead; raw-bench-soc.csv: on the virtual HiKey960):
    {(benchmark, configuration): ([elapsed], [CPU time], [context
    switches])} over the runs, None without T3 rows."""
    t3 = rows(results, name, "T3")
    if not t3:
        return None
    vals = {}
    for bench, cfg, _, elapsed, cpu, *switches in t3:
        if elapsed and cpu:
            v = vals.setdefault((bench, cfg), ([], [], []))
            v[0].append(float(elapsed))
            v[1].append(float(cpu))
            if switches and switches[0]:
                v[2].append(float(switches[0]))
    return vals


def table1_hikey(results):
    """Table 1 on the virtual HiKey (scripts/guest/soc.sh): PerfIndex from
    socload, frequency and energy from the trace of each ramp. None
    without data; else .t1h {boost: (PerfIndex avg, std, MHz avg, % of
    the time at .lowest, mJ, activations)}, .series {boost: [(s, util,
    boosted util, MHz)]} for the plot, .lowest (MHz) and .inefficient
    ({kHz})."""
    soc = {r[0]: r[1:] for r in soc_rows(results, "hikey", "T1H")}
    log1 = os.path.join(results, "soc-hikey-table1.log")
    if not soc or not os.path.exists(log1):
        return None
    em, policies, inefficient = energy_model(soc_rows(results, "hikey", "EM"),
                                             soc_rows(results, "hikey", "POLICY"))
    segs = trace_segments(log1)
    # schedutil skips OPPs the EM marks inefficient (CPUFREQ_RELATION_E):
    # the Hi6220's 208 MHz has 432 MHz's voltage, so the same energy per
    # cycle, and the lowest OPP it picks is 432 MHz.
    lowest = min(set(em[0]) - inefficient) // 1000
    t1h, series = {}, {}
    for b in BOOSTS:
        if str(b) not in soc or b not in segs:
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
    return SimpleNamespace(t1h=t1h, series=series, lowest=lowest, inefficient=inefficient)


def table5(results):
    """Table 5 on the virtual HiKey960 (scripts/guest/place.sh):
    placement with PELT and WALT selected, SchedTune and prefer_idle. None
    without data; else .res {(signal, scenario, setting): [[value...] per
    run]}, .energy5 {(signal, scenario, setting): [mJ per run]},
    .from_idle {(signal, prefer_idle): [% per run]}, .caps {cpu: BIG or
    0} and .segs, the traces by (signal, scenario, setting, run)."""
    t5 = place_rows(results, "T5")
    log5 = os.path.join(results, "soc-hikey960-table5.log")
    if not t5 or not os.path.exists(log5):
        return None
    em, policies, _ = energy_model(place_rows(results, "EM"), place_rows(results, "POLICY"))
    caps = {}
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
    return SimpleNamespace(res=res, energy5=energy5, from_idle=from_idle, caps=caps, segs=segs)


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


def table5_timelines(t5):
    """[(scenario, signal, task_timeline)] of the first heavy and sleeper
    runs, from the step or the wake-up."""
    out = []
    for scen, mark in (("heavy", "step"), ("sleeper", "wake")):
        for sig in ("pelt", "walt"):
            key = (sig, scen, "-", "1")
            if key in t5.segs:
                ev = energy.parse_ftrace(t5.segs[key][0])
                out.append((scen, sig, task_timeline(ev, energy.mark_time(ev, mark))))
    return out


def table4_boards(results):
    """The boards with Table 4 rows, the HiKey960 first."""
    return [b for b in ("hikey960", "hikey") if energy_rows(results, b, "T4")]


class Table4:
    """Table 4 on one virtual board (scripts/guest/energy.sh):
    every run of every boot (scripts/run.sh energy: one boot per
    configuration, one run; energy-full: three boots of three runs), its
    values and energy.

    .res      {(config, load): {run: [values...]}}, run "BOOT.RUN"
    .joules   {(config, load): {run: J}}: busy energy
    .joules_cl  the same with the clusters' power
    .cfgs     the configurations, in T4_LABELS' order, then any other
    .loads    the loads, in the order of the data
    .rtapp_loads  those of rt-app (T4R rows)
    .failed   [(config, load, run)] whose row holds no numbers
    """

    def __init__(self, results, board):
        em, policies, _ = energy_model(energy_rows(results, board, "EM"),
                                       energy_rows(results, board, "POLICY"))
        res, cfgs, loads, rtapp_loads, failed = {}, [], [], [], []
        for tag in ("T4", "T4R"):
            for cfg, load, run, *vals in energy_rows(results, board, tag):
                try:
                    res.setdefault((cfg, load), {})[run] = [float(v) for v in vals]
                except ValueError:
                    failed.append((cfg, load, run))
                if cfg not in cfgs:
                    cfgs.append(cfg)
                if load not in loads:
                    loads.append(load)
                if tag == "T4R" and load not in rtapp_loads:
                    rtapp_loads.append(load)
        # Columns in T4_LABELS' order, then any other configuration.
        cfgs.sort(key=lambda c: list(T4_LABELS).index(c) if c in T4_LABELS
                  else len(T4_LABELS))
        joules, joules_cl = {}, {}
        for cfg in cfgs:
            boot = 1
            while True:
                log4 = read_log(os.path.join(results,
                                             f"soc-{board}-table4-{cfg}-{boot}.log"))
                if not log4:
                    break
                segs = trace_segments(log4, "== trace4 ", lambda w: tuple(w[2:5]))
                for (c, load, run), (lines, f0) in segs.items():
                    ev = energy.parse_ftrace(lines)
                    try:
                        t0 = energy.mark_time(ev, "t4_start")
                        t1 = energy.mark_time(ev, "t4_end")
                    except ValueError:
                        # A failed run: its row says so.
                        continue
                    uj = sum(energy.busy_energy(ev, em, policies, f0, t0, t1).values())
                    joules.setdefault((c, load), {})[f"{boot}.{run}"] = uj / 1e6
                    uj += sum(energy.cluster_energy(ev, em, policies, f0, t0, t1,
                                                    CLUSTER_SHARE).values())
                    joules_cl.setdefault((c, load), {})[f"{boot}.{run}"] = uj / 1e6
                boot += 1
        self.board = board
        self.res, self.joules, self.joules_cl = res, joules, joules_cl
        self.cfgs, self.loads, self.rtapp_loads, self.failed = cfgs, loads, rtapp_loads, failed

    def vals(self, cfg, load, f, joules=None):
        """f(values, J) over the runs of (cfg, load) with both; J busy
        energy unless @joules says otherwise."""
        if joules is None:
            joules = self.joules
        r, j = self.res.get((cfg, load), {}), joules.get((cfg, load), {})
        out = [f(r[k], j[k]) for k in sorted(r) if k in j]
        return [x for x in out if x is not None]
