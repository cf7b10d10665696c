#!/bin/sh
# Boots a cryptoqual boot medium in QEMU (TCG), the way a box in the field
# boots it, and reports the verdict (sibling of scripts/boot-qemu.sh, which
# boots the kernel with -kernel).
#
#   scripts/boot-media.sh (--cf IMG | --iso ISO | --pxe-ipxe DIR | --pxe-grub DIR
#                          | --pxe-pxelinux DIR) [--cpu MODEL] [--bootfile FILE]
#                          [--log FILE] [--show] [--timeout SECONDS]
#   scripts/boot-media.sh --help
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
# --show, to the terminal as well. Exit statuses as scripts/boot-qemu.sh
# (both use scripts/qemu-common.sh): 0 PASS (QEMU 33), 1 FAIL (35), 2 crash
# (37), triple fault (0), hang past the timeout or anything else; one line
# on stdout says which. Bad usage: a message, exit 2.
set -u
# shellcheck source=scripts/qemu-common.sh
. "$(dirname "$0")/qemu-common.sh"

usage() {
	cat <<'USAGE'
usage: scripts/boot-media.sh MEDIUM [options]
  MEDIUM: one of
  --cf IMG            the CompactFlash image as the primary IDE disk
  --iso ISO           the rescue ISO as an IDE CD-ROM
  --pxe-ipxe DIR      PXE through QEMU's iPXE ROM (DIR/cryptoqual.ipxe)
  --pxe-grub DIR      PXE: DIR/boot/grub/i386-pc/core.0 (GRUB netboot)
  --pxe-pxelinux DIR  PXE: DIR/pxelinux.0 (PXELINUX)
  options:
  --cpu MODEL         QEMU CPU model (default pentium,+cmov; qemu32 for PXE)
  --bootfile FILE     the PXE boot file, relative to DIR
  --log FILE          the serial console into FILE (default: a temporary file)
  --show              the serial console on the terminal as well
  --timeout SECONDS   a boot without a verdict by then is a hang (default 120)
Exit status: 0 PASS, 1 FAIL, 2 crash, hang, or bad usage.
USAGE
}

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
		need_value boot-media "$1" $#; kind=${1#--}; medium="$2"; shift 2 ;;
	--cpu) need_value boot-media "$1" $#; cpu="$2"; shift 2 ;;
	--bootfile) need_value boot-media "$1" $#; bootfile="$2"; shift 2 ;;
	--log) need_value boot-media "$1" $#; log="$2"; shift 2 ;;
	--show) show=1; shift ;;
	--timeout) need_value boot-media "$1" $#; timeout_s="$2"; shift 2 ;;
	--help|-h) usage; exit 0 ;;
	*) echo "boot-media: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done
[ -n "$kind" ] || { echo "boot-media: no medium given" >&2; usage >&2; exit 2; }
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

qemu_boot "$log" "$show" "$timeout_s" "$cpu" "" "$@"
qemu_verdict "boot-media: $kind" "$qemu_status" "$timeout_s"
