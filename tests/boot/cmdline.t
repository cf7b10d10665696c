#!/bin/bash
# Boot test: the command line as QEMU passes it (kernel path first), with
# bad options: each gets a warning line, and the run still passes.
. tests/boot/lib.sh
echo "TAP version 13"
boot "cmdline" --cpu qemu32 --timeout 240 -- console=ttyS0,19200 bogus=1 bench=fast seed=12x on_finish=halt bench=off
check_report_shape "cmdline"
expect_status 0 "cmdline: bad options do not stop the run (PASS)"
expect_line "^# cmdline: loader image name '.*cryptoqual\.elf' skipped$" "cmdline: QEMU's kernel path is recognised and skipped"
expect_line "^# warning: cmdline: unknown option 'bogus=1' ignored$" "cmdline: unknown option warned about"
expect_line "^# warning: cmdline: bad value in 'bench=fast' ignored \(expected quick\|full\|off\)$" "cmdline: bad enum value warned about"
expect_line "^# warning: cmdline: bad value in 'seed=12x' ignored" "cmdline: malformed number warned about"
expect_line '^# console: ttyS0 io=0x3f8 19200 8N1 \(set by console= option\)$' "cmdline: console=ttyS0,19200 programs 19200 baud"
expect_line '^# options: console=ttyS0,19200 bench=off ' "cmdline: the options in force are printed"
finish
