#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bisectability: build every step of the upstream series (pristine, then
# each patch applied in turn) for x86_64, once with the series' options on
# and once with them off. Uses the git tree that scripts/upstream.sh
# makes; slow (see README.md for the measured time).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$REPO/scripts/upstream.sh" >/dev/null
TREE=$CACHE/upstream-tree
G=(git -C "$TREE")
BASE=$(cat "$TREE/.git/sched-util-base")
mapfile -t steps < <("${G[@]}" rev-list --reverse "$BASE..series")
steps=("$BASE" "${steps[@]}")
export KBUILD_BUILD_TIMESTAMP=sched-util KBUILD_BUILD_USER=sched-util KBUILD_BUILD_HOST=sched-util

frag=$BUILD/bisect.config
cat "$REPO"/tools/testing/kunit/configs/sched_{util_signal,tune,walt}.config |
	grep -v KUNIT > "$frag"
echo CONFIG_CPUFREQ_VIRT_OPP=y >> "$frag"

start=$(date +%s)
for c in "${steps[@]}"; do
	"${G[@]}" checkout -q -f "$c"
	subj=$("${G[@]}" log -1 --format=%s)
	for mode in on off; do
		out=$BUILD/bisect-$mode
		mkdir -p "$out"
		if [ $mode = on ]; then
			cp "$frag" "$out/.config"
		else
			sed -E 's/^(CONFIG_(SCHED_(UTIL_SIGNAL|TUNE|WALT)|CPUFREQ_VIRT_OPP))=y/# \1 is not set/' \
				"$frag" > "$out/.config"
		fi
		make -s -C "$TREE" O="$out" ARCH=x86_64 olddefconfig >/dev/null
		t=$(date +%s)
		if ! make -s -C "$TREE" O="$out" ARCH=x86_64 CC="ccache gcc" \
			-j"$(nproc)" vmlinux >"$out/build.log" 2>&1; then
			tail -20 "$out/build.log"
			die "step '$subj' does not build with the options $mode"
		fi
		log "$(printf '%-55s %-3s %4d s' "$subj" $mode $(( $(date +%s) - t )))"
	done
done
"${G[@]}" checkout -q -f series
log "all ${#steps[@]} steps build, options on and off: $(( $(date +%s) - start )) s"
