#!/bin/bash
# Boot test: the whole image under QEMU -cpu max.
CPU='max'
. tests/boot/cpu-models.sh
expect_line "^# cpu\.aesni=1$" "cpu $CPU: AES-NI visible"
expect_line "^# cpu\.rdrand=1$" "cpu $CPU: RDRAND visible"
finish
