#!/bin/bash
# Boot test: how a run ends on real hardware, where there is no
# isa-debug-exit device (QEMU_NO_EXIT_DEVICE=1 leaves it out): after the
# verdict the kernel halts (on_finish=halt: QEMU keeps running until the
# timeout) or resets the machine (on_finish=reboot: QEMU, started with
# -no-reboot, exits with status 0). Either way the verdict line is there.
. tests/boot/lib.sh
echo "TAP version 13"
export QEMU_NO_EXIT_DEVICE=1

boot "halt" --cpu qemu32 --timeout 15 -- bench=off rng_bytes=2500 on_finish=halt
check_report_shape "halt"
expect_line '^# cryptoqual: PASS \(' "halt: the verdict is PASS"
[ "$BOOT_STATUS" -eq 0 ] && [[ $BOOT_VERDICT == *"PASS (the box halted after its verdict; no exit device; partial: "* ]]
ok $? "halt: the machine stays halted after the verdict (QEMU still ran a second after it, no reset: $BOOT_VERDICT)"
drop_log

boot "reboot" --cpu qemu32 --timeout 60 -- bench=off rng_bytes=2500 on_finish=reboot
check_report_shape "reboot"
expect_line '^# cryptoqual: PASS \(' "reboot: the verdict is PASS"
expect_line '^# options: .* on_finish=reboot' "reboot: on_finish=reboot is in force"
[ "$BOOT_STATUS" -eq 2 ] && [[ $BOOT_VERDICT == *"triple fault or reset (qemu exit status 0)"* ]]
ok $? "reboot: the kernel reset the machine (QEMU -no-reboot exits with 0: $BOOT_VERDICT)"
finish
