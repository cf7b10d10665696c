#!/bin/sh
# Boots a cryptoqual kernel in QEMU (TCG) and reports the verdict.
#
#   scripts/boot-qemu.sh [--cpu MODEL] [--icount] [--log FILE] [--show]
#                        [--timeout SECONDS] -- KERNEL [kernel arguments...]
#
# The serial console goes to FILE (default: a temporary file) and, with
# --show, to the terminal as well. QEMU's exit status comes from the
# kernel's write to isa-debug-exit (kernel/report.h):
#   33 PASS, 35 FAIL, 37 crash (Bail out!), 0 triple fault, 124 timeout.
# This script exits 0 for PASS, 1 for FAIL, 2 for a crash, hang or any
# other status, and prints one line saying which.
set -u

cpu=max
icount=""
log=""
show=0
timeout_s=300
while [ $# -gt 0 ]; do
	case "$1" in
	--cpu) cpu="$2"; shift 2 ;;
	--icount) icount="-icount shift=0,sleep=off,align=off"; shift ;;
	--log) log="$2"; shift 2 ;;
	--show) show=1; shift ;;
	--timeout) timeout_s="$2"; shift 2 ;;
	--) shift; break ;;
	*) echo "boot-qemu: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: boot-qemu.sh [options] -- KERNEL [args...]" >&2; exit 2; }
kernel="$1"; shift
append="$*"
[ -f "$kernel" ] || { echo "boot-qemu: no kernel at $kernel (run make first)" >&2; exit 2; }
tmp=""
if [ -z "$log" ]; then
	tmp=$(mktemp)
	log="$tmp"
fi
: > "$log"

# -serial file: keeps the console byte-exact; --show follows it live.
if [ "$show" = 1 ]; then
	tail -n +1 -f "$log" &
	tailpid=$!
fi
# shellcheck disable=SC2086
timeout --foreground -k 5 "$timeout_s" qemu-system-i386 -M pc -m 128 -cpu "$cpu" $icount \
	-display none -monitor none -no-reboot \
	-serial "file:$log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	${QEMU_EXTRA:-} \
	-kernel "$kernel" -append "$append"
status=$?
if [ "$show" = 1 ]; then
	sleep 0.3
	kill "$tailpid" 2>/dev/null
	wait "$tailpid" 2>/dev/null
fi
[ -n "$tmp" ] && rm -f "$tmp"

case $status in
33) echo "boot-qemu: PASS (qemu exit status 33)"; exit 0 ;;
35) echo "boot-qemu: FAIL (qemu exit status 35)"; exit 1 ;;
37) echo "boot-qemu: CRASH: the kernel bailed out (qemu exit status 37)"; exit 2 ;;
0) echo "boot-qemu: CRASH: triple fault or reset (qemu exit status 0)"; exit 2 ;;
124|137) echo "boot-qemu: HANG: no verdict within ${timeout_s} s"; exit 2 ;;
*) echo "boot-qemu: unexpected qemu exit status $status"; exit 2 ;;
esac
