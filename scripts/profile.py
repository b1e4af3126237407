#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function, from scripts/qemu-profile.c's dumps.

    profile.py EVENTS NAME=SYSTEM.MAP:DUMP_BEFORE:DUMP_AFTER ...

For each configuration NAME, the instructions each block executed between
its two dumps, attributed to the kernel function holding the block's start
(System.map; "[user]" below the kernel's addresses), and the function's
calls (executions of its first block), both divided by EVENTS (the
benchmark's wake-ups, say). Prints a Markdown table: the functions in
order of the largest difference between the last configuration and the
first, then the total; with three configurations or more, the difference
from the last but one as well. A block that crosses into the next
function is counted in the first: blocks end at branches, so this is rare
and small. The total of a benchmark that spins for a fixed time is fixed
by that time under -icount: read the differences of the functions.
"""
import bisect
import sys


def symbols(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                addrs.append(int(parts[0], 16))
                names.append(parts[2])
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def counts(path):
    """Instructions executed and executions, per block start address,
    summed over the block's translations."""
    insns, execs = {}, {}
    with open(path) as f:
        for line in f:
            vaddr, n, e = line.split()
            vaddr = int(vaddr, 16)
            insns[vaddr] = insns.get(vaddr, 0) + int(n) * int(e)
            execs[vaddr] = execs.get(vaddr, 0) + int(e)
    return insns, execs


def per_function(sysmap, before, after):
    """{function: [instructions, calls]} between the two dumps."""
    addrs, names = symbols(sysmap)
    entry = dict(zip(addrs, names))
    (ia, ea), (ib, eb) = counts(before), counts(after)
    funcs = {}
    for vaddr, n in ib.items():
        n -= ia.get(vaddr, 0)
        if n <= 0:
            continue
        if vaddr < addrs[0]:
            name = "[user]"
        else:
            name = names[bisect.bisect_right(addrs, vaddr) - 1]
        f = funcs.setdefault(name, [0, 0])
        f[0] += n
        if entry.get(vaddr) == name:
            f[1] += eb[vaddr] - ea.get(vaddr, 0)
    return funcs


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    events = int(sys.argv[1])
    cfgs = []
    for arg in sys.argv[2:]:
        name, spec = arg.split("=", 1)
        sysmap, before, after = spec.split(":")
        cfgs.append((name, per_function(sysmap, before, after)))
    ref, last = cfgs[0][1], cfgs[-1][1]
    prev = cfgs[-2][1] if len(cfgs) > 2 else None

    def insns(funcs, n):
        return funcs.get(n, [0, 0])[0]

    names = set()
    for _, funcs in cfgs:
        names |= set(funcs)
    rows = sorted(names, key=lambda n: (insns(ref, n) - insns(last, n), n))
    diffs = [f"{cfgs[-1][0]} - {cfgs[0][0]}"]
    if prev is not None:
        diffs.append(f"{cfgs[-1][0]} - {cfgs[-2][0]}")
    head = ["function"] + [f"{c[0]} (calls)" for c in cfgs] + diffs
    print("| " + " | ".join(head) + " |")
    print("|---" + "|---:" * (len(head) - 1) + "|")

    def row(label, vals):
        cells = [f"{i / events:.0f} ({c / events:.1f})" for i, c in vals]
        cells.append(f"{(vals[-1][0] - vals[0][0]) / events:+.0f}")
        if prev is not None:
            cells.append(f"{(vals[-1][0] - vals[-2][0]) / events:+.0f}")
        print(f"| {label} | " + " | ".join(cells) + " |")

    # Every function the last configuration runs at least once per event
    # more or less often than the first, 40 at most.
    shown = 0
    for n in rows:
        vals = [funcs.get(n, [0, 0]) for _, funcs in cfgs]
        if abs(vals[-1][0] - vals[0][0]) < events:
            continue
        row(f"`{n}`", vals)
        shown += 1
        if shown >= 40:
            break
    row("**all**", [[sum(f[0] for f in funcs.values()), 0] for _, funcs in cfgs])


if __name__ == "__main__":
    main()
