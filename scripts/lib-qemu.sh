# SPDX-License-Identifier: GPL-2.0
# Guest kernels, initramfs and QEMU boots for scripts/run.sh and
# scripts/stress.sh. Sourced after lib.sh, not executed.

GUEST=$BUILD/guest
mkdir -p "$GUEST" "$CCACHE_DIR"

# A kernel named *-arm64 is built for arm64 (the virtual SoC) with
# guest-arm64.config added before the extra fragment, any other for
# x86_64.
build_kernel() { # name tree [extra config fragment]
	local out=$BUILD/guest-$1 tree=$2 frag=$BUILD/guest-$1.frag
	local make=(make -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)")
	local image=bzImage extra=${3:-}
	mkdir -p "$out"
	if [[ $1 == *-arm64 ]]; then
		make=(make -C "$tree" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
		      CC="ccache aarch64-linux-gnu-gcc" -j"$(nproc)")
		image=Image
		# The SoC's options, then the caller's (the later win).
		cat "$REPO/scripts/guest/guest-arm64.config" ${extra:+"$extra"} > "$out/.config.extra"
		extra=$out/.config.extra
	fi
	cp "$REPO/scripts/guest/guest.config" "$frag"
	if [ -n "$extra" ]; then
		# The extra fragment's options replace the base's.
		awk 'function opt(l) { return match(l, /CONFIG_[A-Za-z0-9_]+/) ? substr(l, RSTART, RLENGTH) : "" }
		     FNR == NR { if (opt($0) != "") o[opt($0)] = 1; next }
		     !(opt($0) in o)' "$extra" "$REPO/scripts/guest/guest.config" > "$frag"
		cat "$extra" >> "$frag"
	fi
	if ! cmp -s "$frag" "$out/.config.frag" || [ ! -f "$out/.config" ]; then
		"${make[@]}" -s allnoconfig KCONFIG_ALLCONFIG="$frag"
		cp "$frag" "$out/.config.frag"
	fi
	"${make[@]}" -s olddefconfig
	# Every option the fragment sets (its last assignment wins, as in
	# Kconfig) must have survived olddefconfig.
	local line opt want=()
	while read -r line; do
		case "$line" in
		CONFIG_*=*) want+=("$line") ;;
		"# CONFIG_"*" is not set") line=${line#\# }; want+=("${line%% *}=n") ;;
		esac
	done < "$frag"
	for line in "${want[@]}"; do
		opt=${line%%=*}
		[ "$(printf '%s\n' "${want[@]}" | grep "^$opt=" | tail -1)" = "$line" ] || continue
		case "$line" in
		CONFIG_SCHED_UTIL_SIGNAL=*|CONFIG_SCHED_TUNE=*|CONFIG_SCHED_WALT=*)
			[[ $1 == baseline* ]] && continue ;;
		esac
		if [[ $line == *=n ]]; then
			! grep -q "^$opt=" "$out/.config" || die "$1 kernel config has $opt"
		else
			grep -qx "$line" "$out/.config" || die "$1 kernel config lacks $line"
		fi
	done
	log "building the $1 kernel (cold: ~5 min on 2 cores; warm: seconds)"
	local start=$(date +%s)
	"${make[@]}" -s $image
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

# Download Debian packages for arm64 into $CACHE/debs-arm64 (not installed:
# nothing arm64 runs on the host); apt's lists for arm64 sit next to the
# host's, dpkg is not told.
ARM64_APT=(apt-get -q -o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
download_arm64() { # package...
	local debs=$CACHE/debs-arm64 p missing=()
	mkdir -p "$debs"
	for p in "$@"; do
		ls "$debs/${p}"_*_arm64.deb >/dev/null 2>&1 || missing+=("$p:arm64")
	done
	[ ${#missing[@]} -eq 0 ] && return
	"${ARM64_APT[@]}" update >/dev/null
	(cd "$debs" && "${ARM64_APT[@]}" download "${missing[@]}" 2>&1 |
		grep -v '^W: Download is performed unsandboxed') ||
		die "cannot download ${missing[*]}"
}

# rt-app 1.0 for the virtual SoC, from Debian's source package: the
# upstream tarball that `apt-get source rt-app` fetches, through a private
# deb-src list (the host's apt configuration is not changed) and checked
# against the .dsc's SHA-256. Two patches: its run and runtime events do the
# emulated work of scripts/guest/emuwork.h instead of a calibrated loop
# (rt-app-emuwork.patch), and its shutdown wakes its waiting threads until
# they have all ended (rt-app-shutdown.patch: one broadcast could be missed
# by a thread about to wait, and rt-app then never exited; seen in 2 of
# about 10 runs of browser-long). Linked statically against Debian's json-c
# for arm64. workgen, rt-app's own preprocessor of its JSON files (Python
# 2), is converted with lib2to3 to run on the host's Python 3.
RTAPP=$CACHE/rt-app
make_rt_app_arm64() {
	local src=$RTAPP/src dsc tarball sum stamp p
	local apt=(apt-get -q -o Dir::Etc::SourceList="$RTAPP/deb-src.sources"
		   -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$RTAPP/lists")
	stamp=$(cat "$REPO"/scripts/guest/rt-app-*.patch \
		"$REPO/scripts/guest/emuwork.h" | md5sum)
	[ -x "$RTAPP/rt-app" ] && [ "$(cat "$RTAPP/.stamp" 2>/dev/null)" = "$stamp" ] &&
		return
	log "building rt-app 1.0 for arm64 from Debian's source package"
	mkdir -p "$src" "$RTAPP/lists/partial"
	if ! ls "$src"/rt-app_*.orig.tar.gz >/dev/null 2>&1; then
		cat > "$RTAPP/deb-src.sources" <<-EOF
		Types: deb-src
		URIs: http://deb.debian.org/debian
		Suites: bookworm
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOF
		"${apt[@]}" update >/dev/null || die "cannot read Debian's source index"
		# Only the upstream tarball is used: Debian's packaging part
		# may be missing from a mirror without failing the build.
		(cd "$src" && "${apt[@]}" source --download-only rt-app 2>&1 |
			grep -v '^W: Download is performed unsandboxed') || true
	fi
	dsc=$(ls "$src"/rt-app_*.dsc 2>/dev/null | tail -1)
	tarball=$(ls "$src"/rt-app_*.orig.tar.gz 2>/dev/null | tail -1)
	[ -n "$dsc" ] && [ -n "$tarball" ] || die "apt-get source rt-app fetched no tarball"
	sum=$(sha256sum "$tarball" | cut -d' ' -f1)
	grep -A3 '^Checksums-Sha256:' "$dsc" | grep -q " $sum .*$(basename "$tarball")" ||
		die "$tarball does not match $(basename "$dsc")"
	download_arm64 libjson-c-dev
	rm -rf "$RTAPP/build" "$RTAPP/sysroot" && mkdir -p "$RTAPP/build" "$RTAPP/sysroot"
	dpkg-deb -x "$(ls "$CACHE"/debs-arm64/libjson-c-dev_*_arm64.deb | tail -1)" \
		"$RTAPP/sysroot"
	tar -xzf "$tarball" -C "$RTAPP/build" --strip-components=1
	for p in "$REPO"/scripts/guest/rt-app-*.patch; do
		patch -p1 -s --fuzz=0 -d "$RTAPP/build" -i "$p" ||
			die "$(basename "$p") does not apply"
	done
	# What rt-app's configure finds on Debian 12 (no sched_setattr() in
	# glibc 2.36, so no SCHED_DEADLINE, which the workloads do not use).
	cat > "$RTAPP/build/src/config.h" <<-EOF
	#define HAVE_LIBPTHREAD 1
	#define HAVE_LIBM 1
	#define HAVE_LIBRT 1
	#define HAVE_LIBJSON_C 1
	#define LOG_LEVEL 50
	EOF
	# json-c 0.13 dropped the TRUE and FALSE that rt-app 1.0 uses.
	(cd "$RTAPP/build/src" && aarch64-linux-gnu-gcc -O2 -static -w \
		-DTRUE=1 -DFALSE=0 -I. -I../libdl -I"$REPO/scripts/guest" \
		-I"$RTAPP/sysroot/usr/include" -o "$RTAPP/rt-app" \
		rt-app.c rt-app_utils.c rt-app_args.c rt-app_parse_config.c \
		"$RTAPP/sysroot/usr/lib/aarch64-linux-gnu/libjson-c.a" \
		-lpthread -lm -lrt) || die "rt-app does not build for arm64"
	python3 -W ignore -m lib2to3 -n -w -o "$RTAPP" "$RTAPP/build/doc/workgen" \
		>/dev/null 2>&1 || die "cannot convert workgen to Python 3"
	echo "$stamp" > "$RTAPP/.stamp"
}

# rt-app's JSON file NAME (a path, or one of its doc/examples) through
# workgen into DIR/NAME, its global duration set to SECONDS: the only
# change made to a workload.
rt_app_json() { # name seconds dir
	local in=$1 out=$3/$(basename "$1")
	[ -f "$in" ] || in=$RTAPP/build/doc/examples/$1
	[ -f "$in" ] || die "no rt-app workload $1"
	python3 "$RTAPP/workgen" -d -o "$out.tmp" "$in" >/dev/null ||
		die "workgen failed on $1"
	# json-c takes trailing commas, which rt-app's files have: the
	# duration is replaced in the text, in the global section.
	python3 - "$out.tmp" "$2" "$out" <<-'EOF' || die "$1: no global duration"
	import re, sys
	text = open(sys.argv[1]).read()
	g = text.index('"global"')
	glob, n = re.subn(r'("duration"\s*:\s*)-?\d+', r"\g<1>" + sys.argv[2], text[g:], 1)
	if n != 1:
	    sys.exit(1)
	open(sys.argv[3], "w").write(text[:g] + glob)
	EOF
	rm -f "$out.tmp"
}

# The arm64 initramfs of the virtual SoC: Debian's busybox-static for
# arm64, schedbench and socload cross-compiled, rt-app (make_rt_app_arm64)
# with Table 4's workloads in /guest/rt-app (RTAPP_WORKLOADS, each run for
# RTAPP_SECONDS); the same /init and scripts.
RTAPP_WORKLOADS="video-long.json mp3-long.json browser-long.json"
RTAPP_SECONDS=${RTAPP_SECONDS:-10}
make_initramfs_arm64() {
	local debs=$CACHE/debs-arm64 deb dir=$GUEST/initramfs-arm64 w
	make_rt_app_arm64
	log "building the arm64 initramfs"
	download_arm64 busybox-static
	deb=$(ls "$debs"/busybox-static_*_arm64.deb | tail -1)
	rm -rf "$dir" && mkdir -p "$dir"/{bin,sbin,proc,sys,dev,tmp,guest/rt-app}
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$debs" ./bin/busybox
	cp "$debs/bin/busybox" "$dir/bin/"
	# The host's busybox-static is the same Debian build for amd64:
	# its applet list is the arm64 one's.
	for a in $(/bin/busybox --list); do
		[ -e "$dir/bin/$a" ] || ln -s busybox "$dir/bin/$a"
	done
	for prog in schedbench socload; do
		aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static \
			-o "$dir/bin/$prog" "$REPO/scripts/guest/$prog.c" -lm
	done
	cp "$RTAPP/rt-app" "$dir/bin/"
	for w in $RTAPP_WORKLOADS; do
		rt_app_json "$w" "$RTAPP_SECONDS" "$dir/guest/rt-app"
	done
	cp "$REPO/scripts/guest/init" "$dir/init"
	cp "$REPO"/scripts/guest/*.sh "$REPO"/scripts/guest/*.txt "$dir/guest/"
	(cd "$dir" && find . | cpio -o -H newc --quiet) > "$GUEST/initramfs-arm64.cpio"
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
	cp "$REPO"/scripts/guest/*.sh "$REPO"/scripts/guest/*.txt "$INITRD/guest/"
	# Replaced whole: another command's guest may be booting from it.
	(cd "$INITRD" && find . | cpio -o -H newc --quiet) > "$GUEST/initramfs.cpio.new"
	mv "$GUEST/initramfs.cpio.new" "$GUEST/initramfs.cpio"
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
# needs that anyway. GUEST_MTTCG=1 selects MTTCG, for a QEMU with the fix
# or an arm64 guest (whose static keys are patched one instruction at a
# time, with no int3 phase) that runs without -icount.
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
# What the stress and fault runs' kernel log must not hold (the series'
# consistency checks WARN); the guests' /init has the same list.
KERNEL_REPORTS='WARNING:|BUG:|Oops|possible .*deadlock|inconsistent lock state|KASAN:|UBSAN:|blocked for more than|stall on CPU|walt: |schedtune: '

# RESULT of the guest NAME, whose console is LOG: "NAME found kernel
# reports" instead of "NAME clean" when the console has a report that the
# guest's own kernel log, which it checked, had lost.
console_checked() { # result log name
	if [ "$1" = "$3 clean" ] && grep -aqE "$KERNEL_REPORTS" "$2"; then
		log "the console has reports that the guest's kernel log no longer had"
		echo "$3 found kernel reports"
	else
		echo "$1"
	fi
}

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

# The virtual SoC: QEMU's arm64 virt machine, one vCPU per CPU of the
# board (8), single-threaded TCG as every guest, with the board's CPUs,
# clusters, capacities and OPPs in its device tree (scripts/soc-dtb.py).
# QEMU_MEM (MB, default 512) sizes the machine; the device tree, dumped
# from QEMU, then holds that memory: a board's tree for another size is
# BOARD-MEM.dtb.
SOC_MACHINE=(-machine virt,gic-version=2 -cpu cortex-a53 -smp 8)

soc_dtb_file() { # board
	echo "$GUEST/$1${QEMU_MEM:+-$QEMU_MEM}.dtb"
}

soc_dtb() { # board: writes $(soc_dtb_file BOARD)
	qemu-system-aarch64 "${SOC_MACHINE[@]}" -m "${QEMU_MEM:-512}" -nographic \
		-machine dumpdtb="$GUEST/qemu-virt.dtb" >/dev/null 2>&1 ||
		die "QEMU cannot dump its arm64 virt device tree"
	python3 "$REPO/scripts/soc-dtb.py" "$1" "$SRC" "$GUEST/qemu-virt.dtb" \
		"$(soc_dtb_file "$1")"
}

boot_soc() { # log kernel-name board append [qemu options...]
	local out=$1 kernel=$BUILD/guest-$2/arch/arm64/boot/Image board=$3 append=$4
	shift 4
	timeout "${QEMU_TIMEOUT:-1800}" qemu-system-aarch64 -nodefaults -nographic \
		-no-reboot "${SOC_MACHINE[@]}" -m "${QEMU_MEM:-512}" -accel "$(guest_accel)" \
		-serial mon:stdio -dtb "$(soc_dtb_file "$board")" "$@" \
		-kernel "$kernel" -initrd "$GUEST/initramfs-arm64.cpio" \
		-append "console=ttyAMA0 panic=-1 quiet loglevel=${GUEST_LOGLEVEL:-4} $append ${GUEST_APPEND:-}" |
		sed -u 's/\r$//' > "$out"
	echo "${PIPESTATUS[0]}" > "$out.rc"
	grep -a 'GUEST RESULT' "$out" | tail -1 | sed 's/^GUEST RESULT: //' || true
}
