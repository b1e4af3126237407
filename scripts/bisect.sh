#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bisectability of the series (`series`, then `series-android`; the
# test-only series is not part of it): every step, pristine 6.12 then each
# patch applied in turn, is built for x86_64 with the series' options off, and with them
# on; where KUnit suites of ours exist at that step, "on" is kunit.py's
# build and run (QEMU, 2 vCPUs) with the kunitconfigs present at that
# step, and every suite must pass. The last step is also built with the
# tristate KUnit options as modules. Uses its own git tree
# ($SCHED_UTIL_CACHE/bisect-tree) and build directories; slow, see
# README.md for the measured time. One line per step and mode; exits
# non-zero at the first step that fails.
#
#   scripts/bisect.sh [--from N]    start at patch N (1 = the first)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

FROM=0
[ "${1:-}" = --from ] && FROM=$2

"$REPO/scripts/setup.sh"
[ -r "$PRISTINE/.sched-util-pristine" ] || SERIES_NO_CHECK=1 "$REPO/scripts/prepare-tree.sh"
TREE=$CACHE/bisect-tree
G=(git -C "$TREE" -c core.autocrlf=false -c "user.name=sched-util developers"
   -c user.email=sched-util@example.org)
git_base_tree "$TREE"
BASE=$(cat "$TREE/.git/sched-util-base")
"${G[@]}" checkout -q -f -B series "$BASE"
"${G[@]}" clean -q -fdx
for p in $(series_patches series series-android); do
	"${G[@]}" am -q "$REPO/patches/$p" || die "git am failed on $p"
done
mapfile -t steps < <("${G[@]}" rev-list --reverse "$BASE..series")
steps=("$BASE" "${steps[@]}")
export KBUILD_BUILD_TIMESTAMP=sched-util KBUILD_BUILD_USER=sched-util KBUILD_BUILD_HOST=sched-util
export PYTHONDONTWRITEBYTECODE=1

# The options of the whole series, without KUnit, on and off.
configs=$REPO/tools/testing/kunit/configs
mkdir -p "$BUILD"
grep -hv KUNIT "$configs"/sched_{util_signal,tune,walt}.config > "$BUILD/bisect-on.config"
sed -E 's/^(CONFIG_SCHED_(UTIL_SIGNAL|UTIL_CHECKS|TUNE|WALT))=y/# \1 is not set/' \
	"$BUILD/bisect-on.config" > "$BUILD/bisect-off.config"

build() { # mode subject
	local out=$BUILD/bisect-$1 t
	mkdir -p "$out"
	cp "$BUILD/bisect-$1.config" "$out/.config"
	make -s -C "$TREE" O="$out" ARCH=x86_64 olddefconfig >/dev/null
	t=$(date +%s)
	if ! make -s -C "$TREE" O="$out" ARCH=x86_64 CC="ccache gcc" \
		-j"$(nproc)" vmlinux >"$out/build.log" 2>&1; then
		tail -20 "$out/build.log"
		die "step '$2' does not build with the options $1"
	fi
	log "$(printf '%-62s %-5s built in %4d s' "$2" "$1" $(( $(date +%s) - t )))"
}

kunit() { # subject kunitconfig...
	local subj=$1 t out=$BUILD/bisect-kunit.log opts=()
	shift
	for c in "$@"; do opts+=(--kunitconfig="$c"); done
	t=$(date +%s)
	SRC=$TREE kunit_boot bisect "$out" run --arch=x86_64 \
		--build_dir="$BUILD/bisect-kunit" --timeout=900 --jobs="$(nproc)" \
		--qemu_args="-smp 2$(kunit_accel x86_64)" \
		--make_options="CC=ccache gcc" "${opts[@]}" ||
		{ tail -30 "$out"; die "step '$subj': kunit.py failed"; }
	kunit_result bisect "$out"
	[ "$KUNIT_FAIL" -eq 0 ] || { tail -30 "$out"; die "step '$subj': KUnit failures"; }
	log "$(printf '%-62s %-5s %d KUnit tests passed, %4d s' "$subj" on \
		"$KUNIT_PASS" $(( $(date +%s) - t )))"
}

start=$(date +%s)
for i in "${!steps[@]}"; do
	[ "$i" -ge "$FROM" ] || continue
	"${G[@]}" checkout -q -f "${steps[$i]}"
	subj="$(printf '%02d' "$i") $("${G[@]}" log -1 --format=%s)"
	build off "$subj"
	mapfile -t kcs < <(cd "$TREE" && ls tools/testing/kunit/configs/sched_{util_signal,tune,walt}.config 2>/dev/null || true)
	if [ ${#kcs[@]} -gt 0 ]; then
		kunit "$subj" "${kcs[@]}"
	else
		build on "$subj"
	fi
done
# The KUnit options that are tristate, as modules: modpost fails on any
# symbol such a suite uses that the kernel does not export to it.
modules() { # subject
	local out=$BUILD/bisect-modules t m missing=()
	mkdir -p "$out"
	{
		cat "$BUILD/bisect-on.config"
		printf 'CONFIG_MODULES=y\nCONFIG_MODULE_UNLOAD=y\nCONFIG_KUNIT=y\n'
		printf 'CONFIG_SCHED_TUNE_KUNIT_TEST=m\nCONFIG_SCHED_WALT_KUNIT_TEST=m\n'
	} > "$out/.config"
	make -s -C "$TREE" O="$out" ARCH=x86_64 olddefconfig >/dev/null
	t=$(date +%s)
	if ! make -s -C "$TREE" O="$out" ARCH=x86_64 CC="ccache gcc" \
		-j"$(nproc)" vmlinux modules >"$out/build.log" 2>&1; then
		tail -20 "$out/build.log"
		die "step '$1': the tristate KUnit options do not build as modules"
	fi
	for m in tune_kunit walt_window_kunit; do
		[ -f "$out/kernel/sched/$m.ko" ] || missing+=("$m.ko")
	done
	[ ${#missing[@]} -eq 0 ] || die "step '$1': ${missing[*]} not built"
	log "$(printf '%-62s %-5s built in %4d s' "$1" modules $(( $(date +%s) - t )))"
}
modules "$subj"

"${G[@]}" checkout -q -f series
if [ "$FROM" -gt 1 ]; then
	what="steps $FROM-$(( ${#steps[@]} - 1 )) of ${#steps[@]}"
else
	what="all ${#steps[@]} steps"
fi
log "$what build with the options off and on and pass their KUnit suites: $(( $(date +%s) - start )) s"
