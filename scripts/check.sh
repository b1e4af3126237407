#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the series on the prepared tree; part of scripts/test.sh
# and runnable alone:
#
#   checkpatch  scripts/checkpatch.pl --strict on every patch and every new
#               file: 0 errors, warnings and checks, except the entries of
#               scripts/checkpatch.allow (one reason each);
#   coccinelle  our semantic patches (scripts/coccinelle/sched/) report
#               nothing, and the kernel's own (scripts/coccinelle/*) report
#               nothing on our new files;
#   kernel-doc  scripts/kernel-doc -none on our new files: no warning;
#   sparse/W=1  make C=2 W=1 kernel/sched/ drivers/cpufreq/ on pristine
#               6.12 and on the
#               series: no warning that pristine does not have, except
#               the entries of scripts/sparse.allow (one reason each);
#   figures     every figure the README and the cover letter quote is in
#               the committed results/tables.md, the README's generated
#               summary is current, the kernel docs name no project file
#               (scripts/check-figures.py);
#   host tests  the energy estimator of the virtual SoC on a hand-computed
#               trace (scripts/energy_test.py).
#
#   scripts/check.sh [--no-prepare]
set -uo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" != --no-prepare ]; then
	"$REPO/scripts/setup.sh" || die "package installation failed"
	"$REPO/scripts/prepare-tree.sh" || exit 1
fi

status=0
failed() { log "CHECK FAILED: $*"; status=1; }

# New C files of ours, relative to the tree: the whole files, and the
# test-only driver that series-test creates (not mirrored here).
NEWC=$( (cd "$REPO" && git ls-files -co --exclude-standard -- kernel include;
	grep -h -A1 '^--- /dev/null' "$REPO"/patches/test/*.patch |
		sed -n 's|^+++ b/||p') | grep -E '\.[ch]$')

log "checkpatch --strict"
cp_out=$(cd "$SRC" && {
	for p in $(series_patches); do
		checkpatch_reports "$p" "$REPO/patches/$p"
	done
	for f in $NEWC; do
		./scripts/checkpatch.pl --strict --terse --show-types -f "$f" |
			sed -nE 's/^([^:]+):[0-9]+: (ERROR|WARNING|CHECK):([A-Z_]+):/\1 \1 \3 /p'
	done
} 2>&1)
left=$(checkpatch_unallowed <<<"$cp_out")
if [ -n "$left" ]; then
	printf '%s\n' "$left"
	failed "checkpatch: $(grep -c . <<<"$left") report(s) not in scripts/checkpatch.allow"
else
	log "checkpatch: clean ($(grep -c . <<<"$cp_out") allowlisted)"
fi

log "coccinelle: our semantic patches"
out=$(cd "$SRC" && spatch --very-quiet -D report --no-includes --include-headers \
	--sp-file scripts/coccinelle/sched/open_coded_migration.cocci \
	--dir kernel/sched 2>&1)
[ -n "$out" ] && { printf '%s\n' "$out"; failed "open-coded migration"; }
for f in $NEWC; do
	out=$(cd "$SRC" && spatch --very-quiet -D report --no-includes --include-headers \
		--sp-file scripts/coccinelle/sched/raw_div64.cocci "$f" 2>&1)
	[ -n "$out" ] && { printf '%s\n' "$out"; failed "raw 64-bit division in $f"; }
done

log "coccinelle: the kernel's semantic patches on our new files"
files=$BUILD/cocci-files
rm -rf "$files" && mkdir -p "$files"
(cd "$SRC" && cp --parents $NEWC "$files")
n=0
for c in "$SRC"/scripts/coccinelle/{api,free,iterators,locks,misc,null}/*.cocci; do
	grep -q 'virtual report' "$c" || continue
	out=$(spatch --very-quiet -D report --no-includes --include-headers \
		--jobs "$(nproc)" --sp-file "$c" --dir "$files" 2>/dev/null)
	n=$((n + 1))
	[ -n "$out" ] && { printf '%s\n' "${out//$files\//}"; failed "coccicheck ${c##*/}"; }
done
log "coccinelle: $n kernel semantic patches run on $(wc -w <<<"$NEWC") files"

log "kernel-doc"
out=$(cd "$SRC" && ./scripts/kernel-doc -none $NEWC 2>&1)
[ -n "$out" ] && { printf '%s\n' "$out"; failed "kernel-doc warnings"; }

# sparse and W=1 warnings of the directories we touch, line numbers dropped.
sched_warnings() { # tree builddir
	local tree=$1 out=$2
	mkdir -p "$out"
	cat "$REPO"/tools/testing/kunit/configs/sched_{util_signal,tune,walt}.config \
		> "$out/.config"
	echo CONFIG_CPUFREQ_VIRT_OPP=y >> "$out/.config"
	make -s -C "$tree" O="$out" ARCH=x86_64 olddefconfig >/dev/null 2>&1
	# Compiler (W=1) warnings only come with a compile: rebuild the
	# directories compared, in both trees alike (ccache replays them).
	rm -f "$out"/kernel/sched/*.o "$out"/drivers/cpufreq/*.o
	make -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" \
		C=2 W=1 kernel/sched/ drivers/cpufreq/ 2>&1 |
		grep -E '(warning|error):' |
		sed -E "s|^$tree/||; s|^\.\./||; s|:[0-9]+:[0-9]+:|:|; s|:[0-9]+:|:|" |
		sort
}
log "sparse and W=1: pristine 6.12"
before=$(sched_warnings "$PRISTINE" "$BUILD/check-pristine")
log "sparse and W=1: with the series"
after=$(sched_warnings "$SRC" "$BUILD/check-series")
new=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep . |
	grep -vxFf <(sed -n 's/ | .*//p' "$REPO/scripts/sparse.allow"))
if [ -n "$new" ]; then
	printf '%s\n' "$new"
	failed "sparse/W=1: $(grep -c . <<<"$new") new warning(s)"
else
	log "sparse/W=1: no new warning ($(grep -c . <<<"$before") in pristine kernel/sched and drivers/cpufreq)"
fi

log "figures: scripts/check-figures.py"
python3 "$REPO/scripts/check-figures.py" "$REPO" || failed "scripts/check-figures.py"

log "host tests: scripts/energy_test.py"
python3 "$REPO/scripts/energy_test.py" 2>&1 | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || failed "scripts/energy_test.py"

[ $status -eq 0 ] && log "static checks passed"
exit $status
