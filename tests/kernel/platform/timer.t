#!/bin/sh
# kernel/platform/timer.c's TSC calibration and PIT/PM-timer cross-check
# against timer models that disagree by a set amount, under qemu-i386
# (tests/kernel/platform/test_timer.c).
. tests/tap-lib.sh
exec_i386 "$CQ_BUILD/i386/timer_test"
