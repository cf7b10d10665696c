#!/bin/bash
# Boot test: under -icount shift=0 one guest instruction is one nanosecond,
# so the TSC must calibrate to 1000 MHz within 0.01 % against both timers
# (../shared/notes/boot-and-qemu.md).
. tests/boot/lib.sh
echo "TAP version 13"
boot "icount" --cpu max --icount --timeout 240 -- bench=off
check_report_shape "icount"
expect_status 0 "icount: the run ends in PASS"
within() {  # within MHZ_STRING: 999.900 <= MHz <= 1000.100
	awk -v m="$1" 'BEGIN { exit !(m != "" && m >= 999.9 && m <= 1000.1) }'
}
pit=$(sed -n 's/^# timer: tsc_mhz_pit=\([0-9.]*\).*/\1/p' "$BOOT_LOG")
within "$pit"; ok $? "icount: TSC against PIT channel 2 reads 1000 MHz within 0.01% (${pit:-none})"
pm=$(sed -n 's/^# timer: tsc_mhz_pmtimer=\([0-9.]*\).*/\1/p' "$BOOT_LOG")
within "$pm"; ok $? "icount: TSC against the ACPI PM timer reads 1000 MHz within 0.01% (${pm:-none})"
finish
