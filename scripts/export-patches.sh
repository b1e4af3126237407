#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Developer tool: regenerate patches/ from a kernel git tree in which each
# patch of the series is one commit on top of a pristine commit (DEV_TREE,
# default ~/dev-linux; BASE, default its root commit). Only edits to files
# that exist in 6.12 belong in those commits: new files live at their
# kernel path in this repository. The patch names in `series` are
# rewritten in place; the new-file lists under them stay with the n-th
# patch.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEV_TREE=${DEV_TREE:-$HOME/dev-linux}
BASE=${BASE:-$(git -C "$DEV_TREE" rev-list --max-parents=0 HEAD)}

if git -C "$DEV_TREE" diff --name-only --diff-filter=A "$BASE..HEAD" | grep .; then
	die "new files belong in the repository, not in patches"
fi
rm -f "$REPO"/patches/*.patch
git -C "$DEV_TREE" format-patch -q --no-signature --zero-commit \
	--no-numbered -o "$REPO/patches" "$BASE..HEAD"
mapfile -t names < <(cd "$REPO/patches" && ls -1 *.patch)
awk -v list="${names[*]}" '
	BEGIN { n = split(list, name, " ") }
	/^[^#[:space:]]/ { i++; if (i <= n) print name[i]; next }
	{ print }
	END { for (i++; i <= n; i++) print name[i] }
' "$REPO/series" > "$REPO/series.new"
mv "$REPO/series.new" "$REPO/series"
grep -v '^#' "$REPO/series"
