#!/bin/bash
# Boot test: the emulation build with the Ivy Bridge CPUID dump on QEMU
# -cpu max: AES-NI and RDRAND chosen from the dump, executed by TCG (no
# model: their rows are not marked emulated, and the header says so).
. tests/boot/emu-lib.sh
emu_start
emu_boot "ivybridge" ivybridge bench=off rng_bytes=2500
check_report_shape "ivybridge"
expect_status 0 "ivybridge: the run ends in PASS"
emu_expect_header "ivybridge" ivybridge
expect_line '^# cpu\.vendor=GenuineIntel$' "ivybridge: vendor from the dump"
expect_line '^# cpu\.signature=0x000306a9$' "ivybridge: signature 0x306A9 from the dump"
expect_line '^# emulate: note: AES-NI and RDRAND are executed by QEMU' "ivybridge: the header says AES-NI is QEMU's, not a model"
expect_line '^ok [0-9]+ - kat: aesni aes-256-ctr decrypt$' "ivybridge: AES-NI KAT aes-256-ctr decrypt"
expect_line '^ok [0-9]+ - rng: rdrand source delivers 64 bytes$' "ivybridge: RDRAND delivers"
finish
