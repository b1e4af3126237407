# SPDX-License-Identifier: GPL-2.0
"""The plots: each writes its plot-*.dat into RESULTS_DIR and has gnuplot
draw the .png from it (table2.png, table1-hikey.png, table5-hikey960.png,
table4-LOAD.png)."""
import os
import statistics
import subprocess

from report.common import BIG, BOOSTS


def table2(results, t2p):
    """Table 2's step response, from parse.table2_plot(): utilization and
    frequency of the SCHED_OTHER steps of PELT, PELT 8 ms and WALT."""
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


def table1_hikey(results, series):
    """Table 1 on the virtual HiKey, from parse.table1_hikey()'s series: one
    panel per boost, util, boosted util and frequency over time."""
    png = os.path.join(results, "table1-hikey.png")
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


def table5(results, timelines, caps):
    """Table 5 on the virtual HiKey960, from parse.table5_timelines(): one
    panel per run, the task's CPU over time (@caps: {cpu: BIG or 0})."""
    panels = [(f"{scen} ({'step to 100% at 0' if scen == 'heavy' else 'wakes at 0'}), "
               f"{sig.upper()}", segs) for scen, sig, segs in timelines]
    if not panels:
        return
    png = os.path.join(results, "table5-hikey960.png")
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


def table4(results, load, points, ylabel):
    """Table 4's @load, the points of tables_soc.table4(): energy against
    @ylabel, one point per (board, configuration), the median with the
    range of both as error bars."""
    png = os.path.join(results, f"table4-{load}.png")
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
            f"set title 'Table 4, {load}: median and range per configuration, "
            "lower left is better (virtual SoC: work emulated, energy modelled, "
            "busy only)'",
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
