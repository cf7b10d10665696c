#!/bin/bash
# Boot test: the emulation build on the emulated Soekris net5501 (Geode LX
# CPUID dump, the comBIOS PCI table, the security block model behind its
# BAR): the whole run, drivers included, ends in PASS; benchmark rows of
# the model are labelled emulated.
. tests/boot/emu-lib.sh
emu_start
emu_boot "net5501" net5501 bench_ms=1
check_report_shape "net5501"
relay_kernel_results "net5501"
expect_status 0 "net5501: the run ends in PASS with QEMU status 33"
emu_expect_header "net5501" net5501
expect_line '^# emulate: pci: configuration space from the listing net5501-combios-showpci\.txt \(9 functions\), plus the Geode LX host bridge' \
	"net5501: PCI from the comBIOS listing, host bridge added"
expect_line '^# pci: 00:01\.2 1022:2082 10\.10\.00 rev 00 BAR0=mem32:0xa0000000/16K ' "net5501: PCI table lists 00:01.2 1022:2082 at BAR0 0xa0000000"
expect_line '^# pci: 00:14\.0 1022:2090 ' "net5501: PCI table lists the CS5536 ISA bridge at 00:14.0 (0:20:0 in the listing)"
! grep -qE '^# pci: .* 8086:1237 ' "$BOOT_LOG"; ok $? "net5501: QEMU's own i440FX is hidden"
expect_line '^ok [0-9]+ - pci: enumeration found a host bridge on bus 0 \(10 functions, host bridge at 00:01\.0\)$' "net5501: host bridge found at 00:01.0"
expect_line '^# cpu\.vendor=AuthenticAMD$' "net5501: CPUID vendor from the Geode LX dump"
expect_line '^# cpu\.signature=0x000005a2$' "net5501: CPUID signature 0x5A2 from the dump"
expect_line '^ok [0-9]+ - geode-sb: probe \(1022:2082 at 00:01\.2' "net5501: the driver probes the block"
expect_line '^ok [0-9]+ - geode-sb: AES-128 ECB/CBC through DMA matches lib/aes' "net5501: AES through DMA"
for k in "ecb encrypt" "ecb decrypt" "cbc encrypt" "cbc decrypt"; do
	set -- $k
	expect_line "^ok [0-9]+ - kat: geode-sb aes-128-$1 $2\$" "net5501: Geode KAT aes-128-$1 $2 ok through the driver"
done
for t in 0 1 2 3; do
	expect_line "^ok [0-9]+ - geode-trng/tsel$t: throughput \\([0-9]+ bytes/s, emulated: " \
		"net5501: TRNG T_SEL $t throughput test ok, the figure labelled (emulated)"
	expect_line "^ok [0-9]+ - rng: geode-trng/tsel$t source delivers 64 bytes$" "net5501: TRNG T_SEL $t delivers"
done
expect_line '^# engine: aes geode-sb: .*, emulated\)$' "net5501: the geode-sb engine says emulated"
expect_line '^# geode-sb:aes-128-cbc\(emulated\) ' "net5501: its benchmark rows end in (emulated)"
expect_line '^# @cipher engine=geode-sb .* emulated=1 .* t=[0-9.]+$' "net5501: its @cipher records say emulated=1"
! grep -qE '^# @cipher engine=geode-sb .* emulated=0 ' "$BOOT_LOG"; ok $? "net5501: no geode-sb record says emulated=0"
expect_line '^ok [0-9]+ - emulate: no protocol slip on the Geode model ' "net5501: the driver made no protocol slip on the model"
expect_line '^# @identity version=[^ ]+ image_sha256=[0-9a-f]{64} emulate=net5501 ' "net5501: @identity names the emulated profile"
expect_line '^# @identity .* smbios=absent .* sys_serial=absent .* bios_banner=absent nics=4 asset=absent tag=absent box=mac-[0-9a-f]{12} t=' "net5501: SMBIOS absent (QEMU's tables are not the box's), four NICs"
expect_line '^# identity: SMBIOS absent: emulated machine' "net5501: the report says why SMBIOS is absent"
for i in 1 2 3 4; do
	expect_line "^# @nic pci=00:0$((i + 5)).0 id=1106:3053 kind=via-rhine mac=00:00:24:cb:55:0$i t=" \
		"net5501: Rhine $i's station address from the profile (emu/emu_profiles.c)"
done
expect_line '^# geode-trng/tsel0\(emulated\) +[0-9]+ ' "net5501: the RNG summary row of an emulated source says so"
# Only T_SEL 3 is judged; T_SEL 0-2 are characterised, their statistics visible.
for t in 0 1 2; do
	expect_line "^ok [0-9]+ - rng: geode-trng/tsel$t characterised \\(information only: [0-9]+ of [0-9]+ bytes, .*H_mcv=[0-9.]+ H_markov=[0-9.]+ bits/byte" \
		"net5501: T_SEL $t characterised, its estimates in the line"
	expect_line "^# rng: geode-trng/tsel$t: outside the bounds of a full-entropy source \\(information\\): " "net5501: T_SEL $t: the statistics outside a full-entropy bound named as information"
	expect_line "^# @rng source=geode-trng/tsel$t .* claim=characterise verdict=info emulated=1( t=[^ ]+)?$" "net5501: T_SEL $t @rng record says characterise/info"
	! grep -qE "^(not )?ok [0-9]+ - rng: geode-trng/tsel$t (fips|90b|ent)-" "$BOOT_LOG"; ok $? "net5501: no pass/fail line for T_SEL $t"
done
expect_line '^ok [0-9]+ - rng: geode-trng/tsel3 90b-mcv$' "net5501: T_SEL 3 judged as full entropy"
expect_line '^# @rng source=geode-trng/tsel3 .* claim=full verdict=pass emulated=1( t=[^ ]+)?$' "net5501: T_SEL 3 @rng record says full/pass"
! grep -qE '^(not )?ok [0-9]+ - rng: geode-trng/test-mode|^# @rng source=geode-trng/test-mode' "$BOOT_LOG"
ok $? "net5501: test mode is no RNG source (no statistics, no verdict)"
expect_line '^ok [0-9]+ - geode-trng/test-mode: T_TM probe \(information: ' "net5501: the T_TM probe reports information"
expect_line '^ok [0-9]+ - geode-sb: hidden-key probe \(WK = 0, context B\) # finding: passed$' \
	"net5501: the hidden-key probe is a finding (no public driver uses WK = 0 or context B)"
expect_line '^# @finding driver=geode-sb test=geode-sb:\\x20hidden-key\\x20probe[^ ]* outcome=passed detail=factory\\x20all-ones\\x20hidden\\x20key' \
	"net5501: the hidden-key probe classifies the factory key"
# Item 8: the dual-context row, with what it measured.
expect_line '^# geode-sb:aes-128-ecb:dual-context\(emulated\) +[0-9.]+k ' "net5501: a :dual-context benchmark row"
expect_line '^# @cipher engine=geode-sb alg=aes-128-ecb .*variant=dual-context emulated=1 reps=[0-9]+ bytes=[0-9,]*,16384 .* t=[^ ]+$' "net5501: the @cipher record of the dual-context variant, up to 16384 bytes"
expect_line '^# bench: geode-sb:aes-128-ecb:dual-context\(emulated\): contexts A and B started together, same key, ECB encrypt' \
	"net5501: the report says what the dual row measured"
expect_line "^# emulate: nic: the emulated NICs take the profile's made-up addresses" "net5501: without -nic mac= the NICs take the profile's addresses"
emu_done

# With QEMU's -nic mac=, the four NICs take it and the addresses after it:
# emulated boxes booted each with its own mac= are boxes of their own.
QEMU_EXTRA="-nic user,model=e1000,mac=00:00:24:cb:00:fe" emu_boot "net5501-mac" "net5501" bench=off rng_bytes=2500
expect_status 0 "net5501-mac: the run passes"
for i in 0 1 2 3; do
	expect_line "^# @nic pci=00:0$((i + 6)).0 id=1106:3053 kind=via-rhine mac=00:00:24:cb:0$(( (254 + i) / 256 )):$(printf %02x $(( (254 + i) % 256 ))) t=" \
		"net5501-mac: Rhine $((i + 1)) takes QEMU's -nic mac= counted up by $i (carry included)"
done
expect_line ' box=mac-000024cb00fe t=' "net5501-mac: the box key is QEMU's -nic address"
expect_line "^# emulate: nic: the emulated NICs take QEMU's -nic mac= and the addresses after it$" "net5501-mac: the header says where the addresses came from"
finish
