#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages the project needs; a no-op when present.
set -euo pipefail

PKGS=(linux-source-6.12 qemu-system-x86 qemu-system-arm qemu-system-data
      gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu sparse coccinelle
      flex bison bc libelf-dev libssl-dev ccache python3 xz-utils make gcc
      rsync cpio perl busybox-static rt-tests rt-app stress-ng git dwarves
      libc6-dev-arm64-cross device-tree-compiler gnuplot-nox python3-lib2to3)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "==> installing: ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
	--no-install-recommends "${missing[@]}"
