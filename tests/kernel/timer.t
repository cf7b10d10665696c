#!/bin/sh
# kernel/platform/timer.c's TSC calibration and PIT/PM-timer cross-check
# against timer models that disagree by a set amount, under qemu-i386
# (tests/kernel/timer_test.c).
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/timer_test"
if [ ! -x "$prog" ]; then
	echo "1..0 # SKIP $prog not built (make tools)"
	exit 0
fi
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
