#!/bin/sh
# kernel/platform/memmap.c against hand-made multiboot memory maps (no map, a usual
# map, a malformed entry, too many entries), under qemu-i386.
. tests/tap-lib.sh
exec_i386 "$CQ_BUILD/i386/memmap_test"
