#!/bin/sh
# The e1000 driver against a small register-level model of the 82540EM:
# reset (and a reset that never ends), station address, rings, padding,
# a stalled transmitter, reception, a full ring (missed frames counted),
# link. Runs build/i386/e1000_test (tests/drivers/e1000/test_e1000.c via
# mk/e1000.mk) under qemu-i386, so buffers have 32-bit bus addresses as in
# the kernel. The real proof is QEMU's e1000: tests/boot/net-report.t.
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/e1000_test"
need_qemu_i386
need_program "$prog"
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
