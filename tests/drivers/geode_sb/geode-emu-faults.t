#!/bin/bash
# Boot test: every fault of the Geode LX security block model on the
# emulated net5501 (emulate=net5501,fault=NAME). Each run shows the
# specific failure, goes on to the end, and ends in FAIL with QEMU status
# 35, within the boot timeout.
. tests/boot/emu-lib.sh
emu_start

# fault_case FAULT REGEX DESCRIPTION [REGEX DESCRIPTION]...
# Whatever the fault, the driver must make no protocol slip on the model
# (no register written while an operation runs, even one that timed out).
fault_case() {
	fault=$1
	emu_boot "$fault" "net5501,fault=$fault" bench=off rng_bytes=2500
	check_report_shape "$fault"
	expect_status 1 "$fault: the run ends in FAIL with QEMU status 35"
	expect_line "^# warning: emulate: fault $fault injected into the model" "$fault: the header says the fault is injected"
	shift
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

fault_case dma-timeout '^# geode-sb: DMA timeout after [0-9]+ cycles \(limit [0-9]+, [0-9]+ polls\): CTL_A=' \
	"the DMA timeout is reported with the register state" \
	'^# geode-sb: key registers not wiped: WKEY0\.\.3 and CBC_IV0\.\.3 may still hold the key, the timed-out operation is still running \(CTL_A=0x0000001b ' \
	"the key registers are left alone while the timed-out operation runs, and the report says they were not wiped" \
	'^# geode-sb: engine still busy with a timed-out operation: CTL_A=0x0000001b .*no register written\)$' \
	"later requests are refused without writing a register" \
	'^not ok [0-9]+ - geode-sb: DMA buffers and session keys wiped after use: key registers not wiped: ' \
	"the wipe test fails: the key registers could not be wiped"
fault_case wrong-data '^not ok [0-9]+ - geode-sb: AES-128 ECB/CBC through DMA matches lib/aes: 9 of 9 cases failed, first: .*first mismatch at byte 15 ' \
	"wrong output: the first mismatching byte is named"
fault_case dma-overrun '^not ok [0-9]+ - geode-sb: DMA guard bytes intact around every destination: [0-9]+ of [0-9]+ operations overran' \
	"the overrun past the destination is caught by the guard bytes"
fault_case ignore-key '^not ok [0-9]+ - geode-sb: AES uses the writable key \(WK\): the engine ignores the writable key' \
	"an engine that ignores the writable key is caught"
fault_case rng-never-valid '^not ok [0-9]+ - geode-trng/tsel0: throughput: geode-trng/tsel0: RANDOM_NUM_STATUS not valid after [0-9]+ cycles' \
	"a TRNG that never says valid times out"
fault_case rng-stuck '^not ok [0-9]+ - geode-trng/tsel0: throughput: geode-trng/tsel0: output stuck at 0x5a5a5a5a for 16 consecutive words' \
	"a stuck TRNG fails the repetition count test"
fault_case bar-unassigned '^not ok [0-9]+ - geode-sb: probe: BAR0 unassigned: it reads 0' \
	"an unassigned BAR0 fails the probe with the reason"
fault_case msr-gp '^not ok [0-9]+ - geode-sb: probe: rdmsr 0x58002000 \(GLD_MSR_CAP\) raised \\#GP' \
	"a #GP on the GeodeLink MSR fails the probe with the reason"
finish
