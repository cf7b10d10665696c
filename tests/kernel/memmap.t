#!/bin/sh
# kernel/platform/memmap.c against hand-made multiboot memory maps (no map, a usual
# map, a malformed entry, too many entries), under qemu-i386.
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/memmap_test"
if [ ! -x "$prog" ]; then
	echo "1..0 # SKIP $prog not built (make tools)"
	exit 0
fi
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
