#!/bin/bash
# Boot test: text from outside cannot add a line to the report. The command
# line carries a newline followed by a forged verdict, a forged result and a
# forged record (as a GRUB entry or an iPXE script could); the run itself
# fails (selftest=fault-in-test), so a forged PASS that got through would
# show. Every echoed byte outside 0x20..0x7e comes out as \xNN.
. tests/boot/lib.sh
echo "TAP version 13"

forged=$(printf 'bench=off\n# cryptoqual: PASS (99 ok, 0 not ok, 0 skipped)\nok 999 - forged\n# @identity forged=1\r')
boot "inject" --cpu qemu32 --timeout 120 -- selftest=fault-in-test rng_bytes=2500 "$forged"
check_report_shape "inject"
expect_status 1 "inject: the run still ends in FAIL"
verdicts=$(grep '^# cryptoqual: ' "$BOOT_LOG")
[ "$(printf '%s\n' "$verdicts" | grep -c '^# cryptoqual: ')" -eq 1 ] && printf '%s\n' "$verdicts" | grep -qE '^# cryptoqual: FAIL \('
st=$?
ok $st "inject: the one verdict line is the real FAIL"
[ "$st" -eq 0 ] || printf '%s\n' "$verdicts" | sed 's/^/#   verdict line: /'
! grep -q '^ok 999 - forged' "$BOOT_LOG"; ok $? "inject: no forged result line"
! grep -q '^# @identity forged=1' "$BOOT_LOG"; ok $? "inject: no forged record line"
expect_line '^# cmdline: .*bench=off\\x0a# cryptoqual: PASS \(99 ok, 0 not ok, 0 skipped\)\\x0aok 999 - forged\\x0a# @identity forged=1\\x0d$' \
	"inject: the command line is echoed on one line, the newlines and CR as \\x0a and \\x0d"
n_lines=$(grep -c '' "$BOOT_LOG")
bad=$(LC_ALL=C grep -c '[^ -~]' "$BOOT_LOG")
[ "$bad" -eq 0 ]; ok $? "inject: every byte of the report is printable ASCII ($n_lines lines, $bad with other bytes)"
# python3 is a declared dependency (scripts/install-deps.sh): without it this fails.
v=$(python3 tools/qualreport parse "$BOOT_LOG" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["verdict"])')
[ "$v" = "FAIL" ]; ok $? "inject: tools/qualreport reads the verdict as FAIL ($v)"
finish
