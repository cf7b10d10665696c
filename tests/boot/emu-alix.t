#!/bin/bash
# Boot test: the emulation build on the emulated PC Engines ALIX.2D3 (Geode
# LX dump, its lspci -nn listing, the security block model at the address
# lib/host/pci_listing.c gives a listing without BARs).
. tests/boot/emu-lib.sh
emu_start
emu_boot "alix" alix bench=off rng_bytes=2500
check_report_shape "alix"
relay_kernel_results "alix"
expect_status 0 "alix: the run ends in PASS with QEMU status 33"
emu_expect_header "alix" alix
expect_line '^# emulate: pci: configuration space from the listing alix2d3-lspci-nn\.txt \(9 functions\); ' "alix: PCI from the lspci listing"
expect_line '^# pci: 00:01\.0 1022:2080 06\.00\.00 rev 33 Host bridge$' "alix: the listed CS5536 host bridge"
expect_line '^# pci: 00:01\.2 1022:2082 10\.10\.00 rev 00 BAR0=mem32:0xefff4000/16K ' "alix: the block with BAR0 at 0xefff4000"
expect_line '^# pci: 00:0f\.5 1022:2095 ' "alix: the CS5536 EHCI at 00:0f.5"
for k in "ecb encrypt" "ecb decrypt" "cbc encrypt" "cbc decrypt"; do
	set -- $k
	expect_line "^ok [0-9]+ - kat: geode-sb aes-128-$1 $2\$" "alix: Geode KAT aes-128-$1 $2 ok through the driver"
done
expect_line '^ok [0-9]+ - emulate: no protocol slip on the Geode model ' "alix: the driver made no protocol slip on the model"
for t in 0 1 2; do
	expect_line "^ok [0-9]+ - rng: geode-trng/tsel$t characterised \\(information only: " "alix: T_SEL $t characterised (information)"
done
expect_line '^ok [0-9]+ - rng: geode-trng/tsel3 90b-mcv$' "alix: T_SEL 3 judged as full entropy"
finish
