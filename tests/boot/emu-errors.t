#!/bin/bash
# Boot test: the emulate= option's error paths. An unknown profile or a
# fault the profile's models do not offer is a `not ok` saying what exists
# (the run goes on, on what could be set up, and ends in FAIL); the
# emulation image without emulate= runs on the real (QEMU) machine; the
# release image only warns about emulate=.
. tests/boot/emu-lib.sh
emu_start

emu_boot "unknown profile" nosuchbox bench=off rng_bytes=2500
expect_status 1 "unknown profile: FAIL"
expect_line '^not ok 1 - emulate: profile \? set up: no profile nosuchbox \(profiles: net5501 alix c7 nano nehemiah samuel2 zhaoxin ivybridge\)$' \
	"unknown profile: not ok, listing the profiles"
expect_line '^# pci: 00:00\.0 8086:1237 ' "unknown profile: the run goes on, on the real machine"
emu_done

emu_boot "foreign fault" c7,fault=dma-timeout bench=off rng_bytes=2500
expect_status 1 "foreign fault: FAIL"
expect_line '^not ok 1 - emulate: profile c7 set up: fault dma-timeout is not one of the faults of profile c7 \(rng-stuck wrong-data hash-wrong ace-locked xstore-div0-biased ctr-probe-hang link-down reset-stuck reset-needs-force eeprom-stuck rx-flood bad-mac d3 rx-errors rx-stall\)$' \
	"foreign fault: not ok, listing the profile's faults"
expect_line '^ok [0-9]+ - kat: padlock-ace aes-128-ecb encrypt$' "foreign fault: the profile runs without it"
emu_done

EMU_FAILED_BEFORE=$TEST_FAILED
boot "no emulate=" --cpu max --timeout "$EMU_TIMEOUT" -- bench=off rng_bytes=2500
expect_status 0 "emulation image without emulate=: PASS on the real machine"
expect_line '^# emulate: none \(emulation build without emulate=: the real machine only\)$' "emulation image without emulate=: says so"
expect_line '^ok [0-9]+ - cpu: CPUID identity decoded \((GenuineIntel|AuthenticAMD) ' "emulation image without emulate=: the real CPUID"

emu_done

CQ_KERNEL="$CQ_BUILD/cryptoqual.elf"
boot "release image" --cpu max --timeout "$EMU_TIMEOUT" -- emulate=net5501 bench=off rng_bytes=2500
expect_status 0 "release image with emulate=: PASS, on the real machine"
expect_line '^# warning: emulate=net5501 needs the emulation build \(make emu\); this image runs on the real hardware only$' \
	"release image with emulate=: the warning"
! grep -q '^# emulate: ' "$BOOT_LOG"; ok $? "release image with emulate=: no emulation header"
finish
