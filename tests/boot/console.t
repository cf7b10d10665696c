#!/bin/bash
# Boot test: the console is known to work before it is trusted. QEMU's PC
# has one UART (ttyS0); console=ttyS3 and console=ttyS1,38400 name ports
# that do not answer (scratch register), so the kernel must fall back to
# ttyS0, say so in a warning, and still produce the whole report there.
# (An empty serial log is never PASS: tests/tools/boot-scripts.t.)
. tests/boot/lib.sh
echo "TAP version 13"

boot "ttyS3" --cpu pentium,+cmov --timeout 120 -- console=ttyS3 bench=off only=none
check_report_shape "ttyS3"
expect_status 0 "ttyS3: the report arrives on ttyS0 and ends in PASS"
expect_line '^# console: ttyS0 io=0x3f8 [0-9]+ 8N1 ' "ttyS3: the console in force is ttyS0"
expect_line '^# warning: console: ttyS3 \(io 0x2e8\) did not answer \(its scratch register does not hold a value\): the report goes to ttyS0 \(io 0x3f8\) instead$' \
	"ttyS3: a warning says ttyS3 did not answer and where the report went"
drop_log

boot "ttyS1" --cpu pentium,+cmov --timeout 120 -- console=ttyS1,38400 bench=off only=none
check_report_shape "ttyS1"
expect_status 0 "ttyS1,38400: the report arrives on ttyS0 and ends in PASS"
expect_line '^# console: ttyS0 io=0x3f8 38400 8N1 \(set by console= option\)$' "ttyS1,38400: ttyS0 runs at the speed asked for"
expect_line '^# warning: console: ttyS1 \(io 0x2f8\) did not answer ' "ttyS1,38400: the warning names ttyS1"
drop_log

boot "ttyS0" --cpu pentium,+cmov --timeout 120 -- console=ttyS0 bench=off only=none
expect_status 0 "ttyS0: PASS"
! grep -q '^# warning: console:' "$BOOT_LOG"; ok $? "ttyS0: a UART that answers gets no warning"
finish
