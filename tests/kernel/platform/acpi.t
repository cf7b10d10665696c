#!/bin/sh
# kernel/platform/acpi.c's RSDT/FADT walk against crafted hostile tables,
# under qemu-i386 (tests/kernel/platform/test_acpi.c). An unbuilt harness fails.
. tests/tap-lib.sh
need_qemu_i386
need_program "$CQ_BUILD/i386/acpi_test"
exec_i386 "$CQ_BUILD/i386/acpi_test"
