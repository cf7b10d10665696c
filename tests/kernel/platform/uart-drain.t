#!/bin/sh
# kernel/platform/console.c's drain before a reset or halt, against a 16550
# model, under qemu-i386 (tests/kernel/platform/test_uart_drain.c).
. tests/tap-lib.sh
exec_i386 "$CQ_BUILD/i386/uart_drain_test"
