#!/bin/sh
# kernel/platform/acpi.c's RSDT/FADT walk against crafted hostile tables,
# under qemu-i386 (tests/kernel/acpi_test.c).
. tests/tap-lib.sh
exec_i386 "$CQ_BUILD/i386/acpi_test"
