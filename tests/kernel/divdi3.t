#!/bin/sh
# kernel/platform/divdi3.c (the kernel's 64-bit division) against libgcc's,
# under qemu-i386 (tests/kernel/divdi3_test.c).
. tests/tap-lib.sh
exec_i386 "$CQ_BUILD/i386/divdi3_test"
