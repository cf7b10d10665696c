#!/bin/sh
# kernel/platform/acpi.c's RSDT/FADT walk against crafted hostile tables,
# under qemu-i386 (tests/kernel/acpi_test.c).
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/acpi_test"
if [ ! -x "$prog" ]; then
	echo "1..0 # SKIP $prog not built (make tools)"
	exit 0
fi
exec qemu-i386 -L /usr/i686-linux-gnu "$prog"
