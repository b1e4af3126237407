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

# QEMU_MEM, QEMU_CPUS and QEMU_TIMEOUT (s) override 512 MB, 2 vCPUs, 1200 s.
boot() { # log kernel-name append [qemu options...]
	local out=$1 kernel=$BUILD/guest-$2/arch/x86/boot/bzImage append=$3
	shift 3
	timeout "${QEMU_TIMEOUT:-1200}" qemu-system-x86_64 -nodefaults -nographic \
		-no-reboot -m "${QEMU_MEM:-512}" -smp "${QEMU_CPUS:-2}" -cpu $GUEST_CPU \
		-bios qboot.rom -serial mon:stdio "$@" \
		-kernel "$kernel" -initrd "$GUEST/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 quiet loglevel=${GUEST_LOGLEVEL:-4} $append" |
		sed -u 's/\r$//' > "$out" || true
	grep -a 'GUEST RESULT' "$out" | tail -1 | sed 's/^GUEST RESULT: //'
}
