#!/bin/bash
# Boot test: the whole image under QEMU -cpu pentium.
CPU='pentium'
. tests/boot/cpu-models.sh
expect_line "^# cpu\.cmov=0$" "cpu $CPU: no CMOV reported (and none executed: the run finished)"
finish
