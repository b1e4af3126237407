#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One source for every measured figure: the committed results/tables.md,
written by scripts/results.py --publish.

Fails when
  - README.md's generated Table 4 summary is not the one results.py
    --publish wrote with the committed tables (results/readme-summary.md);
  - README.md or scripts/cover-letter.txt quotes a figure (a percentage,
    or a number with ms, us, ns, mJ or J) that the committed
    results/tables.md does not hold;
  - a document that goes upstream (Documentation/) names the project's
    scripts, README, tables or "the seed".

    scripts/check-figures.py [REPO]
"""
import os
import re
import sys

repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
problems = []


def read(path):
    with open(os.path.join(repo, path)) as f:
        return f.read()


tables = read("results/tables.md")
summary = read("results/readme-summary.md")
readme = read("README.md")
BEGIN = "<!-- table4 summary: scripts/results.py --publish -->"
END = "<!-- end of table4 summary -->"
if BEGIN not in readme or END not in readme:
    problems.append("README.md: no Table 4 summary markers")
else:
    block = readme[readme.index(BEGIN) + len(BEGIN):readme.index(END)].strip()
    if block != summary.strip():
        problems.append("README.md: the Table 4 summary is not results/readme-summary.md "
                        "(run scripts/results.py RESULTS KERNEL --publish .)")
    readme = readme[:readme.index(BEGIN)] + readme[readme.index(END):]

# A measured figure: a percentage, or a number with a unit of time or
# energy. Figures that define a load or a setting (a 16 ms period, an 8 ms
# half-life) are the same in tables.md's descriptions, so they pass too.
FIGURE = re.compile(r"(?<![\w.])([+-]?\d+(?:\.\d+)?)\s?(%|ms|us|ns|mJ|J)(?!\w)")


def figures_in(text):
    for line in text.splitlines():
        if line.lstrip().startswith(("|", "<!--")) or line.startswith("    "):
            continue
        for num, unit in FIGURE.findall(line):
            yield line.strip(), num + unit


# tables.md prints percentages with their sign and %, times and energies
# as bare numbers under a unit in the column's header.
percents = {n.lstrip("+") for n, u in FIGURE.findall(tables) if u == "%"}
numbers = {n.lstrip("+-") for n in re.findall(r"(?<![\w.])[+-]?\d+(?:\.\d+)?", tables)}
for name, text in (("README.md", readme), ("scripts/cover-letter.txt",
                                           read("scripts/cover-letter.txt"))):
    for line, fig in figures_in(text):
        num = re.match(r"[+-]?\d+(?:\.\d+)?", fig).group(0)
        ok = num.lstrip("+") in percents if fig.endswith("%") else num.lstrip("+-") in numbers
        if not ok:
            problems.append(f"{name}: {fig} is not in results/tables.md: {line[:90]}")

for root, _, files in os.walk(os.path.join(repo, "Documentation")):
    for f in files:
        path = os.path.join(root, f)
        text = open(path).read()
        rel = os.path.relpath(path, repo)
        for m in re.finditer(r"scripts/|README|\bseed\b|Table \d", text):
            problems.append(f"{rel}: names the project's {m.group(0)!r}")

for p in problems:
    print("FIGURE CHECK:", p)
sys.exit(1 if problems else 0)
