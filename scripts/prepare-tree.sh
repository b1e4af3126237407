#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make $SRC = pristine Debian linux-source-6.12 + this repository:
#   1. unpack the tarball once into $PRISTINE (kept untouched);
#   2. on every run, rebuild the working copy from it (hard links, so it
#      takes seconds), copy in the new files at their kernel paths, and
#      apply the patches in the order `series` lists them;
#   3. any reject, fuzz or offset is an error naming the patch.
# Files whose content did not change since the previous run keep their
# old timestamps, so the kbuild directories outside the tree stay warm.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Directories of this repository that hold new files at their kernel path.
NEWDIRS=(kernel include drivers Documentation tools/testing/kunit/configs
	 scripts/coccinelle)

mkdir -p "$CACHE"
[ -r "$TARBALL" ] || die "$TARBALL missing: run scripts/setup.sh"

if [ ! -e "$PRISTINE/.sched-util-pristine" ] ||
   [ "$TARBALL" -nt "$PRISTINE/.sched-util-pristine" ]; then
	log "unpacking $TARBALL into $PRISTINE"
	rm -rf "$PRISTINE" "$PRISTINE.tmp"
	mkdir -p "$PRISTINE.tmp"
	tar -xf "$TARBALL" -C "$PRISTINE.tmp" --strip-components=1
	touch "$PRISTINE.tmp/.sched-util-pristine"
	mv "$PRISTINE.tmp" "$PRISTINE"
fi

STAGE=$SRC.stage
rm -rf "$STAGE"
cp -al "$PRISTINE" "$STAGE"
rm -f "$STAGE/.sched-util-pristine"

# `series`: patch names, each followed by the new files it adds (indented).
patches=() owned=()
while IFS= read -r line; do
	case "$line" in
	''|'#'*) ;;
	[[:space:]]*) owned+=("$(echo $line)") ;;
	*) patches+=("$line") ;;
	esac
done < "$REPO/series"

changed=()
cd "$REPO"
found=$(for d in "${NEWDIRS[@]}"; do [ -d "$d" ] && find "$d" -type f; done | sort)
listed=$(printf '%s\n' "${owned[@]}" | sort)
dups=$(uniq -d <<<"$listed")
[ -z "$dups" ] || die "series lists these new files twice: $dups"
stray=$(comm -3 <(echo "$found") <(echo "$listed") | tr -d '\t')
[ -z "$stray" ] || die "new files and series disagree (each new file belongs to one patch): $stray"
for f in "${owned[@]}"; do
	[ -e "$PRISTINE/$f" ] &&
		die "$f exists in 6.12: change it with a patch in series"
	mkdir -p "$STAGE/$(dirname "$f")"
	cp --remove-destination "$f" "$STAGE/$f"
	changed+=("$f")
done

for p in "${patches[@]}"; do
	[ -f "$REPO/patches/$p" ] || die "series lists $p, not in patches/"
	if ! out=$(patch -p1 -N -s --fuzz=0 --no-backup-if-mismatch -r - \
			-d "$STAGE" -i "$REPO/patches/$p" 2>&1) ||
	   grep -qiE 'offset|fuzz|reject|fail' <<<"$out"; then
		printf '%s\n' "$out" >&2
		die "patch $p does not apply cleanly to linux $(kernel_version "$PRISTINE")"
	fi
	while read -r f; do
		changed+=("$f")
	done < <(sed -n 's|^+++ b/\([^	]*\).*|\1|p' "$REPO/patches/$p")
done

# Keep timestamps of files that are identical to the previous run's.
for f in $(printf '%s\n' "${changed[@]}" | sort -u); do
	if [ -f "$SRC/$f" ] && cmp -s "$SRC/$f" "$STAGE/$f"; then
		touch -r "$SRC/$f" "$STAGE/$f"
	fi
done
# A file dropped from the project must not survive in the old tree:
# the stage is built from pristine, so swapping it in is enough.
rm -rf "$SRC.old"
[ -d "$SRC" ] && mv "$SRC" "$SRC.old"
mv "$STAGE" "$SRC"
rm -rf "$SRC.old"

log "prepared $SRC: linux $(kernel_version "$SRC") (Debian linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)) + ${#patches[@]} patches, ${#changed[@]} files changed"
