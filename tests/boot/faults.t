#!/bin/bash
# Boot test: the failure paths. A fault inside a test makes that test
# `not ok`, prints the exception with its registers, and the run goes on to
# a FAIL summary; a fault outside any test prints `Bail out!` and ends with
# the crash status.
. tests/boot/lib.sh
echo "TAP version 13"

boot "fault-in-test" --cpu pentium,+cmov --timeout 240 -- selftest=fault-in-test bench=off
check_report_shape "fault-in-test"
expect_status 1 "fault-in-test: the run ends in FAIL with QEMU status 35"
expect_line '^not ok [0-9]+ - selftest: injected \\#UD inside a test \(selftest=fault-in-test\) # fault: #UD at EIP [0-9a-f]{8}$' \
	"fault-in-test: the faulting test is not ok and names the exception"
expect_line "^# exception: #UD Invalid Opcode \(vector 6\) no error code in test 'selftest: injected #UD" \
	"fault-in-test: the exception names the vector and the running test"
expect_line '^#   EIP=[0-9a-f]{8} EFLAGS=[0-9a-f]{8} CS=0008$' "fault-in-test: EIP and EFLAGS printed"
expect_line '^#   EAX=[0-9a-f]{8} EBX=[0-9a-f]{8} ECX=[0-9a-f]{8} EDX=[0-9a-f]{8}$' "fault-in-test: general registers printed"
expect_line '^#   ESI=[0-9a-f]{8} EDI=[0-9a-f]{8} EBP=[0-9a-f]{8} ESP=[0-9a-f]{8}$' "fault-in-test: index and stack registers printed"
expect_line '^#   CR0=[0-9a-f]{8} CR2=[0-9a-f]{8} CR3=[0-9a-f]{8} CR4=[0-9a-f]{8}$' "fault-in-test: control registers printed"
expect_line '^# cryptoqual: FAIL \([0-9]+ ok, 1 not ok, [0-9]+ skipped(; partial: [^)]*)?\)$' "fault-in-test: exactly one test failed"
! grep -q '^Bail out!' "$BOOT_LOG"; ok $? "fault-in-test: no Bail out! for a recoverable fault"
drop_log

boot "fault-outside" --cpu pentium,+cmov --timeout 240 -- selftest=fault-outside bench=off
expect_status 2 "fault-outside: the run ends with the crash status (QEMU 37)"
expect_line "^# exception: #UD Invalid Opcode \(vector 6\) no error code in no test \(outside any test\)$" \
	"fault-outside: the exception says no test was running"
expect_line '^Bail out! Invalid Opcode$' "fault-outside: Bail out! names the exception"
last=$(tail -n 1 "$BOOT_LOG")
echo "$last" | grep -qE '^# cryptoqual: FAIL \([0-9]+ ok, [0-9]+ not ok, [0-9]+ skipped; crashed: Invalid Opcode\)$'
ok $? "fault-outside: the last line is a FAIL summary that says it crashed ($last)"
finish
