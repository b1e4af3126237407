#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The layout of struct rq before and after the series, for the cover
# letter: x86_64 defconfig plus uclamp, cgroups and schedutil, built once
# pristine and once with the series' options on (both from the same
# config), then pahole on kernel/sched/core.o with DWARF. Prints the size
# of struct rq and the offsets of the members the scheduler's hot paths
# use most (also to $BUILD/pahole-rq/summary.txt, which
# scripts/upstream.sh puts in the cover letter), and keeps the whole
# pahole output there.
#
#   scripts/pahole-rq.sh       needs scripts/prepare-tree.sh's trees
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$SRC" ] && [ -d "$PRISTINE" ] || die "run scripts/prepare-tree.sh first"
command -v pahole >/dev/null || die "pahole missing: run scripts/setup.sh"
OUT=$BUILD/pahole-rq
mkdir -p "$OUT"

# The options of the series and what they plug into; the pristine build
# leaves out those its Kconfig does not know (olddefconfig drops them).
opts=(CPU_FREQ CPU_FREQ_GOV_SCHEDUTIL UCLAMP_TASK UCLAMP_TASK_GROUP CGROUPS
      CGROUP_SCHED FAIR_GROUP_SCHED DEBUG_INFO_DWARF5 SCHED_UTIL_SIGNAL
      SCHED_TUNE SCHED_WALT)

layout() { # tree name
	local dir=$OUT/build-$2
	mkdir -p "$dir"
	make -s -C "$1" O="$dir" ARCH=x86_64 defconfig >/dev/null
	"$1/scripts/config" --file "$dir/.config" \
		$(printf -- '--enable %s ' "${opts[@]}") --disable DEBUG_INFO_NONE
	make -s -C "$1" O="$dir" ARCH=x86_64 olddefconfig >/dev/null
	make -s -C "$1" O="$dir" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" \
		kernel/sched/core.o >"$dir/build.log" 2>&1 ||
		{ tail -20 "$dir/build.log"; die "$2: kernel/sched/core.o does not build"; }
	pahole -C rq "$dir/kernel/sched/core.o" > "$OUT/rq-$2.txt"
}

layout "$PRISTINE" pristine
layout "$SRC" series

# "member offset size" for the members that matter, then the total.
summary() { # file
	awk '
	/^[[:space:]]+[^\/]*[;][[:space:]]*\/\*[[:space:]]*[0-9]+[[:space:]]+[0-9]+[[:space:]]*\*\// {
		line = $0
		sub(/;.*/, "", line); sub(/ __attribute__.*/, "", line)
		n = split(line, w, /[ \t*]+/); name = w[n]
		sub(/\[.*/, "", name)
		c = $0; sub(/.*\/\*[[:space:]]*/, "", c); split(c, v, /[[:space:]]+/)
		if (name ~ /^(nr_running|uclamp|uclamp_flags|cfs|rt|dl|curr|clock|clock_task|cpu_capacity|stune|cfsb_csd_list)$/)
			printf "  %-14s offset %5d  size %4d\n", name, v[1], v[2]
	}
	/\/\* size: / { s = $0; sub(/^[[:space:]]*\/\* /, "", s); sub(/ \*\/.*/, "", s); print "  " s }
	' "$1"
}

{
	echo "struct rq, x86_64 defconfig + ${opts[*]}"
	echo "(pahole on kernel/sched/core.o):"
	echo
	echo " pristine 6.12:"
	summary "$OUT/rq-pristine.txt"
	echo
	echo " with the series:"
	summary "$OUT/rq-series.txt"
} | tee "$OUT/summary.txt"
