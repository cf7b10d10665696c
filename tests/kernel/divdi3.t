#!/bin/sh
# kernel/platform/divdi3.c (the kernel's 64-bit division) against libgcc's,
# under qemu-i386 (tests/kernel/divdi3_test.c).
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/divdi3_test"
if [ ! -x "$prog" ]; then
	echo "1..0 # SKIP $prog not built (make tools)"
	exit 0
fi
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
