#!/bin/sh
# The VIA PadLock driver against the emulated C3 Nehemiah, C7 Esther, Nano
# Isaiah and Zhaoxin KX-7000 (and the C3 Samuel 2 without PadLock, and the
# synthetic "  Shanghai  " for the enable MSR by vendor string): runs
# build/i386/padlock_test (tests/drivers/padlock/test_padlock.c, built by `make tools`
# through mk/padlock.mk) under qemu-i386, which hands the PadLock opcodes
# to the emulator as SIGILL. The program prints its own TAP version 13.
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/padlock_test"
need_qemu_i386
need_program "$prog"
CQ_SHARED=${CQ_SHARED:-../shared} exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
