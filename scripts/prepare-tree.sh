#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make $SRC = pristine Debian linux-source-6.12 + this repository:
#   1. unpack the tarball once into $PRISTINE (kept untouched);
#   2. on every run, rebuild the working copy from it (hard links, so it
#      takes seconds) and apply the patches in the order `series`, then
#      `series-android`, then `series-test`, list them;
#   3. any reject, fuzz or offset is an error naming the patch;
#   4. the repository's whole files must equal what the series created
#      (scripts/series.sh check; SERIES_NO_CHECK=1 skips it, for
#      scripts/series.sh files).
# Files whose content did not change since the previous run keep their
# old timestamps, so the kbuild directories outside the tree stay warm.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

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

mapfile -t patches < <(series_patches)
changed=()
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
[ -n "${SERIES_NO_CHECK:-}" ] || "$REPO/scripts/series.sh" check
