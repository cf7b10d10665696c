#!/bin/sh
# The VIA PadLock driver against the emulated C3 Nehemiah, C7 Esther and
# Nano Isaiah (and the C3 Samuel 2 without PadLock): runs
# build/i386/padlock_test (tests/drivers/padlock/padlock_test.c, built by `make tools`
# through mk/padlock.mk) under qemu-i386, which hands the PadLock opcodes
# to the emulator as SIGILL. The program prints its own TAP version 13.
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/padlock_test"
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
CQ_SHARED=${CQ_SHARED:-../shared} exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
