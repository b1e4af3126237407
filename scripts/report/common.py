# SPDX-License-Identifier: GPL-2.0
"""What more than one part of the report shares: the constants of the
boards and loads, the percentage and median (min-max) formats, and the
writer of the table*.csv files."""
import csv
import os
import statistics

# The seed's Table 1 frequencies, for the side-by-side columns.
SEED_T1_FREQ = {0: 606, 15: 658, 30: 739, 60: 852, -100: 363}  # MHz, HiKey
# Table 1's boosts, on x86 and on the virtual HiKey.
BOOSTS = (0, 15, 30, 60, -100)
# Table 3's benchmarks and configurations, in the table's order; those of
# T3_FULL_ONLY run only in run.sh bench-full (run.sh's T3_DEFAULT are the
# others).
T3_BENCHES = ("hackbench-1cpu", "hackbench", "messaging", "pingpong", "periodic",
              "ipi", "migrate")
T3_CONFIGS = ("baseline", "pelt", "pelt8", "walt", "walt-pl", "walt-boost", "boost",
              "boost90", "uclamp")
T3_FULL_ONLY = ("messaging", "pelt8", "walt-pl", "walt-boost", "boost90")
# Table 5 on the virtual HiKey960: a big CPU's capacity.
BIG = 1024
# Table 4's configurations, in the order of the data (run.sh's
# T4_CONFIGS); a configuration without a label here is named by its t4=
# name.
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
# Table 4's cpufreq-bench: its load lengths.
T4_BENCH_MS = (50, 100, 150, 200, 250)
# A cluster's own power while any of its CPUs runs (L2, interconnect), as a
# share of one CPU's EM power at the cluster's OPP: LISA's HiKey energy
# model (lisa/platforms/hikey_energy.py, measured on the board) gives the
# cluster 112 against a CPU's 670 at 1200 MHz (0.17; 0.20-0.23 at lower
# OPPs), and 0 in cluster sleep. The HiKey960 has no such published
# model; the same share is applied to it.
CLUSTER_SHARE = 0.17


def pct(new, ref):
    return f"{(new - ref) / ref * 100:+.1f}%" if ref else "n/a"


def pct2(new, ref):
    return f"{(new - ref) / ref * 100:+.2f}%" if ref else "n/a"


def spread(vals, fmt="{:.0f}"):
    """median (min-max) of a list of numbers, or n/a."""
    if not vals:
        return "n/a"
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(vals))}-{fmt.format(max(vals))})"


def med0(vals):
    """The median, 0 without values."""
    return statistics.median(vals) if vals else 0


def apart(a, b):
    """The ranges of two samples of at least two runs each do not overlap:
    a difference to call. One run has no range: nothing is called."""
    return len(a) >= 2 and len(b) >= 2 and (max(a) < min(b) or max(b) < min(a))


def write_csv(results, name, header, data):
    with open(os.path.join(results, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(data)
