#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn the repository into an upstream submission: a git tree of pristine
# 6.12 with one commit per patch of `series` (its edits plus the new files
# listed under it), then `git format-patch --cover-letter` into
# $SCHED_UTIL_CACHE/upstream/ (outside the repository). The cover letter's
# numbers are taken from the latest logs of scripts/test.sh,
# scripts/check.sh and scripts/run.sh, never typed by hand. Finally the
# series is applied with `git am` to a clean pristine branch to prove that
# it applies.
#
#   scripts/upstream.sh            prints the output directory
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh" >/dev/null

TREE=$CACHE/upstream-tree
OUT=$CACHE/upstream
export GIT_AUTHOR_NAME="sched-util developers" GIT_AUTHOR_EMAIL="sched-util@example.org"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
G=(git -C "$TREE" -c core.autocrlf=false)

if [ ! -e "$TREE/.git/sched-util-base" ]; then
	log "creating the git tree of pristine 6.12 (once, ~1 min)"
	rm -rf "$TREE" && cp -a "$PRISTINE" "$TREE"
	rm -f "$TREE/.sched-util-pristine"
	"${G[@]}" init -q
	"${G[@]}" add -f -A
	"${G[@]}" commit -q -m "Linux $(kernel_version "$PRISTINE") (Debian linux-source-6.12)"
	"${G[@]}" rev-parse HEAD > "$TREE/.git/sched-util-base"
fi
BASE=$(cat "$TREE/.git/sched-util-base")
"${G[@]}" checkout -q -f -B series "$BASE"
"${G[@]}" clean -q -fdx

# Each patch: its edits (git am keeps the changelog), then its new files.
cur=
flush() {
	[ -n "$cur" ] || return 0
	"${G[@]}" add -f -A
	"${G[@]}" commit -q --amend --no-edit
}
while IFS= read -r line; do
	case "$line" in
	''|'#'*) ;;
	[[:space:]]*)
		f=$(echo $line)
		mkdir -p "$TREE/$(dirname "$f")"
		cp "$REPO/$f" "$TREE/$f" ;;
	*)
		flush
		cur=$line
		"${G[@]}" am -q --whitespace=error "$REPO/patches/$line" ||
			die "git am failed on $line"
		;;
	esac
done < "$REPO/series"
flush

# Numbers for the cover letter, from the latest runs.
results() {
	local f
	for a in x86_64 arm arm64; do
		f=$BUILD/kunit-$a.log
		[ -f "$f" ] || { echo "  $a: not run"; continue; }
		printf '  %-7s %s\n' "$a:" "$(grep -oE 'Ran [0-9]+ tests: .*' "$f" | tail -1)"
	done
	f=$BUILD/check.log
	[ -f "$f" ] && sed -n 's/^==> \(checkpatch\|coccinelle\|sparse\/W=1\|static checks\)/  \1/p' "$f"
	f=$BUILD/guest/checks.log
	[ -f "$f" ] && grep -a -E '^(bad inputs|GUEST RESULT)' "$f" | sed 's/^/  guest: /'
	return 0
}
# Tables 1-3 of scripts/run.sh, as it wrote them.
tables() {
	local f=$CACHE/results/tables.md
	if [ -f "$f" ]; then
		sed 's/^/  /; s/^  $//' "$f"
	else
		echo "  (no benchmark results yet: run scripts/run.sh)"
	fi
}

rm -rf "$OUT" && mkdir -p "$OUT"
n=$("${G[@]}" rev-list --count "$BASE..HEAD")
"${G[@]}" format-patch -q --cover-letter --zero-commit --no-signature \
	--subject-prefix="PATCH" -o "$OUT" "$BASE..HEAD"
cover=$(ls "$OUT"/0000-*.patch)
{
	sed -n '1,/^Subject:/p' "$cover" | sed '$d'
	echo "Subject: [PATCH 0/$n] sched: Pluggable utilization signals, SchedTune and WALT"
	echo
	sed -n '/^---$/q;p' "$REPO/scripts/cover-letter.txt"
	echo
	echo "Results of the latest runs (scripts/test.sh, scripts/check.sh,"
	echo "scripts/run.sh; QEMU TCG, 2 vCPUs):"
	echo
	results
	echo
	echo "Measurements on the patched kernel (scripts/run.sh, $(date -r \
		"$CACHE/results/tables.md" +%F 2>/dev/null || echo never)):"
	echo
	tables
	echo
	sed -n '/^\*\*\* BLURB HERE \*\*\*$/,$p' "$cover" | sed '1d'
} > "$cover.new"
mv "$cover.new" "$cover"

log "checking that the series applies to pristine 6.12 with git am"
"${G[@]}" checkout -q -f -B am-check "$BASE"
for p in "$OUT"/*.patch; do
	case "${p##*/}" in 0000-*) continue ;; esac
	"${G[@]}" am -q "$p" || die "git am: ${p##*/} does not apply"
done
[ -z "$("${G[@]}" diff series am-check)" ] || die "git am result differs from the series"
"${G[@]}" checkout -q -f series
log "$n patches + cover letter in $OUT; git am on pristine 6.12: OK"
echo "$OUT"
