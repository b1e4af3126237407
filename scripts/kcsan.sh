#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites of the series (sched_* by default) on an x86_64 kernel
# with KCSAN, the data-race detector, plus the debug run's options but
# KASAN (which KCSAN excludes). WALT's and SchedTune's lock-free paths
# (seqcount readers, per-CPU records read from other CPUs, READ_ONCE
# fields) run there under live load. Every KCSAN report is printed with
# the functions it names; the run fails on a report whose racing
# functions (its title) include one of the series (walt_, sched_tune_/
# stune_, sched_util_, sugov_; a race in the kernel's own code that a
# test's call reaches is listed only) and on any other kernel warning.
# Failed cases are listed but
# do not fail the run: KCSAN's watchpoints stall the accessing task
# (80 us at a sampled access), so the live cases that time a spinner's
# share of a window (walt_migration_wakeup_test, walt_schedutil_input_test)
# can miss their bounds there, as they would on a host that steals the
# vCPU; their behaviour is checked by scripts/test.sh. Not in CI: a cold
# build takes 20 to 40 minutes on 2 cores.
#
#   scripts/kcsan.sh [--inject-race] [GLOB]
#   scripts/kcsan.sh [--inject-race] --stress SECONDS
#
# --stress runs scripts/stress.sh's workload instead (an x86_64 guest on 4
# vCPUs: hotplug, boost-group, signal, pl/hispeed and affinity churn, with
# hackbench and stress-ng) for SECONDS on a kernel with stress.sh's
# options but KASAN, and KCSAN; it fails on the same reports, and on any
# other kernel report or an incomplete run. SECONDS + about 2 min warm,
# its kernel about 7 min cold. Its reach is less than the suites': the
# guest runs single-threaded TCG (guest_accel), where a watchpoint's
# delay seldom lets another vCPU run, and the injected race below was
# not reported in 300 s of stress, where the suites' reader loop on a
# busy CPU caught it.
#
# kernel/sched is built without KCSAN (its Makefile), so the run adds the
# series' own objects to what KCSAN instruments; and it watches one access
# in 40 (kcsan.skip_watch) instead of KCSAN_SKIP_WATCH's 4000, so that a
# race with a write made once per tick is seen within one run.
#
# --inject-race builds the kernel with walt_rq_read(), the lock-free
# reader of a CPU's sums (schedutil's and placement's), outside its
# seqcount read section: plain reads of sums that the CPU's tick writes
# (walt_read_rollover_test reads a busy CPU's in a loop for ten windows).
# The run then passes only if KCSAN reports a race in walt_rq_read() or
# in walt_cpu_util_at(), its only caller, where it may be inlined.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

inject=0 stress=0
[ "${1:-}" = --inject-race ] && { inject=1; shift; }
if [ "${1:-}" = --stress ]; then
	[ $# = 2 ] && [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge 10 ] ||
		die "--stress takes a number of seconds >= 10"
	stress=$2
	shift 2
fi
[ $# -le 1 ] && [[ "${1:-}" != -* ]] || die "usage: $0 [--inject-race] [--stress SECONDS | GLOB]"
filter=${1:-sched_*}
"$REPO/scripts/setup.sh" || die "package installation failed"
"$REPO/scripts/prepare-tree.sh" || exit 1

# kernel/sched is built without KCSAN (its Makefile: KCSAN_SANITIZE := n,
# against noise and slowness), which would leave the series' lock-free
# paths unwatched: the run instruments the series' own objects.
f=$SRC/kernel/sched/Makefile
grep -q '^KCSAN_SANITIZE_walt.o' "$f" ||
	printf 'KCSAN_SANITIZE_%s.o := y\n' util_signal tune walt >> "$f"
if [ $inject = 1 ]; then
	f=$SRC/kernel/sched/walt.c
	sed -i '/^static bool walt_rq_read(/,/^}/{
		s/start = read_seqcount_begin(seq);/start = 0; \/* injected race *\//
		s/} while (read_seqcount_retry(seq, start));/} while (start);/
	}' "$f"
	grep -q 'injected race' "$f" || die "cannot find walt_rq_read()'s read section in $f"
	log "injected: walt_rq_read() copies a CPU's sums outside its seqcount read section"
fi
# The next prepare-tree.sh run restores the Makefile and walt.c.
mkdir -p "$BUILD" "$CCACHE_DIR"
export PYTHONDONTWRITEBYTECODE=1

start=$(date +%s)
if [ $stress = 0 ]; then
	kunit_opts x86_64-kcsan
	out=$BUILD/kunit-x86_64-kcsan.log
	log "kunit.py run --arch=x86_64 with KCSAN (filter $filter)"
	kunit_boot x86_64-kcsan "$out" run "${KUNIT_OPTS[@]}" --jobs="$(nproc)" \
		--kernel_args=kcsan.skip_watch=40 "$filter"
	cat "$out"
	kunit_result x86_64-kcsan "$out"
	klog=$BUILD/x86_64-kcsan/test.log
else
	. "$REPO/scripts/lib-qemu.sh"
	# stress.sh's kernel, KCSAN instead of KASAN.
	{ grep -v '^CONFIG_KASAN' "$REPO/scripts/guest/stress.config"
	  echo '# CONFIG_KASAN is not set'
	  cat "$REPO/scripts/kunit/kcsan.config"; } > "$BUILD/stress-kcsan.extra"
	build_kernel stress-kcsan "$SRC" "$BUILD/stress-kcsan.extra"
	make_initramfs
	out=$GUEST/stress-kcsan.log klog=$out
	log "booting: stress for $stress s under KCSAN (x86_64, 4 vCPUs)"
	res=$(GUEST_LOGLEVEL=5 QEMU_CPUS=4 QEMU_MEM=2048 QEMU_TIMEOUT=$((stress * 3 + 900)) \
		boot "$out" stress-kcsan \
		"guest_mode=churn stress_seconds=$stress log_buf_len=16M kcsan.skip_watch=40")
	grep -aE '^(stress|STRESS|[a-z-]+=)' "$out" || true
	[ -n "$res" ] || guest_failed stress-kcsan "$out"
	log "stress: ${res:-the guest did not finish} (log $out)"
fi
# One line per report: its title and the functions of its stacks.
reports=$(awk '/BUG: KCSAN:/ { if (r) print r; r = $0; next }
	       r && /^ *[a-z_0-9.]+\+0x/ { sub(/^ */, ""); sub(/\+0x.*/, ""); r = r " " $0 }
	       /^=+$/ && r { print r; r = "" }
	       END { if (r) print r }' "$klog" 2>/dev/null | sed 's/^.*BUG: //')
# The series' reports: a racing function (the title's) is the series'.
ours=$(grep -E '^KCSAN: [a-z-]+ in ([^ ]+ / )?(walt_|sched_tune_|stune_|sched_util_|sugov_)' <<<"$reports" || true)
log "KCSAN: $(grep -c . <<<"$reports") report(s), $(grep -c . <<<"$ours") naming the series, after $(( $(date +%s) - start )) s"
[ -n "$reports" ] && echo "$reports"
if [ $inject = 1 ]; then
	grep -qE 'walt_rq_read|walt_cpu_util_at' <<<"$ours" ||
		die "the injected race was not caught"
	log "the injected race was caught by KCSAN"
	exit 0
fi
status=0
if [ $stress = 0 ]; then
	grep -aq 'kcsan: enabled' "$klog" || { log "KCSAN was not enabled"; status=1; }
else
	# The console shows no KERN_INFO line: check the build instead.
	# (grep -c, not -q: an early exit would fail nm's side of the pipe.)
	grep -q '^CONFIG_KCSAN=y$' "$BUILD/guest-stress-kcsan/.config" &&
		[ "$(nm "$BUILD/guest-stress-kcsan/kernel/sched/walt.o" | grep -c __tsan_)" -gt 0 ] ||
		{ log "KCSAN was not built in, or walt.o not instrumented"; status=1; }
fi
[ -z "$ours" ] || { log "KCSAN reports in the series' code (above)"; status=1; }
if [ $stress != 0 ]; then
	# The guest's verdict counts KCSAN's reports too; the host judged
	# them above, and every other report fails the run.
	grep -aE "$KERNEL_REPORTS" "$klog" | grep -av 'BUG: KCSAN:' &&
		{ log "kernel reports (above)"; status=1; }
	case $res in
	"stress clean"|"stress found kernel reports") ;;
	*) log "the stress run did not complete: ${res:-no result}"; status=1 ;;
	esac
	[ $status = 0 ] && echo "stress under KCSAN clean after $(( $(date +%s) - start )) s"
	exit $status
fi
grep -E '\[FAILED\] [a-z_0-9]+_test' "$out" | sed 's/^/failed under KCSAN (timing, see the head): /'
grep -nE 'WARNING:|BUG:|KASAN:|UBSAN:|Oops|INFO: trying to register non-static key' \
	"$klog" | grep -v 'BUG: KCSAN:' && { log "kernel warnings (above)"; status=1; }
[ "$KUNIT_PASS" -gt 0 ] || { log "no case passed: the kernel did not build or boot"; status=1; }
echo "$KUNIT_PASS passed, $KUNIT_FAIL failed"
exit $status
