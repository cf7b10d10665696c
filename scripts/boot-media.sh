#!/bin/sh
# Boots a cryptoqual boot medium in QEMU (TCG), the way a box in the field
# boots it, and reports the verdict (sibling of scripts/boot-qemu.sh, which
# boots the kernel with -kernel).
#
#   scripts/boot-media.sh (--cf IMG | --iso ISO | --pxe-ipxe DIR | --pxe-grub DIR
#                          | --pxe-pxelinux DIR) [--cpu MODEL] [--bootfile FILE]
#                          [--log FILE] [--show] [--timeout SECONDS]
#
#   --cf IMG           the CompactFlash image as the primary IDE master disk
#   --iso ISO          the rescue ISO as an IDE CD-ROM
#   --pxe-ipxe DIR     PXE through QEMU's own iPXE ROM: DHCP hands out the iPXE
#                      script DIR/cryptoqual.ipxe (or --bootfile)
#   --pxe-grub DIR     PXE: DIR/boot/grub/i386-pc/core.0 (GRUB netboot)
#   --pxe-pxelinux DIR PXE: DIR/pxelinux.0 (PXELINUX, mboot.c32)
# The PXE boots use QEMU's user-mode network: its built-in DHCP and TFTP
# server (serving DIR) answer an e1000; nothing leaves QEMU.
#
# CPU defaults: pentium,+cmov (the nearest QEMU model to a Geode LX) for
# disks, qemu32 for PXE (QEMU's iPXE ROM hangs under the pentium models).
# The serial console goes to FILE (default: a temporary file) and, with
# --show, to the terminal as well. Exit statuses as scripts/boot-qemu.sh:
# 0 PASS (QEMU 33), 1 FAIL (35), 2 crash (37), triple fault (0), hang past
# the timeout or anything else; one line on stdout says which.
set -u

kind=""
medium=""
cpu=""
bootfile=""
log=""
show=0
timeout_s=120
while [ $# -gt 0 ]; do
	case "$1" in
	--cf|--iso|--pxe-ipxe|--pxe-grub|--pxe-pxelinux)
		[ -z "$kind" ] || { echo "boot-media: give one medium only" >&2; exit 2; }
		kind=${1#--}; medium="$2"; shift 2 ;;
	--cpu) cpu="$2"; shift 2 ;;
	--bootfile) bootfile="$2"; shift 2 ;;
	--log) log="$2"; shift 2 ;;
	--show) show=1; shift ;;
	--timeout) timeout_s="$2"; shift 2 ;;
	*) echo "boot-media: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -n "$kind" ] || { echo "usage: boot-media.sh (--cf IMG | --iso ISO | --pxe-ipxe DIR | --pxe-grub DIR | --pxe-pxelinux DIR) [options]" >&2; exit 2; }
[ -e "$medium" ] || { echo "boot-media: no $kind medium at $medium (make cf-image / iso / pxe)" >&2; exit 2; }

case "$kind" in
cf)
	set -- -drive "file=$medium,format=raw,if=ide,index=0,media=disk,snapshot=on" -boot c ;;
iso)
	set -- -drive "file=$medium,format=raw,if=ide,index=2,media=cdrom,readonly=on" -boot d ;;
pxe-*)
	case "$kind" in
	pxe-ipxe) bootfile=${bootfile:-cryptoqual.ipxe} ;;
	pxe-grub) bootfile=${bootfile:-boot/grub/i386-pc/core.0} ;;
	pxe-pxelinux) bootfile=${bootfile:-pxelinux.0} ;;
	esac
	[ -f "$medium/$bootfile" ] || { echo "boot-media: no boot file $medium/$bootfile" >&2; exit 2; }
	# slirp's TFTP server wants an absolute root.
	dir=$(cd "$medium" && pwd)
	set -- -boot n -netdev "user,id=n0,tftp=$dir,bootfile=$bootfile" -device e1000,netdev=n0
	cpu=${cpu:-qemu32} ;;
esac
cpu=${cpu:-pentium,+cmov}

tmp=""
if [ -z "$log" ]; then
	tmp=$(mktemp)
	log="$tmp"
fi
: > "$log"
if [ "$show" = 1 ]; then
	tail -n +1 -f "$log" &
	tailpid=$!
fi
# shellcheck disable=SC2086
timeout --foreground -k 5 "$timeout_s" qemu-system-i386 -M pc -m 128 -cpu "$cpu" \
	-display none -monitor none -no-reboot \
	-serial "file:$log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	${QEMU_EXTRA:-} "$@"
status=$?
if [ "$show" = 1 ]; then
	sleep 0.3
	kill "$tailpid" 2>/dev/null
	wait "$tailpid" 2>/dev/null
fi
[ -n "$tmp" ] && rm -f "$tmp"

case $status in
33) echo "boot-media: $kind: PASS (qemu exit status 33)"; exit 0 ;;
35) echo "boot-media: $kind: FAIL (qemu exit status 35)"; exit 1 ;;
37) echo "boot-media: $kind: CRASH: the kernel bailed out (qemu exit status 37)"; exit 2 ;;
0) echo "boot-media: $kind: CRASH: triple fault or reset (qemu exit status 0)"; exit 2 ;;
124|137) echo "boot-media: $kind: HANG: no verdict within ${timeout_s} s"; exit 2 ;;
*) echo "boot-media: $kind: unexpected qemu exit status $status"; exit 2 ;;
esac
