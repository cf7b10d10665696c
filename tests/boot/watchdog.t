#!/bin/bash
# Boot test: no silent hang. A test that spins forever is stopped by the
# watchdog (PIT IRQ 0) after its budget and reported `not ok ... # timeout`;
# tests that point ESP outside the kernel stack and then fault or spin are
# reported from a rescue stack; a double fault outside any test is reported
# from the #DF task's own stack and bails out. Each run ends with a verdict.
. tests/boot/lib.sh
echo "TAP version 13"

# Under -icount the TSC and the PIT both count guest instructions, so the
# time the spinning test took is exact whatever the host's load.
boot "hang" --cpu pentium,+cmov --icount --timeout 240 -- selftest=hang bench=off only=selftest
check_report_shape "hang"
expect_status 1 "hang: the run ends in FAIL, not in a hang"
expect_line '^not ok [0-9]+ - selftest: a test that spins forever \(selftest=hang\) # timeout: ran past its 2000 ms budget \(stopped at EIP [0-9a-f]{8}\)$' \
	"hang: the spinning test is not ok # timeout"
expect_line "^# watchdog: test 'selftest: a test that spins forever \(selftest=hang\)' ran past its time budget: stopped at EIP=[0-9a-f]{8} ESP=[0-9a-f]{8} EFLAGS=[0-9a-f]{8}$" \
	"hang: the watchdog names the test and where it stopped it"
expect_line '^(# )?cryptoqual: FAIL \([0-9]+ ok, 1 not ok, [0-9]+ skipped(; partial: [^)]*)?\)$' "hang: exactly one test failed, the run went on to the summary"
probe=$(sed -nE 's/^# @stage name=probe seconds=([0-9.]+) .*/\1/p' "$BOOT_LOG")
awk -v s="${probe:-0}" 'BEGIN { exit !(s >= 1.8 && s <= 2.4) }'
ok $? "hang: under -icount the watchdog stopped the test within its 2000 ms budget (the probe stage took ${probe:-?} s, 1.8 to 2.4 wanted)"
drop_log

boot "stack-smash" --cpu pentium,+cmov --timeout 120 -- selftest=stack-smash bench=off only=selftest
check_report_shape "stack-smash"
expect_status 1 "stack-smash: the run ends in FAIL, not in a hang or a triple fault"
expect_line '^not ok [0-9]+ - selftest: ESP pointed into a data buffer, then UD2 \(selftest=stack-smash\) # fault: #UD with ESP [0-9a-f]{8} outside the kernel stack$' \
	"stack-smash: ESP in a data buffer, then UD2: not ok, the wrecked ESP said"
expect_line '^not ok [0-9]+ - selftest: ESP set to 0, then UD2 \(selftest=stack-smash\) # fault: #UD with ESP 00000000 outside the kernel stack$' \
	"stack-smash: ESP 0, then UD2 (the frame went to the top of memory): not ok"
expect_line '^not ok [0-9]+ - selftest: ESP pointed into a data buffer, then a spin \(selftest=stack-smash\) # fault: IRQ0 with ESP [0-9a-f]{8} outside the kernel stack$' \
	"stack-smash: ESP in a data buffer, then a spin: the watchdog tick finds it"
expect_line "^# exception: #UD Invalid Opcode \(vector 6\) with ESP=00000000 outside the kernel stack \[[0-9a-f]{8}, [0-9a-f]{8}\) in test 'selftest: ESP set to 0" \
	"stack-smash: the exception line gives the vector, the ESP and the kernel stack's bounds"
expect_line '^(# )?cryptoqual: FAIL \([0-9]+ ok, 3 not ok, [0-9]+ skipped(; partial: [^)]*)?\)$' "stack-smash: exactly the three tests failed"
! grep -q '^Bail out!' "$BOOT_LOG"; ok $? "stack-smash: no Bail out!: the run went on"
drop_log

boot "double-fault-outside" --cpu pentium,+cmov --timeout 120 -- selftest=double-fault-outside bench=off only=selftest
expect_status 2 "double-fault-outside: the run ends with the crash status (QEMU 37), not a triple fault (0)"
expect_line "^# exception: #DF Double Fault \(vector 8\) error=0x00000000 in no test \(outside any test\)$" \
	"double-fault-outside: the #DF is reported with its error code"
expect_line '^#   double fault: handled on its own stack \(task gate to TSS 0x20\); the kernel.s ESP was [0-9a-f]{8}$' \
	"double-fault-outside: from the double-fault task's own stack"
expect_line '^Bail out! Double Fault$' "double-fault-outside: Bail out! names it"
last=$(tail -n 1 "$BOOT_LOG")
echo "$last" | grep -qE '^(# )?cryptoqual: FAIL \([0-9]+ ok, [0-9]+ not ok, [0-9]+ skipped; crashed: Double Fault\)$'
ok $? "double-fault-outside: the last line is a FAIL summary that says it crashed ($last)"
finish
