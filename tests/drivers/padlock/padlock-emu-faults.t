#!/bin/bash
# Boot test: every fault of the PadLock instruction model on the emulated
# C7 (emulate=c7,fault=NAME), and the locked ACE on the Zhaoxin KX-7000
# (CentaurHauls family 7: the driver uses FCR 0x1107, as Linux). Each run
# shows the specific failure, goes on to the end, and ends in FAIL with
# QEMU status 35, within the timeout. The variants end in PASS: a biased
# divisor 0 (characterised) on the C7 and the Nano, a hardware CTR that
# hangs (a finding) on the C7 (the only profile with ACE2 enabled), status
# bits no source documents on the Nano and the KX-7000.
. tests/boot/emu-lib.sh
emu_start

# fault_case FAULT REGEX DESCRIPTION [REGEX DESCRIPTION]...
fault_case() {
	fault=$1
	emu_boot "$fault" "${PROFILE:-c7},fault=$fault" bench=off rng_bytes=2500
	check_report_shape "$fault"
	expect_status 1 "$fault: the run ends in FAIL with QEMU status 35"
	expect_line "^# warning: emulate: fault $fault injected into the model" "$fault: the header says the fault is injected"
	shift
	while [ $# -ge 2 ]; do
		expect_line "$1" "$fault: $2"
		shift 2
	done
	if [ "$fault" = ace-locked ]; then
		! grep -q 'enabled it by setting' "$BOOT_LOG"
		ok $? "$fault: no line claims the enable write worked"
	fi
	expect_line '^ok [0-9]+ - bench: .* # SKIP bench=off$' "$fault: the run goes on to the last stage"
	! grep -q '^Bail out!' "$BOOT_LOG"; ok $? "$fault: no Bail out!"
	emu_done
}

fault_case rng-stuck '^not ok [0-9]+ - padlock: rng xstore divisor 3 status and data: 0 bytes in [0-9]+ stores \([0-9]+ empty\), last status 0x[0-9a-f]{8}, rc -4: FIFO empty for [0-9]+ stores in a row' \
	"xstore that never stores: the RNG status test says how many empty stores"
fault_case wrong-data '^not ok [0-9]+ - kat: padlock-ace aes-128-ecb encrypt( |$)' \
	"wrong xcrypt output fails the ACE KATs" \
	'^# summary: first failure: vector C\.1 block 1: expected$' \
	"the last screen gives the KAT's first mismatch as the reason" \
	'^# summary:   padlock-ace\)$' \
	"and names its test and row whole (wrapped, not cut)"
fault_case hash-wrong '^not ok [0-9]+ - kat: padlock-phe sha256 ' \
	"a wrong xsha state fails the PHE KATs"
fault_case ace-locked '^not ok [0-9]+ - padlock: ace enabled: ACE was present but disabled: tried to enable it by setting MSR 0x1107 bit 28 \(0x0 -> 0x10000000\); the unit is still disabled: the bit did not stick, MSR 0x1107 reads 0x0$' \
	"an ACE CPUID lists that cannot be enabled is a promised unit, not ok with the failed enable as the reason" \
	'^ok [0-9]+ - padlock: units detected and enabled \(rng=enabled ace=present-but-disabled .*; ACE was present but disabled: ' \
	"the detection test repeats it" \
	'^# padlock: ACE was present but disabled: tried to enable it by setting MSR 0x1107 bit 28 \(0x0 -> 0x10000000\); the unit is still disabled: the bit did not stick, MSR 0x1107 reads 0x0 \(ACE now present-but-disabled\)$' \
	"the probe says the enable write did not stick"
PROFILE=zhaoxin fault_case ace-locked '^not ok [0-9]+ - padlock: ace enabled: ACE was present but disabled: tried to enable it by setting MSR 0x1107 bit 28 \(0x0 -> 0x10000000\); the unit is still disabled: the bit did not stick, MSR 0x1107 reads 0x0$' \
	"zhaoxin (KX-7000, CentaurHauls family 7): the driver tried FCR 0x1107, as Linux's init_c3, not MSR 0x1257"
# variant_case FAULT REGEX DESCRIPTION [REGEX DESCRIPTION]...: a behaviour no
# verdict may depend on (a characterised divisor, a finding, status bits no
# source documents): the run ends in PASS and the header says why.
variant_case() {
	fault=$1
	emu_boot "$fault" "${PROFILE:-c7},fault=$fault" bench=off rng_bytes=2500
	check_report_shape "$fault"
	expect_status 0 "${PROFILE:-c7} $fault: the run ends in PASS"
	expect_line "^# warning: emulate: fault $fault injected into the model: a variant the run should PASS \\(" \
		"${PROFILE:-c7} $fault: the header says the variant is injected, and why"
	shift
	while [ $# -ge 2 ]; do
		expect_line "$1" "${PROFILE:-c7} $fault: $2"
		shift 2
	done
	! grep -q '^Bail out!' "$BOOT_LOG"; ok $? "${PROFILE:-c7} $fault: no Bail out!"
	emu_done
}

for PROFILE in c7 nano; do
	variant_case xstore-div0-biased '^ok [0-9]+ - rng: padlock-xstore/div0 characterised \(information only: 2500 of 2500 bytes, .*H_mcv=[0-4]\.[0-9]+ ' \
		"divisor 0 with ones at 3/4 is characterised with its figures" \
		'^ok [0-9]+ - rng: padlock-xstore/div3 90b-mcv$' "divisor 3 (Linux via-rng's) is judged and passes"
done
PROFILE=c7 variant_case ctr-probe-hang '^ok [0-9]+ - padlock: ace2 hardware ctr probe \(rep xcrypt-ctr, counter format unverified\) # finding: timeout$' \
	"a hardware CTR that never completes is a finding (timeout), not a failure" \
	'^# @finding driver=padlock test=padlock:\\x20ace2\\x20hardware[^ ]* outcome=timeout detail=timeout:\\x20ran\\x20past\\x20its\\x202000\\x20ms\\x20budget' \
	"the finding's record says it hung, within the finding's 2 s budget" \
	"^# watchdog: test 'padlock: ace2 hardware ctr probe \\(rep xcrypt-ctr, counter format unverified\\)' ran past its time budget" \
	"the watchdog names the probe it stopped" \
	'^ok [0-9]+ - kat: padlock-ace aes-128-ctr encrypt$' "padlock-ace's CTR (from ECB) still passes its KAT"
for PROFILE in nano zhaoxin; do
	variant_case xstore-status-bits '^# padlock: rng: xstore divisor 3 status 0x00007[0-9a-f]41: bits 10-14 = 0x1f set \(reported, not judged: ' \
		"status bits no source documents on this part are reported, not judged" \
		'^ok [0-9]+ - padlock: rng xstore divisor 3 status and data \(256 bytes in 256 stores' \
		"divisor 3 passes on the byte count, as Linux reads it"
done
finish
