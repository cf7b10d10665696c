#!/bin/bash
# Boot test: PXE through QEMU's iPXE ROM and the iPXE script of the TFTP tree
# (as `make pxe` builds it; the copy of `make check-media`), over QEMU's
# user-mode network and its built-in DHCP and TFTP.
. tests/boot/media-lib.sh
TREE="$CQ_MEDIA/pxe"
echo "TAP version 13"
need_medium "$TREE/cryptoqual.ipxe"

SERIAL=$(serial_of "$TREE/boot/grub/grub.cfg")
diag "pxe: built with SERIAL=${SERIAL:-?}"
head -n 1 "$TREE/cryptoqual.ipxe" | grep -qx '#!ipxe' &&
	grep -qx "kernel cryptoqual.elf console=ttyS0,$SERIAL" "$TREE/cryptoqual.ipxe" &&
	grep -qx "kernel cryptoqual.elf console=ttyS0,$SERIAL bench=full" "$TREE/cryptoqual.ipxe"
ok $? "pxe-ipxe: cryptoqual.ipxe boots the quick run, or the full run on a key press, at $SERIAL"
grep -qx "kernel cryptoqual.elf console=ttyS0,$SERIAL bench=full" "$TREE/cryptoqual-full.ipxe" &&
	! grep -q prompt "$TREE/cryptoqual-full.ipxe"
ok $? "pxe-ipxe: cryptoqual-full.ipxe boots the full run without asking"
cmp -s "$TREE/undionly.kpxe" /usr/lib/ipxe/undionly.kpxe; ok $? "pxe-ipxe: undionly.kpxe (chainloading from another PXE ROM) is Debian's"
cmp -s "$TREE/cryptoqual.elf" "$CQ_KERNEL"; ok $? "pxe: cryptoqual.elf is the built kernel"

boot_medium "pxe-ipxe" pxe-ipxe --pxe-ipxe "$TREE" --cpu qemu32 --timeout 120
check_boot pxe-ipxe "iPXE" "$SERIAL"
expect_line '^# cmdline: loader image name .tftp://[0-9.]+/cryptoqual\.elf. skipped$' \
	"pxe-ipxe: the kernel came over TFTP and skipped iPXE's URL"
check_qualreport pxe-ipxe
finish
