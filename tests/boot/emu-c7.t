#!/bin/bash
# Boot test: the emulation build on an emulated VIA C7 "Esther" (its CPUID
# dump; QEMU's own PCI devices, no C7 board listing exists): the PadLock
# driver's instructions run on the instruction model from the #UD trap.
# ACE in every key size and mode (ECB, CBC, CFB128, OFB, and CTR built from
# ECB), the xstore RNG, PHE SHA-1/SHA-256 and PMM all pass their tests
# through the driver; ACE2's rep xcrypt-ctr runs only as a probe reported as
# a finding; the work buffers are wiped; benchmark rows are labelled emulated.
. tests/boot/emu-lib.sh
emu_start
emu_boot "c7" c7 bench_ms=1
check_report_shape "c7"
relay_kernel_results "c7"
expect_status 0 "c7: the run ends in PASS with QEMU status 33"
emu_expect_header "c7" c7
expect_line "^# emulate: pci: the QEMU machine's own devices" "c7: PCI is the QEMU machine's own"
expect_line '^# pci: 00:00\.0 8086:1237 ' "c7: PCI table lists QEMU's i440FX host bridge"
expect_line '^# emulate: model: C7 Esther PadLock .*key-reload sites patched to int3: [1-9]' "c7: the model is installed, reload sites patched"
expect_line '^# cpu\.vendor=CentaurHauls$' "c7: CPUID vendor from the Esther dump"
expect_line '^# cpu\.signature=0x000006a9$' "c7: CPUID signature 0x6A9 from the dump"
expect_line '^ok [0-9]+ - padlock: units detected and enabled \(rng=enabled ace=enabled ace2=enabled phe=enabled pmm=enabled, 8 engines\)$' \
	"c7: every PadLock unit detected and enabled"
for m in ecb cbc cfb128 ofb ctr; do
	for k in 128 192 256; do
		for d in encrypt decrypt; do
			expect_line "^ok [0-9]+ - kat: padlock-ace aes-$k-$m $d\$" "c7: ACE KAT aes-$k-$m $d"
		done
	done
done
expect_line '^# padlock: engines: padlock-ace \(ecb cbc cfb128 ofb, ctr from ecb; hardware ctr only as a probe\) ' "c7: CTR is built from ECB; hardware CTR only a probe"
expect_line '^ok [0-9]+ - padlock: ace2 hardware ctr probe \(rep xcrypt-ctr, counter format unverified\) # finding: passed$' \
	"c7: the hardware CTR probe is reported as a finding, not a verdict"
expect_line '^# padlock: ace2: rep xcrypt-ctr \(unverified counter format, not used by padlock-ace\): SP 800-38A F\.5\.1 matches; across the 32-bit wrap the counter wraps within the low 32 bits$' \
	"c7: the driver's log says in words what the CPU did"
expect_line '^# @finding driver=padlock test=padlock:\\x20ace2\\x20hardware\\x20ctr\\x20probe[^ ]* outcome=passed detail=F\.5\.1\\x20matches' \
	"c7: the finding is a record qualreport reads"
expect_line '^# padlock: ace2: rep xcrypt-ctr \(unverified counter format, not used by padlock-ace\)' "c7: the probe's log line says the format is unverified"
expect_line '^ok [0-9]+ - padlock: ace work buffers \(IV, bounce\) wiped after use ' "c7: the IV and bounce buffers are wiped after use"
expect_line '^# engine: sha1 padlock-phe: .*the empty message in software' "c7: one-shot PHE says the empty message is hashed in software"
expect_line '^ok [0-9]+ - kat: padlock-phe sha1 ' "c7: PHE SHA-1 KAT"
expect_line '^ok [0-9]+ - kat: padlock-phe sha256 ' "c7: PHE SHA-256 KAT"
for d in 0 1 2 3; do
	expect_line "^ok [0-9]+ - padlock: rng xstore divisor $d status and data \\(256 bytes in [0-9]+ stores \\(0 empty\\)" "c7: xstore divisor $d"
	expect_line "^ok [0-9]+ - rng: padlock-xstore/div$d source delivers 64 bytes$" "c7: RNG source div$d delivers"
done
expect_line '^ok [0-9]+ - padlock: pmm rep montmul 1024-bit known answer \(final subtraction (not )?needed\)$' "c7: PMM known answer"
expect_line '^# @montmul engine=padlock-pmm bits=1024 ops_per_s=[0-9]+ cycles_per_op=[0-9.]+ reps=3 emulated=1( t=[^ ]+)?$' \
	"c7: the PMM's Montgomery multiplier is benchmarked through the engine registry (@montmul)"
expect_line '^# @montmul engine=software bits=1024 ops_per_s=[0-9]+ cycles_per_op=[0-9.]+ reps=3 emulated=0 path=(integer|sse2)( t=[^ ]+)?$' \
	"c7: the software row beside the PMM's (@montmul engine=software, its path named)"
expect_line '^# padlock: pmm: 1024-bit montmul: [0-9]+ cycles with rep montmul \(emulated\) ' \
	"c7: the PMM timing of the model is labelled (emulated)"
n_xc=$(grep -cE '^ok [0-9]+ - crosscheck: padlock-ace ' "$BOOT_LOG")
[ "$n_xc" -ge 30 ]; ok $? "c7: ACE cross-checks against software, every claimed triple ($n_xc ok)"
expect_line '^# engine: aes padlock-ace: .*, emulated\)$' "c7: the padlock-ace engine says emulated"
expect_line '^# padlock-ace:aes-256-cbc\(emulated\) ' "c7: its benchmark rows end in (emulated)"
! grep -qE '^# @(cipher|hash|cost) engine=padlock-.* emulated=0( t=[^ ]+)?$' "$BOOT_LOG"; ok $? "c7: no PadLock record says emulated=0"
expect_line '^ok [0-9]+ - emulate: PadLock driver reloaded the key before each key change \([1-9][0-9]* loads, [1-9][0-9]* reloads\), ran no ECB on a key cached by CFB/OFB \(0\), issued no one-shot xsha with ECX = 0 \(0\) and raised no exception \(0\)$' \
	"c7: the driver reloaded the key before each key change (also ECB after CFB/OFB), never issued ECX = 0 to the one-shot PHE, no exception"
emu_done

# A fault that starts in a later soak pass: the first run and soak pass 1
# pass, pass 2 prints its failures, and the last screen says so.
emu_boot "c7-from-pass-2" c7,fault=rng-stuck-from-pass-2 passes=3 bench=off rng_bytes=2500
expect_status 1 "c7-from-pass-2: the soak fails"
first_not_ok=$(grep -nE '^not ok ' "$BOOT_LOG" | head -n 1 | cut -d: -f1)
pass1_done=$(grep -nE '^# soak: pass 1 done ' "$BOOT_LOG" | cut -d: -f1)
[ -n "$first_not_ok" ] && [ -n "$pass1_done" ] && [ "$first_not_ok" -gt "$pass1_done" ]
ok $? "c7-from-pass-2: no not ok before soak pass 2 (first at line ${first_not_ok:-none}, pass 1 done at ${pass1_done:-none})"
expect_line '^# warning: emulate: fault rng-stuck-from-pass-2 injected into the model from soak pass 2 on$' "c7-from-pass-2: the fault's start is announced"
expect_line '^# soak: pass 1 done at t=[0-9.]+: [0-9]+ ok, 0 not ok in this pass ' "c7-from-pass-2: soak pass 1 passes"
expect_line '^# soak: pass 2 is the first of the soak with a failure$' "c7-from-pass-2: pass 2 is named the first with a failure"
expect_line '^# summary: soak 3 passes, worst 2 \([0-9]+ not ok\): 1 pass, 2-3 FAIL$' "c7-from-pass-2: the last screen gives each pass's verdict"
finish
