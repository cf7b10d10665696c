#!/bin/bash
# Boot test: PXE into PXELINUX, which loads the kernel with mboot.c32, from the
# TFTP tree (as `make pxe` builds it; the copy of `make check-media`), over
# QEMU's user-mode network and its DHCP and TFTP.
. tests/boot/media-lib.sh
TREE="$CQ_MEDIA/pxe"
echo "TAP version 13"
need_medium "$TREE/pxelinux.0"

SERIAL=$(serial_of "$TREE/boot/grub/grub.cfg")
diag "pxe: built with SERIAL=${SERIAL:-?}"
cfg="$TREE/pxelinux.cfg/default"
grep -qx "SERIAL 0 $SERIAL" "$cfg"; ok $? "pxe-pxelinux: PXELINUX's console is the serial port at $SERIAL"
awk '/^LABEL quick$/ { q = 1 } q && /^  APPEND / { print; exit }' "$cfg" | grep -qx "  APPEND cryptoqual.elf console=ttyS0,$SERIAL"
ok $? "pxe-pxelinux: label quick (the default) passes console=ttyS0,$SERIAL"
grep -qx "DEFAULT quick" "$cfg"; ok $? "pxe-pxelinux: the quick run is the default"
awk '/^LABEL full$/ { f = 1 } f && /^  APPEND / { print; exit }' "$cfg" | grep -qx "  APPEND cryptoqual.elf console=ttyS0,$SERIAL bench=full"
ok $? "pxe-pxelinux: label full adds bench=full"
for f in pxelinux.0 ldlinux.c32 libcom32.c32 mboot.c32; do
	[ -f "$TREE/$f" ] || break
done
ok $? "pxe-pxelinux: pxelinux.0, ldlinux.c32, libcom32.c32 and mboot.c32 are in the tree"

boot_medium "pxe-pxelinux" pxe-pxelinux --pxe-pxelinux "$TREE" --cpu qemu32 --timeout 120
check_boot pxe-pxelinux "PXELINUX" "$SERIAL"
grep -aq '^boot: ' "$RAW_LOG"; ok $? "pxe-pxelinux: PXELINUX's boot prompt was on the serial port"
check_qualreport pxe-pxelinux
finish
