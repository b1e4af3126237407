#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's main command: build the patched x86_64 kernel outside the
# repository, boot it in QEMU (2 vCPUs, no network, nothing on the host
# kernel) with a busybox initramfs, and run scripts/guest/demo.sh in the
# guest: the framework's selection knobs, SchedTune through sysctl and
# cgroup v2 and through an Android-style /dev/stune cgroup v1 layout,
# WALT's debug fields, bad input on every knob, and a load run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$REPO/scripts/setup.sh"
"$REPO/scripts/prepare-tree.sh"

OUT=$BUILD/guest-x86_64
mkdir -p "$OUT" "$CCACHE_DIR"
MAKE=(make -C "$SRC" O="$OUT" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)")

log "configuring the guest kernel"
cp "$REPO/scripts/guest/guest.config" "$OUT/.config.want"
if ! cmp -s "$OUT/.config.want" "$OUT/.config.frag" 2>/dev/null ||
   [ ! -f "$OUT/.config" ]; then
	"${MAKE[@]}" -s allnoconfig KCONFIG_ALLCONFIG="$OUT/.config.want"
	cp "$OUT/.config.want" "$OUT/.config.frag"
fi
"${MAKE[@]}" -s olddefconfig
while read -r line; do
	case "$line" in CONFIG_*=n) continue ;; CONFIG_*) ;; *) continue ;; esac
	grep -qx "$line" "$OUT/.config" || die "guest config lacks $line"
done < "$OUT/.config.want"

log "building bzImage (cold: ~6 min on 2 cores; warm: seconds)"
start=$(date +%s)
"${MAKE[@]}" -s bzImage
log "built in $(( $(date +%s) - start )) s"

log "building the initramfs"
INITRD=$OUT/initramfs
rm -rf "$INITRD" && mkdir -p "$INITRD"/{bin,sbin,proc,sys,dev,tmp,lib,lib64}
cp /bin/busybox "$INITRD/bin/"
for a in $("$INITRD/bin/busybox" --list); do
	[ -e "$INITRD/bin/$a" ] || ln -s busybox "$INITRD/bin/$a"
done
cp "$(command -v hackbench)" "$INITRD/bin/"
for lib in $(ldd "$(command -v hackbench)" | grep -o '/[^ ]*'); do
	mkdir -p "$INITRD$(dirname "$lib")"
	cp -L "$lib" "$INITRD$lib"
done
cp "$REPO/scripts/guest/demo.sh" "$INITRD/init"
(cd "$INITRD" && find . | cpio -o -H newc --quiet) > "$OUT/initramfs.cpio"

log "booting QEMU (x86_64, 2 vCPUs, TCG)"
qemu-system-x86_64 -nodefaults -nographic -no-reboot -m 512 -smp 2 \
	-bios qboot.rom -serial mon:stdio \
	-kernel "$OUT/arch/x86/boot/bzImage" -initrd "$OUT/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4" |
	tee "$OUT/console.log" | grep -vE '^\s*$'

result=$(grep -a 'GUEST RESULT' "$OUT/console.log" | tail -1 | tr -d '\r')
[ -n "$result" ] || die "the guest did not finish (see $OUT/console.log)"
echo "${result#GUEST RESULT: }"
grep -q ' 0 failed' <<<"$result"
