#!/bin/sh
# kernel/platform/divdi3.c (the kernel's 64-bit division) against libgcc's,
# under qemu-i386 (tests/kernel/platform/test_divdi3.c).
. tests/tap-lib.sh
exec_i386 "$CQ_BUILD/i386/divdi3_test"
