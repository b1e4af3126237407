#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Commit the uncommitted edits of a git tree as fixups, hunk by hunk,
each to the newest commit since BASE that wrote the lines it changes
(git blame; for a pure insertion, the line above it, else below). Used by
scripts/series.sh absorb, so that a fix lands in the patch that introduced
what it fixes rather than in the newest patch touching the file.

    absorb-hunks.py TREE BASE FILE...
"""
import re
import subprocess
import sys

tree, base, files = sys.argv[1], sys.argv[2], sys.argv[3:]


def git(*args, **kw):
    return subprocess.run(["git", "-C", tree, *args], check=True, text=True,
                          capture_output=True, **kw).stdout


in_range = set(git("rev-list", f"{base}..HEAD").split())
order = git("rev-list", "--reverse", f"{base}..HEAD").split()


def blame(path, line):
    out = git("blame", "--porcelain", "-L", f"{line},{line}", "HEAD", "--", path)
    return out.split()[0]


groups = {}  # commit -> [(path, header, hunk text)]
for path in files:
    diff = git("diff", "-U0", "--", path)
    header, hunks = [], []
    for ln in diff.splitlines(keepends=True):
        if ln.startswith("@@"):
            hunks.append([ln])
        elif hunks:
            hunks[-1].append(ln)
        else:
            header.append(ln)
    nlines = int(git("show", f"HEAD:{path}").count("\n"))
    # Hunks that touch or adjoin each other (a line moved by one: a deletion
    # and an insertion next to it) go to one commit, the newest of theirs:
    # applied to different commits, each half would lack the other's
    # context.
    runs = []  # [[end of the old range, commits, [hunks]]]
    for h in hunks:
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+", h[0])
        start, count = int(m.group(1)), int(m.group(2) or 1)
        lines = range(start, start + count) if count else \
            [start if start >= 1 else 1] if start < nlines else [nlines]
        commits = {blame(path, n) for n in lines}
        commits &= in_range
        if not commits:
            sys.exit(f"{path}: a hunk at line {start} changes only pristine 6.12 lines")
        if runs and start <= runs[-1][0] + 1:
            runs[-1][1] |= commits
            runs[-1][2].append(h)
        else:
            runs.append([0, commits, [h]])
        runs[-1][0] = max(runs[-1][0], start + count)
    for _, commits, hs in runs:
        target = max(commits, key=order.index)
        for h in hs:
            groups.setdefault(target, []).append((path, "".join(header), "".join(h)))


def renumbered(path, hunks):
    """@hunks of one file, numbered against HEAD, renumbered for the index,
    which holds the hunks of the commits applied before. Without context,
    git apply places a pure insertion by its new line number: the new
    numbers must be those of this patch alone, not of the whole diff."""
    out, cum = [], 0
    for hunk in hunks:
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", hunk)
        start = int(m.group(1))
        old = int(m.group(2) if m.group(2) is not None else 1)
        new = int(m.group(4) if m.group(4) is not None else 1)
        s = start + sum(d for h, d in applied.get(path, []) if h < start)
        t = s + cum + (1 if old == 0 else -1 if new == 0 else 0)
        out.append(f"@@ -{s},{old} +{t},{new} @@" + hunk[m.end():])
        cum += new - old
    return out


def delta(hunk):
    lines = hunk.splitlines()[1:]
    return sum(ln.startswith("+") for ln in lines) - \
        sum(ln.startswith("-") for ln in lines)


applied = {}  # path -> [(HEAD line of an applied hunk, lines it added)]
for commit in order:
    if commit not in groups:
        continue
    patch, paths = "", {}
    for path, header, hunk in groups[commit]:
        paths.setdefault(path, (header, []))[1].append(hunk)
    for path, (header, hunks) in paths.items():
        hunks.sort(key=lambda h: int(re.match(r"@@ -(\d+)", h).group(1)))
        patch += header + "".join(renumbered(path, hunks))
    for path, header, hunk in groups[commit]:
        start = int(re.match(r"@@ -(\d+)", hunk).group(1))
        applied.setdefault(path, []).append((start, delta(hunk)))
    subprocess.run(["git", "-C", tree, "apply", "--cached", "--unidiff-zero", "-"],
                   input=patch, text=True, check=True)
    git("commit", "-q", "--fixup", commit)
    subject = git("log", "-1", "--format=%s", commit).strip()
    print(f"==> {len(groups[commit])} hunk(s) -> {subject}", file=sys.stderr)
