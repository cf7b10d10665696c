#!/bin/sh
# The VIA Rhine driver against its register-level model: open, padding,
# receive filter, ring wrap-around, RX flood and recovery, receive errors,
# reset/EEPROM/link/D3/address faults with bounded waits, four NICs, and
# the DMA engine running concurrently with the driver. Runs
# build/i386/rhine_test (tests/drivers/rhine/test_rhine.c via mk/rhine.mk)
# under qemu-i386, so pointers are 32-bit bus addresses as in the kernel.
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/rhine_test"
need_qemu_i386
need_program "$prog"
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
