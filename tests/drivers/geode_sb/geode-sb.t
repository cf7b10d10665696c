#!/bin/sh
# The Geode LX security block driver against its register-level model:
# KATs, lengths to 64 KiB, CBC chaining, wiping, TRNG modes, and every
# injected fault with its error text and a bounded wait. Runs
# build/i386/geode_sb_test (tests/drivers/geode_sb/test_geode_sb.c via mk/geode.mk)
# under qemu-i386, so pointers are 32-bit bus addresses as in the kernel.
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/geode_sb_test"
need_qemu_i386
need_program "$prog"
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
