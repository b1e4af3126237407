# SPDX-License-Identifier: GPL-2.0
# Guest kernels, initramfs and QEMU boots for scripts/run.sh and
# scripts/stress.sh. Sourced after lib.sh, not executed.

GUEST=$BUILD/guest
mkdir -p "$GUEST" "$CCACHE_DIR"

build_kernel() { # name tree [extra config fragment]
	local out=$BUILD/guest-$1 tree=$2 frag=$BUILD/guest-$1.frag
	local make=(make -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)")
	mkdir -p "$out"
	cat "$REPO/scripts/guest/guest.config" ${3:+"$3"} > "$frag"
	if ! cmp -s "$frag" "$out/.config.frag" || [ ! -f "$out/.config" ]; then
		"${make[@]}" -s allnoconfig KCONFIG_ALLCONFIG="$frag"
		cp "$frag" "$out/.config.frag"
	fi
	"${make[@]}" -s olddefconfig
	while read -r line; do
		case "$line" in
		CONFIG_*=n) continue ;;
		CONFIG_SCHED_UTIL_SIGNAL=*|CONFIG_SCHED_TUNE=*|CONFIG_SCHED_WALT=*)
			[ "$1" = baseline ] && continue ;;
		CONFIG_*) ;;
		*) continue ;;
		esac
		grep -qx "$line" "$out/.config" || die "$1 kernel config lacks $line"
	done < "$frag"
	log "building the $1 kernel (cold: ~5 min on 2 cores; warm: seconds)"
	local start=$(date +%s)
	"${make[@]}" -s bzImage
	log "$1 kernel built in $(( $(date +%s) - start )) s"
}

# The baseline tree $BASE_SRC: pristine 6.12 and the test-only patches
# (series-test: the virtual OPP driver), so that the baseline kernel runs
# schedutil too.
BASE_SRC=$CACHE/linux-baseline
prepare_baseline_tree() {
	local p stamp
	stamp=$(cd "$REPO/patches" && cat $(series_patches series-test) | md5sum)
	[ "$(cat "$BASE_SRC/.sched-util-baseline" 2>/dev/null)" = "$stamp" ] && return
	log "preparing the baseline tree $BASE_SRC"
	rm -rf "$BASE_SRC" && cp -al "$PRISTINE" "$BASE_SRC"
	rm -f "$BASE_SRC/.sched-util-pristine"
	for p in $(series_patches series-test); do
		patch -p1 -N -s --fuzz=0 --no-backup-if-mismatch -d "$BASE_SRC" \
			-i "$REPO/patches/$p" || die "$p does not apply to 6.12"
	done
	echo "$stamp" > "$BASE_SRC/.sched-util-baseline"
}

make_initramfs() {
	log "building the initramfs"
	INITRD=$GUEST/initramfs
	rm -rf "$INITRD" && mkdir -p "$INITRD"/{bin,sbin,proc,sys,dev,tmp,guest}
	cp /bin/busybox "$INITRD/bin/"
	for a in $("$INITRD/bin/busybox" --list); do
		[ -e "$INITRD/bin/$a" ] || ln -s busybox "$INITRD/bin/$a"
	done
	for prog in hackbench rt-app stress-ng; do
		path=$(command -v "$prog") || die "$prog missing: run scripts/setup.sh"
		cp "$path" "$INITRD/bin/"
		for lib in $(ldd "$path" | grep -o '/[^ ]*'); do
			mkdir -p "$INITRD$(dirname "$lib")"
			cp -L "$lib" "$INITRD$lib"
		done
	done
	# glibc's pthread_exit() dlopen()s libgcc_s for unwinding (rt-app).
	libgcc=$(gcc -print-file-name=libgcc_s.so.1)
	cp -L "$libgcc" "$INITRD/lib/x86_64-linux-gnu/libgcc_s.so.1"
	gcc -O2 -Wall -Wextra -Werror -static -o "$INITRD/bin/schedbench" \
		"$REPO/scripts/guest/schedbench.c"
	cp "$REPO/scripts/guest/init" "$INITRD/init"
	cp "$REPO"/scripts/guest/*.sh "$INITRD/guest/"
	(cd "$INITRD" && find . | cpio -o -H newc --quiet) > "$GUEST/initramfs.cpio"
}

# The guest CPU: TCG's "max" with an Intel family 6 identity, for which
# Linux knows the TSC is constant (TCG cannot offer invtsc). Otherwise the
# TSC's cpufreq notifier stays registered: the first OPP change of the
# virtual OPP driver marks the TSC unstable ("cpufreq changes on SMP"),
# the clocksource falls back to refined-jiffies (4 ms resolution, for WALT
# too), and schedutil cannot use fast switching.
GUEST_CPU=max,vendor=GenuineIntel,family=6,model=85

# TCG threading. QEMU 7.2 (Debian 12) with multi-threaded TCG (MTTCG, one
# host thread per vCPU, its default for x86 guests) crashes x86 guests
# while they patch code: a vCPU can keep executing a translation that holds
# the temporary int3 of text_poke_bp() after another vCPU has finished the
# patch, and the guest takes an int3 Oops at a static key or static call
# site (QEMU 8.1.0 fixed it, "accel/tcg: Always lock pages before
# translation", deba78709ae8). A pristine 6.12 guest that only turns the
# sched trace events on and off under hackbench crashed so in 10 of 10
# boots under MTTCG and in 0 of 10 single-threaded (`scripts/flake.sh
# --keyflip N`; README "Reliability"). Every guest therefore runs
# single-threaded TCG (one host thread runs all vCPUs in turn); -icount
# needs that anyway. GUEST_MTTCG=1 selects MTTCG, for a QEMU with the fix.
guest_accel() {
	if [ -n "${GUEST_MTTCG:-}" ]; then
		echo tcg,thread=multi
	else
		echo tcg,thread=single
	fi
}

# QEMU_MEM, QEMU_CPUS and QEMU_TIMEOUT (s) override 512 MB, 2 vCPUs, 1200 s;
# GUEST_APPEND is added to every guest's kernel command line
# (guest_crash=MODE makes that part's /init exit at once: the kernel
# panics, to check that a crashed guest is reported). Prints the guest's
# result line, or nothing if it crashed, hung or ended without one; QEMU's
# exit status (124: killed at the timeout) goes to LOG.rc, since callers
# run boot() in a command substitution.
boot() { # log kernel-name append [qemu options...]
	local out=$1 kernel=$BUILD/guest-$2/arch/x86/boot/bzImage append=$3
	shift 3
	timeout "${QEMU_TIMEOUT:-1200}" qemu-system-x86_64 -nodefaults -nographic \
		-no-reboot -m "${QEMU_MEM:-512}" -smp "${QEMU_CPUS:-2}" -cpu $GUEST_CPU \
		-accel "$(guest_accel)" -bios qboot.rom -serial mon:stdio "$@" \
		-kernel "$kernel" -initrd "$GUEST/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 quiet loglevel=${GUEST_LOGLEVEL:-4} $append ${GUEST_APPEND:-}" |
		sed -u 's/\r$//' > "$out"
	echo "${PIPESTATUS[0]}" > "$out.rc"
	grep -a 'GUEST RESULT' "$out" | tail -1 | sed 's/^GUEST RESULT: //' || true
}

# Explain a guest that did not print its result line: which part, how it
# ended, the kernel's report (Oops, panic, WARN) and the log's last lines.
guest_failed() { # part log
	local how="ended without its result line" rc
	rc=$(cat "$2.rc" 2>/dev/null || echo '?')
	if [ "$rc" = 124 ]; then
		how="hung: QEMU was killed at its timeout"
	elif grep -aqE 'Kernel panic|Oops|BUG:' "$2"; then
		how="crashed"
	fi
	printf '==> %s: the guest %s (QEMU exit %s); log %s\n' "$1" "$how" \
		"$rc" "$2" >&2
	if grep -aqE 'Oops|BUG:|WARNING:|Kernel panic' "$2"; then
		echo "--- first kernel report:" >&2
		grep -aE -m1 -A25 'Oops|BUG:|WARNING:|Kernel panic' "$2" >&2
	fi
	echo "--- last lines of $2:" >&2
	tail -n 15 "$2" >&2
}
