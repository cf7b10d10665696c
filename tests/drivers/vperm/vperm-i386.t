#!/bin/sh
# The vector-permute AES engine (drivers/vperm) built for i386 and run
# under qemu-i386 -cpu max, whose CPU model has SSSE3: known answers,
# every mode against lib/crypto/aes, the engine's contract. Runs
# build/i386/vperm_test (tests/drivers/vperm/test_vperm.c via mk/vperm.mk).
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/vperm_test"
need_qemu_i386
need_program "$prog"
exec qemu-i386 -cpu max -L /usr/i686-linux-gnu "$prog"
