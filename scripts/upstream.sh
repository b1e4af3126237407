#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn the repository into an upstream submission by the person running
# it: a git tree of pristine 6.12 with one commit per patch of `series`
# (series-android's Android trace events and series-test's test-only
# patches stay out), then
# `git format-patch --cover-letter` into $SCHED_UTIL_CACHE/upstream/
# (outside the repository). The submitter's git identity (user.name and
# user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL) becomes every From:,
# the only Signed-off-by, and the M: of the MAINTAINERS entry the series
# adds, in place of the repository's placeholder; without one it refuses
# to run. The cover letter's numbers are taken from the latest logs of
# scripts/test.sh, scripts/check.sh and scripts/run.sh, never typed by
# hand. Finally the series is applied with `git am` to a clean pristine
# branch, and checkpatch --strict runs on every patch.
#
#   scripts/upstream.sh            prints the output directory
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The identity the repository's patches carry until a submitter signs.
PLACEHOLDER='sched-util developers <sched-util@example.org>'

name=${GIT_AUTHOR_NAME:-$(git -C "$REPO" config user.name || true)}
email=${GIT_AUTHOR_EMAIL:-$(git -C "$REPO" config user.email || true)}
[ -n "$name" ] && [ -n "$email" ] ||
	die "no git identity: set git config user.name and user.email; they become the author, the Signed-off-by and the MAINTAINERS M: of the submission"
IDENT="$name <$email>"
[ "$IDENT" != "$PLACEHOLDER" ] || die "$IDENT is the repository's placeholder, not a person"
# Nor an address that cannot receive a reply: the reserved domains of
# RFC 2606 and RFC 6761.
case ${email,,} in
*@example.com|*@example.org|*@example.net|*@*.example.com|*@*.example.org|*@*.example.net|\
*.example|*.invalid|*.test|*.localhost|*@localhost|*@*.local)
	die "$IDENT has a reserved domain, not a poster's address" ;;
esac
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh" >/dev/null

TREE=$CACHE/upstream-tree
OUT=$CACHE/upstream
G=(git -C "$TREE" -c core.autocrlf=false)

git_base_tree "$TREE"
BASE=$(cat "$TREE/.git/sched-util-base")
"${G[@]}" checkout -q -f -B series "$BASE"
"${G[@]}" clean -q -fdx

# Each patch with the submitter in place of the placeholder and no other
# sign-off; `git am -s` adds the submitter's.
sed_ident=$(sed 's/[][\\/.*^$&]/\\&/g' <<<"$IDENT")
sed_ph=$(sed 's/[][\\/.*^$&]/\\&/g' <<<"$PLACEHOLDER")
mkdir -p "$CACHE/upstream-in" && rm -f "$CACHE"/upstream-in/*
for p in $(sed -n '/^[^#[:space:]]/p' "$REPO/series"); do
	sed -e "s/^From: $sed_ph\$/From: $sed_ident/" \
	    -e "s/^+M:\t$sed_ph\$/+M:\t$sed_ident/" \
	    -e '/^Signed-off-by: /d' "$REPO/patches/$p" > "$CACHE/upstream-in/$p"
	"${G[@]}" am -q -s --whitespace=error "$CACHE/upstream-in/$p" ||
		die "git am failed on $p"
done

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
# The published tables (scripts/results.py --publish), the one source of
# the figures the cover letter's text quotes.
tables() {
	local f=$REPO/results/tables.md
	if [ -f "$f" ]; then
		sed 's/^/  /; s/^  $//' "$f"
	else
		echo "  (no benchmark results yet: run scripts/run.sh)"
	fi
}

# struct rq before and after, measured now.
"$REPO/scripts/pahole-rq.sh" >/dev/null

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
	echo "Measurements on the patched kernel (scripts/run.sh, published $(git -C "$REPO" \
		log -1 --format=%cs -- results/tables.md 2>/dev/null || echo never)):"
	echo
	tables
	echo
	sed 's/^/  /; s/^  $//' "$BUILD/pahole-rq/summary.txt"
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
# (format-patch folds a long From: header onto a second line: unfold.)
others=$(sed -e ':a' -e '$!N;s/\n / /;ta' -e 'P;D' "$OUT"/*.patch |
	grep -E '^(From: |Signed-off-by: |\+M:\s)' | grep -vF "$IDENT" || true)
[ -z "$others" ] || die "lines naming someone else than $IDENT: $others"

log "checkpatch --strict on each patch"
bad=$(cd "$SRC" && for p in "$OUT"/*.patch; do
	case "${p##*/}" in 0000-*) continue ;; esac
	checkpatch_reports "${p##*/}" "$p"
done | checkpatch_unallowed)
[ -z "$bad" ] || { printf '%s\n' "$bad"; die "checkpatch: reports not in scripts/checkpatch.allow"; }
log "$n patches + cover letter in $OUT, by $IDENT; git am on pristine 6.12 and checkpatch --strict: OK"
echo "$OUT"
