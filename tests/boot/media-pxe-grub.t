#!/bin/bash
# Boot test: PXE into GRUB netboot (grub-mknetdir's core.0) from the TFTP tree
# (as `make pxe` builds it; the copy of `make check-media`), over QEMU's
# user-mode network and its built-in DHCP and TFTP.
. tests/boot/media-lib.sh
TREE="$CQ_MEDIA/pxe"
echo "TAP version 13"
need_medium "$TREE/boot/grub/i386-pc/core.0"

SERIAL=$(serial_of "$TREE/boot/grub/grub.cfg")
diag "pxe: built with SERIAL=${SERIAL:-?}"
check_grub_cfg pxe-grub "$TREE/boot/grub/grub.cfg" /cryptoqual.elf "$SERIAL"
for m in pxe tftp multiboot serial; do
	[ -f "$TREE/boot/grub/i386-pc/$m.mod" ] || break
done
ok $? "pxe-grub: the GRUB modules it loads over TFTP are in boot/grub/i386-pc"

boot_medium "pxe-grub" pxe-grub --pxe-grub "$TREE" --cpu qemu32 --timeout 120
check_boot pxe-grub "GRUB 2" "$SERIAL"
grep -aq "cryptoqual: full run, bench=full (console ttyS0 $SERIAL)" "$RAW_LOG"
ok $? "pxe-grub: GRUB showed the menu (quick and full entries) on the serial port"
check_qualreport pxe-grub
finish
