#!/bin/sh
# The Geode LX security block driver against its register-level model:
# KATs, lengths to 64 KiB, CBC chaining, wiping, TRNG modes, and every
# injected fault with its error text and a bounded wait. Runs
# build/i386/geode_sb_test (tests/drivers/geode_sb/geode_sb_test.c via mk/geode.mk)
# under qemu-i386, so pointers are 32-bit bus addresses as in the kernel.
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/geode_sb_test"
if ! command -v qemu-i386 >/dev/null 2>&1; then
	echo "TAP version 13"
	echo "1..0 # SKIP qemu-i386 (qemu-user) is not installed"
	exit 0
fi
if [ ! -x "$prog" ]; then
	echo "TAP version 13"
	echo "not ok 1 - $prog exists (run make tools)"
	echo "1..1"
	exit 1
fi
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
