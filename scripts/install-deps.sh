#!/bin/sh
# Installs the Debian 12 packages cryptoqual needs to build and test, if any
# is missing. Shared by `make run`, `make check` and .ci/run. Idempotent:
# when everything is present it only checks and returns.
set -eu

PACKAGES="make gcc libc6-dev libssl-dev gcc-i686-linux-gnu binutils-i686-linux-gnu libc6-dev-i386-cross
qemu-system-x86 qemu-user libcmocka-dev libcmocka-dev:i386 clang perl coreutils git binutils
rng-tools5 ent python3-cryptography
grub-pc-bin grub-common xorriso mtools ipxe-qemu ipxe pxelinux syslinux-common gnuplot-nox python3
python3-hypothesis python3-jsonschema chromium rsyslog tftpd-hpa llvm-14"

# One dpkg-query for all (one per package took seconds, on every `make run`).
# binary:Package carries an architecture qualifier for foreign and Multi-Arch:
# same packages; a name given without one matches any.
installed=$(dpkg-query -W -f='${binary:Package} ${Status}\n' $PACKAGES 2>/dev/null |
	awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }') || true
missing=$(printf '%s\n' "$installed" | awk -v want="$PACKAGES" '
	{ have[$1] = 1; sub(/:.*/, ""); have[$1] = 1 }
	END { n = split(want, w, /[ \n\t]+/); for (i = 1; i <= n; i++) if (w[i] != "" && !(w[i] in have)) printf " %s", w[i] }')
[ -z "$missing" ] && exit 0

echo "install-deps: missing Debian packages:$missing"
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps: not root and no sudo: install them by hand:" >&2
		echo "  apt-get install --no-install-recommends$missing" >&2
		exit 1
	fi
fi
case "$missing" in
*:i386*)
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		$SUDO dpkg --add-architecture i386
	fi
	;;
esac
# A mirror in the middle of a sync can make one index fail; the install
# below still works from the indexes that did download.
$SUDO apt-get update -q || echo "install-deps: apt-get update reported errors; trying the install anyway"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
