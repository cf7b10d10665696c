#!/bin/bash
# Boot test: every fault and variant of the Geode LX security block model
# on the emulated net5501 (emulate=net5501,fault=NAME). Each fault run shows
# its specific failure, goes on to the end, and ends in FAIL with QEMU
# status 35, within the boot timeout; no-vsa (a Geode LX whose firmware
# hides the security block) too, unless expect=none drops the promised
# block; trng-mode-stuck (a TRNG whose mode bits do not stick). The
# variants end in PASS: poor-noise, tsel0-dead, tsel1-biased (modes no
# public driver uses: characterised), hidden-key-hang (a finding).
. tests/boot/emu-lib.sh
emu_start

# run_case FAULT STATUS RNG_BYTES REGEX DESCRIPTION [REGEX DESCRIPTION]...
# Whatever the fault, the driver must make no protocol slip on the model
# (no register written while an operation runs, even one that timed out).
# EXTRA: more kernel options; HEADER=fail: the header says the fault is
# meant to fail even though the run passes (expect=none drops the failure).
run_case() {
	fault=$1; want=$2; bytes=$3
	emu_boot "$fault" "net5501,fault=$fault" bench=off rng_bytes="$bytes" ${EXTRA:-}
	check_report_shape "$fault"
	if [ "$want" -eq 0 ] && [ "${HEADER:-}" = fail ]; then
		expect_status 0 "$fault ${EXTRA:-}: the run ends in PASS"
		expect_line "^# warning: emulate: fault $fault injected into the model: the tests that use it are meant to fail" "$fault: the header says the fault is injected"
	elif [ "$want" -eq 1 ]; then
		expect_status 1 "$fault: the run ends in FAIL with QEMU status 35"
		expect_line "^# warning: emulate: fault $fault injected into the model: the tests that use it are meant to fail" "$fault: the header says the fault is injected"
	else
		expect_status 0 "$fault: the run ends in PASS"
		expect_line "^# warning: emulate: fault $fault injected into the model: a variant the run should PASS" "$fault: the header says the variant is injected"
	fi
	shift 3
	while [ $# -ge 2 ]; do
		expect_line "$1" "$fault: $2"
		shift 2
	done
	expect_line '^ok [0-9]+ - emulate: no protocol slip on the Geode model \(busy writes 0, ' \
		"$fault: no protocol slip on the model (no register written while busy)"
	expect_line '^ok [0-9]+ - bench: .* # SKIP bench=off$' "$fault: the run goes on to the last stage"
	! grep -q '^Bail out!' "$BOOT_LOG"; ok $? "$fault: no Bail out!"
	emu_done
}
fault_case() { f=$1; shift; run_case "$f" 1 2500 "$@"; }

fault_case dma-timeout '^# geode-sb: DMA timeout after [0-9]+ cycles \(limit [0-9]+, [0-9]+ polls\): CTL_A=' \
	"the DMA timeout is reported with the register state" \
	'^# geode-sb: key registers not wiped: WKEY0\.\.3 and CBC_IV0\.\.3 may still hold the key, the timed-out operation is still running \(CTL_A=0x0000001f ' \
	"the key registers are left alone while the timed-out operation runs, and the report says they were not wiped" \
	'^# geode-sb: engine still busy with a timed-out operation: CTL_A=0x0000001f .*no register written\)$' \
	"later requests are refused without writing a register" \
	'^not ok [0-9]+ - geode-sb: DMA buffers and session keys wiped after use: key registers not wiped: ' \
	"the wipe test fails: the key registers could not be wiped"
fault_case wrong-data '^not ok [0-9]+ - geode-sb: AES-128 ECB/CBC through DMA matches lib/aes: 9 of 9 cases failed, first: .*first mismatch at byte 15 ' \
	"wrong output: the first mismatching byte is named" \
	'^ok [0-9]+ - geode-sb: CBC_IV0\.\.3 hold the next IV after a CBC operation # SKIP not judged: the engine.s AES output is wrong \(first cause: ' \
	"the first cause is the wrong output, not CBC_IV"
fault_case dma-overrun '^not ok [0-9]+ - geode-sb: DMA guard bytes intact around every destination: [0-9]+ of [0-9]+ operations overran' \
	"the overrun past the destination is caught by the guard bytes"
fault_case ignore-key '^not ok [0-9]+ - geode-sb: AES uses the writable key \(WK\): the engine ignores the writable key' \
	"an engine that ignores the writable key is caught"
fault_case rng-never-valid '^not ok [0-9]+ - geode-trng/tsel3: throughput: geode-trng/tsel3: RANDOM_NUM_STATUS not valid after [0-9]+ cycles' \
	"a TRNG that never says valid times out on T_SEL 3" \
	'^ok [0-9]+ - geode-trng/tsel0: throughput \(information: 0 bytes, then geode-trng/tsel0: RANDOM_NUM_STATUS not valid' \
	"T_SEL 0 (characterised) says so as information"
fault_case rng-stuck '^not ok [0-9]+ - geode-trng/tsel3: throughput: geode-trng/tsel3: output stuck at 0x5a5a5a5a for 16 consecutive words while RANDOM_NUM_STATUS says valid' \
	"a stuck TRNG fails the repetition count test"
fault_case bar-unassigned '^not ok [0-9]+ - geode-sb: probe: BAR0 unassigned: it reads 0' \
	"an unassigned BAR0 fails the probe with the reason"
# msr-gp: a non-Geode CPU answering behind a Geode's CPUID dump and PCI listing (docs/emulation.md).
fault_case msr-gp '^not ok [0-9]+ - geode-sb: probe: rdmsr 0x58002000 \(GLD_MSR_CAP\) raised \\#GP' \
	"a #GP on the GeodeLink MSR fails the probe with the reason"
fault_case busy-at-start '^# geode-sb: engine busy when the image started: CTL_A=0x0000001d \(ST set, left by firmware\)' \
	"the probe says the firmware left the engine busy" \
	'^not ok [0-9]+ - geode-sb: probe: engine busy when the image started: CTL_A=0x0000001d ' \
	"the probe test fails naming it"
fault_case noise-dead '^not ok [0-9]+ - geode-trng/tsel3: throughput: geode-trng/tsel3: output repeats every 4 words \(.*\) while RANDOM_NUM_STATUS says valid: noise source dead' \
	"a dead noise source behind a valid STATUS is named"
fault_case stale-key '^not ok [0-9]+ - geode-sb: AES uses the writable key \(WK\): stale key: the second key [0-9a-f]+ gives the first key.s block' \
	"an engine that keeps the previous key is named"
fault_case cbc-iv-stale '^not ok [0-9]+ - geode-sb: CBC_IV0\.\.3 hold the next IV after a CBC operation: CBC_IV not updated: ' \
	"CBC_IV not updated is named (Linux reads it back)"
fault_case swap-bits '^# geode-sb: MSR CTRL=0x408 as found has the AES swap bits set \(SBY\)' \
	"the probe says firmware left SBY set" \
	'^not ok [0-9]+ - geode-sb: AES-128 ECB/CBC through DMA matches lib/aes: 9 of 9 cases failed, .*; MSR CTRL has the AES swap bits \(SBI/SBY\) set by firmware$' \
	"wrong AES output names the swap bits"
# hidden-key-hang: no public driver uses the hidden key or context B, so the
# probe is a finding and the run passes; context A goes on.
run_case hidden-key-hang 0 2500 '^ok [0-9]+ - geode-sb: hidden-key probe \(WK = 0, context B\) # finding: failed$' \
	"a hidden-key operation that hangs is a finding, not a failure" \
	'^# @finding driver=geode-sb test=geode-sb:\\x20hidden-key\\x20probe[^ ]* outcome=failed detail=hidden\\x20key:\\x20unknown:\\x20the\\x20operation\\x20with\\x20the\\x20hidden\\x20key\\x20\(WK\\x20=\\x200\)\\x20did\\x20not\\x20complete' \
	"the finding is a record naming the hang" \
	'^# geode-sb: DMA timeout on context B after [0-9]+ cycles ' \
	"the driver's log names the hang on context B" \
	'^ok [0-9]+ - kat: geode-sb aes-128-cbc encrypt$' \
	"context A goes on: the KATs after it still pass"
fault_case no-vsa '^not ok [0-9]+ - geode-sb: security block reachable: Geode LX CPU \(AuthenticAMD family 5 model 10\): GLD_MSR_CAP=0x0000000000130400 identifies its security block, but PCI has no 1022:2082: firmware without VSA hides the security block from every OS$' \
	"a Geode LX whose firmware has no VSA: the unreachable security block is not ok, with the reason" \
	'^ok [0-9]+ - geode-sb: probe # SKIP security block present, PCI header absent: firmware without VSA$' \
	"its tests SKIP with the reason" \
	'^# geode-sb: no 1022:2082 device, but GLD_MSR_CAP=0x0000000000130400 identifies the security block: security block present, PCI header absent: firmware without VSA' \
	"the log says what the MSR found" \
	'^# summary: first failure: Geode LX CPU' "the last screen names the cause"
EXTRA=expect=none HEADER=fail run_case no-vsa 0 2500 \
	'^ok [0-9]+ - geode-sb: security block reachable \(promised unit not expected: expect=none\) # SKIP Geode LX CPU ' \
	"expect=none: the promised security block is a SKIP that says so" \
	'^# cryptoqual: PASS \(.*; partial: .*a promised unit dropped \(expect=none\)\)$' \
	"expect=none: the verdict says a promised unit was dropped"
run_case poor-noise 0 50000 '^ok [0-9]+ - rng: geode-trng/tsel0 characterised \(information only: 50000 of 50000 bytes, .*H_mcv=[34]\.[0-9]+ ' \
	"raw noise of 4 bits per byte is characterised, not judged" \
	'^ok [0-9]+ - rng: geode-trng/tsel3 90b-mcv$' "T_SEL 3 (conditioned) passes"
# The modes no public driver uses are characterised: their faults are variants.
run_case tsel0-dead 0 2500 '^ok [0-9]+ - geode-trng/tsel0: throughput \(information: 0 bytes, then geode-trng/tsel0: RANDOM_NUM_STATUS not valid after [0-9]+ cycles ' \
	"T_SEL 0 that never says valid: the wait is information" \
	'^ok [0-9]+ - rng: geode-trng/tsel0 source delivers 64 bytes # characterised, not judged$' \
	"the smoke test of T_SEL 0 is a note, not a failure" \
	'^ok [0-9]+ - rng: geode-trng/tsel0 characterised \(information only: 0 of 2500 bytes, stopped: hardware timeout, ' \
	"its statistics say it stopped, as information" \
	'^ok [0-9]+ - geode-trng/tsel3: throughput \([0-9]+ bytes/s' "T_SEL 3 stays healthy"
run_case tsel1-biased 0 50000 '^ok [0-9]+ - rng: geode-trng/tsel1 characterised \(information only: 50000 of 50000 bytes, .*H_mcv=3\.[0-9]+ ' \
	"T_SEL 1 with ones at 3/4 is characterised with its figures (H_mcv about 3.3 bits/byte)" \
	'^ok [0-9]+ - rng: geode-trng/tsel3 90b-mcv$' "T_SEL 3 (conditioned) passes"
fault_case trng-mode-stuck '^not ok [0-9]+ - rng: geode-trng source: the security block.s TRNG cannot be set to its documented mode: MSR CTRL reads 0x400 after writing 0x700: ' \
	"a TRNG whose mode bits do not stick is not ok with the register values" \
	'^# summary: first failure: the security block.s TRNG cannot be set to its' \
	"the last screen names it"
run_case poor-noise-tsel3 1 50000 '^not ok [0-9]+ - rng: geode-trng/tsel3 90b-mcv \(H=[0-4]\.[0-9]+ bits/byte' \
	"the same poor output on T_SEL 3 fails the full-entropy claim on the MCV estimate" \
	'^# rng: geode-trng/tsel3 fails its full-entropy claim \(8 bits/byte\) on: .*90b-mcv' \
	"one line names the source and every statistic it fails" \
	'^ok [0-9]+ - rng: geode-trng/tsel0 characterised ' "T_SEL 0 with the same noise stays information"
finish
