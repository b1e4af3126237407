#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series is the source of truth: every change, new files included, is
# a patch in patches/ (git format-patch output), applied in the order of
# `series` (the sched submission), then of `series-android` (the Android
# trace events) and `series-test` (test-only patches, kept last). The whole files at their kernel paths in this
# repository (kernel/, include/, Documentation/ ...) are what the applied
# series creates, kept for reading; scripts/prepare-tree.sh fails when
# they and the series disagree.
#
#   scripts/series.sh tree     git tree of pristine 6.12 with one commit per
#                              patch (branch `series`) in $CACHE/series-tree,
#                              to edit with git (commit --fixup, rebase -i)
#   scripts/series.sh export   that tree's commits -> patches/, series,
#                              series-android, series-test, then `files`
#   scripts/series.sh absorb   edits of whole files -> fixups, hunk by hunk,
#                              of the patch that wrote the lines each hunk
#                              changes (scripts/absorb-hunks.py, in a fresh
#                              `tree`), then `export`
#   scripts/series.sh files    whole files <- the applied series
#   scripts/series.sh check    whole files == the applied series
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TREE=$CACHE/series-tree
G=(git -C "$TREE" -c core.autocrlf=false -c "user.name=sched-util developers"
   -c user.email=sched-util@example.org)

# Paths the series creates under NEWDIRS that still exist once it is
# applied, from the patches themselves ("--- /dev/null" then "+++ b/PATH"; "+++ /dev/null"
# deletes), in the order the patches apply.
created_files() {
	local p
	for p in $(series_patches); do
		awk '/^--- \/dev\/null/ { n = 1; next }
		     n && /^\+\+\+ b\// { print "A", substr($2, 3) }
		     /^--- a\// { old = substr($2, 3) }
		     /^\+\+\+ \/dev\/null/ { print "D", old }
		     { n = 0 }' "$REPO/patches/$p"
	done | awk '$1 == "A" { f[$2] = 1 } $1 == "D" { delete f[$2] }
		    END { for (k in f) print k }' | sort |
		grep -E "^($(IFS='|'; echo "${NEWDIRS[*]}"))/" || true
}

# The repository's whole files: everything under the kernel's top-level
# directories that this repository mirrors.
whole_files() {
	(cd "$REPO" && for d in "${NEWDIRS[@]}"; do
		[ -d "$d" ] && find "$d" -type f
	done) | sort
}

cmd_check() {
	local f bad=() missing extra
	[ -d "$SRC" ] || die "$SRC missing: run scripts/prepare-tree.sh"
	missing=$(comm -23 <(created_files) <(whole_files))
	extra=$(comm -13 <(created_files) <(whole_files))
	for f in $(comm -12 <(created_files) <(whole_files)); do
		cmp -s "$REPO/$f" "$SRC/$f" || bad+=("$f")
	done
	[ -z "$missing$extra" ] && [ ${#bad[@]} -eq 0 ] && return 0
	[ -n "$missing" ] && printf 'created by the series, missing here: %s\n' $missing >&2
	[ -n "$extra" ] && printf 'not created by any patch: %s\n' $extra >&2
	[ ${#bad[@]} -gt 0 ] && printf 'differs from the applied series: %s\n' "${bad[@]}" >&2
	die "whole files and series disagree: 'scripts/series.sh absorb' turns whole-file edits into patches, 'scripts/series.sh files' rewrites the whole files from the patches"
}

cmd_files() {
	local f
	SERIES_NO_CHECK=1 "$REPO/scripts/prepare-tree.sh"
	for f in $(comm -13 <(created_files) <(whole_files)); do
		rm -v "$REPO/$f"
	done
	for f in $(created_files); do
		mkdir -p "$REPO/$(dirname "$f")"
		cmp -s "$SRC/$f" "$REPO/$f" || cp -v "$SRC/$f" "$REPO/$f"
	done
}

cmd_tree() {
	local p
	[ -r "$PRISTINE/.sched-util-pristine" ] || "$REPO/scripts/prepare-tree.sh"
	git_base_tree "$TREE"
	"${G[@]}" checkout -q -f -B series "$(cat "$TREE/.git/sched-util-base")"
	"${G[@]}" clean -q -fdx
	for p in $(series_patches); do
		"${G[@]}" am -q --keep-cr "$REPO/patches/$p" ||
			die "git am failed on $p"
	done
	log "$TREE: branch series, $(series_patches | wc -l) commits on pristine 6.12"
}

# Format BASE..TOP into patches/DIR, print their names.
format() { # dir from to
	local dir=$1
	mkdir -p "$REPO/patches/$dir"
	"${G[@]}" format-patch --no-signature --zero-commit --no-numbered --abbrev=9 \
		-o "$REPO/patches/$dir" "$2..$3" |
		sed "s|^$REPO/patches/||"
}

cmd_export() {
	local base n head_ nandroid ntest
	base=$(cat "$TREE/.git/sched-util-base")
	[ -z "$("${G[@]}" status --porcelain --untracked-files=no)" ] ||
		die "$TREE has uncommitted changes"
	# The newest commits are series-test's, those before them
	# series-android's, as many as each file lists now.
	nandroid=$(series_patches series-android | wc -l)
	ntest=$(series_patches series-test | wc -l)
	n=$("${G[@]}" rev-list --count "$base..HEAD")
	[ "$n" -gt $((nandroid + ntest)) ] ||
		die "the tree has $n commits, series-android and series-test alone $((nandroid + ntest))"
	head_=$("${G[@]}" rev-parse HEAD)
	rm -f "$REPO"/patches/*.patch "$REPO"/patches/{android,test}/*.patch
	export_part series "" "$base" "$head_~$((nandroid + ntest))"
	export_part series-android android "$head_~$((nandroid + ntest))" "$head_~$ntest"
	export_part series-test test "$head_~$ntest" "$head_"
	cmd_files
	git -C "$REPO" status --short -- patches "${SERIES_FILES[@]}" "${NEWDIRS[@]}"
}

# Series file FILE <- its comment lines, then the commits FROM..TO as
# patches in patches/DIR.
export_part() { # file dir from to
	{
		sed -n '/^#/p' "$REPO/$1"
		[ "$("${G[@]}" rev-parse "$3")" = "$("${G[@]}" rev-parse "$4")" ] ||
			format "$2" "$3" "$4"
	} > "$REPO/$1.new"
	mv "$REPO/$1.new" "$REPO/$1"
}

cmd_absorb() {
	local f c base head_ changed=()
	cmd_tree
	base=$(cat "$TREE/.git/sched-util-base")
	[ -z "$(comm -3 <(created_files) <(whole_files))" ] ||
		die "new or deleted whole files: add or remove them in a patch (scripts/series.sh tree, git commit --fixup)"
	for f in $(whole_files); do
		cmp -s "$REPO/$f" "$TREE/$f" && continue
		cp "$REPO/$f" "$TREE/$f"
		changed+=("$f")
	done
	[ ${#changed[@]} -gt 0 ] || { log "nothing to absorb"; return 0; }
	head_=$("${G[@]}" rev-parse HEAD)
	GIT_AUTHOR_NAME="sched-util developers" GIT_COMMITTER_NAME="sched-util developers" \
	GIT_AUTHOR_EMAIL=sched-util@example.org GIT_COMMITTER_EMAIL=sched-util@example.org \
		python3 "$REPO/scripts/absorb-hunks.py" "$TREE" "$base" "${changed[@]}"
	if ! GIT_SEQUENCE_EDITOR=: "${G[@]}" rebase -q -i --autosquash "$base" >/dev/null 2>&1; then
		# A later patch rewrote the hunk's neighbourhood: the fix
		# cannot go where blame puts it without a conflict. Fall back
		# to the newest patch touching each file, and say so.
		"${G[@]}" rebase --abort
		"${G[@]}" reset -q --hard "$head_"
		for f in "${changed[@]}"; do
			cp "$REPO/$f" "$TREE/$f"
			c=$("${G[@]}" log -1 --format=%H "$base..HEAD" -- "$f")
			"${G[@]}" commit -q --fixup="$c" -- "$f"
			log "WARNING: $f -> $("${G[@]}" log -1 --format=%s "$c") (the patch that wrote the lines conflicts; move the fix by hand if it belongs earlier)"
		done
		GIT_SEQUENCE_EDITOR=: "${G[@]}" rebase -q -i --autosquash "$base"
	fi
	cmd_export
}

case "${1:-}" in
check|files|tree|export|absorb) "cmd_$1" ;;
*) sed -n '3,21p' "$0"; exit 2 ;;
esac
