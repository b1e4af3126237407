#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guests' raw CSV rows (scripts/guest/ramp-step.sh, bench.sh,
soc.sh, place.sh, energy.sh) into Tables 1-3, Table 1 on the virtual
HiKey, Table 4 on the virtual HiKey960 and HiKey and Table 5 on the
virtual HiKey960: results/table{1,1-hikey,2,2b,3,4-hikey960,4-hikey,
5-hikey960}.csv, the plots table1-hikey.png, table2.png, table4-LOAD.png
(one per load with a performance measure) and table5-hikey960.png, and
results/tables.md, printed too.
Exits non-zero when the data is missing or does not show what the seeds
claim (boost raises the average frequency monotonically; -100 brings the
frequency near the lowest OPP schedutil may pick; WALT reaches 95% and
falls to 10% within two 20 ms windows) or what holds by construction
(Table 4's pinned cpufreq-bench: performance does the most work,
powersave the least).

    scripts/results.py RESULTS_DIR KERNEL_DESCRIPTION [--publish REPO]

This file runs the tables in order and publishes them; the work is in
scripts/report/: parse.py reads the rows and traces, tables_x86.py and
tables_soc.py write the tables, plots.py the plots, and checks.py says
what the data does not show.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import checks, parse, plots, tables_soc, tables_x86  # noqa: E402


def publish(results, repo, t4_summary):
    """scripts/results.py RESULTS KERNEL --publish REPO: the tables, the
    plots and the run's timings.md into REPO/results, Table 4's summary into
    results/readme-summary.md and the README between its markers. The
    README's figures then come from this run, not a hand;
    scripts/check-figures.py checks that they do. Returns the problems."""
    summary = tables_soc.readme_summary(t4_summary)
    for f in os.listdir(results):
        if f in ("tables.md", "timings.md") or f.endswith(".png"):
            shutil.copy(os.path.join(results, f), os.path.join(repo, "results", f))
    with open(os.path.join(repo, "results", "readme-summary.md"), "w") as f:
        f.write(summary + "\n")
    readme = os.path.join(repo, "README.md")
    text = open(readme).read()
    begin = "<!-- table4 summary: scripts/results.py --publish -->"
    end = "<!-- end of table4 summary -->"
    if begin in text and end in text:
        text = (text[:text.index(begin) + len(begin)] + "\n" + summary
                + text[text.index(end):])
        open(readme, "w").write(text)
        return []
    return ["README.md has no Table 4 summary markers"]


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "--publish"):
        sys.exit("usage: scripts/results.py RESULTS_DIR KERNEL_DESCRIPTION "
                 "[--publish REPO]")
    results, kernel = args[0], args[1]
    md = [f"Measured on {kernel}, x86_64 QEMU TCG guests, 2 vCPUs, "
          "virtual OPP cpufreq driver (208/432/729/960/1200 MHz), schedutil.", ""]
    problems = []

    t1 = parse.table1(results)
    if t1:
        md += tables_x86.table1(results, t1)
        problems += checks.table1(t1)
    else:
        problems.append("Table 1: no data (run scripts/run.sh tables)")

    t2 = parse.table2(results)
    if t2:
        md += tables_x86.table2(results, t2)
        problems += checks.table2(t2)
    else:
        problems.append("Table 2: no data (run scripts/run.sh tables)")

    t2p = parse.table2_plot(results)
    if t2p:
        plots.table2(results, t2p)
        md += tables_x86.table2_plot()

    t2s = parse.table2b(results)
    if t2s:
        md += tables_x86.table2b(results, t2s)
    else:
        problems.append("Table 2b: no data (run scripts/run.sh tables)")

    t3 = parse.table3(results)
    if t3 is not None:
        md += tables_x86.table3(results, t3)
        problems += checks.table3(t3)
    else:
        problems.append("Table 3: no data (run scripts/run.sh bench)")

    # Not in the main command's default: a table only when it ran.
    t3s = parse.table3(results, "raw-bench-soc.csv")
    if t3s is not None:
        md += tables_soc.table3_soc(results, t3s)

    t1h = parse.table1_hikey(results)
    if t1h:
        md += tables_soc.table1_hikey(results, t1h)
        problems += checks.table1_hikey(t1h)
        plots.table1_hikey(results, t1h.series)
    elif parse.have(results, "raw-soc.csv"):
        problems.append("Table 1 (HiKey): no data (run scripts/run.sh soc)")

    t5 = parse.table5(results)
    if t5:
        md += tables_soc.table5(results, t5)
        problems += checks.table5(t5)
        plots.table5(results, parse.table5_timelines(t5), t5.caps)
    elif parse.have(results, "raw-place.csv"):
        problems.append("Table 5 (HiKey960): no data (run scripts/run.sh place)")

    # Table 4, board by board; a load's plot holds the points of both.
    t4_boards = parse.table4_boards(results)
    t4_points, t4_summary = {}, {}
    for board in t4_boards:
        t4 = parse.Table4(results, board)
        lines, summary, points = tables_soc.table4(results, t4)
        md += lines
        problems += checks.table4(t4)
        if summary:
            t4_summary[board] = summary
        for load, (pts, ylabel) in points.items():
            t4_points.setdefault(load, ([], ylabel))[0].extend(pts)
    for load, (pts, ylabel) in t4_points.items():
        plots.table4(results, load, pts, ylabel)
    if not t4_boards and parse.have(results, "raw-energy.csv"):
        problems.append("Table 4: no data (run scripts/run.sh energy)")

    for board in ("hikey960", "hikey"):
        problems += checks.rtapp_calibration(board, parse.soc_rows(results, board, "RTAPP"),
                                             parse.have(results, "raw-soc.csv"))

    with open(os.path.join(results, "tables.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))

    if len(sys.argv) > 4 and sys.argv[3] == "--publish":
        problems += publish(results, sys.argv[4], t4_summary)
    for p in problems:
        print("RESULT PROBLEM:", p)
    print(f"results written to {results}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
