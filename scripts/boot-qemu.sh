#!/bin/sh
# Boots a cryptoqual kernel in QEMU (TCG) and reports the verdict.
#
#   scripts/boot-qemu.sh [--cpu MODEL] [--icount] [--log FILE] [--show]
#                        [--timeout SECONDS] -- KERNEL [kernel arguments...]
#   scripts/boot-qemu.sh --help
#
# The serial console goes to FILE (default: a temporary file) and, with
# --show, to the terminal as well. QEMU's exit status comes from the
# kernel's write to isa-debug-exit (kernel/run/report.h):
#   33 PASS, 35 FAIL, 37 crash (Bail out!), 0 triple fault, 124 timeout.
# This script exits 0 for PASS, 1 for FAIL, 2 for a crash, hang or any
# other status, and prints one line saying which (scripts/qemu-common.sh,
# shared with scripts/boot-media.sh). Bad usage: a message, exit 2.
set -u
# shellcheck source=scripts/qemu-common.sh
. "$(dirname "$0")/qemu-common.sh"

usage() {
	cat <<'USAGE'
usage: scripts/boot-qemu.sh [options] -- KERNEL [kernel arguments...]
  --cpu MODEL         QEMU CPU model (default max)
  --icount            -icount shift=0: the TSC counts instructions (repeatable timing)
  --log FILE          the serial console into FILE (default: a temporary file)
  --show              the serial console on the terminal as well
  --timeout SECONDS   a boot without a verdict by then is a hang (default 300)
Exit status: 0 PASS, 1 FAIL, 2 crash, hang, or bad usage.
USAGE
}

cpu=max
icount=""
log=""
show=0
timeout_s=300
while [ $# -gt 0 ]; do
	case "$1" in
	--cpu) need_value boot-qemu "$1" $#; cpu="$2"; shift 2 ;;
	--icount) icount="-icount shift=0,sleep=off,align=off"; shift ;;
	--log) need_value boot-qemu "$1" $#; log="$2"; shift 2 ;;
	--show) show=1; shift ;;
	--timeout) need_value boot-qemu "$1" $#; timeout_s="$2"; shift 2 ;;
	--help|-h) usage; exit 0 ;;
	--) shift; break ;;
	*) echo "boot-qemu: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done
[ $# -ge 1 ] || { echo "boot-qemu: no KERNEL after --" >&2; usage >&2; exit 2; }
kernel="$1"; shift
append="$*"
[ -f "$kernel" ] || { echo "boot-qemu: no kernel at $kernel (run make first)" >&2; exit 2; }

qemu_boot "$log" "$show" "$timeout_s" "$cpu" "$icount" -kernel "$kernel" -append "$append"
qemu_verdict boot-qemu "$qemu_status" "$timeout_s"
