#!/bin/bash
# Boot test: the GRUB rescue ISO (as `make iso` builds it; the copy of
# `make check-media`) as an IDE CD-ROM, under -cpu pentium; its menu must
# be the CompactFlash image's.
. tests/boot/media-lib.sh
ISO="$CQ_MEDIA/cryptoqual.iso"
echo "TAP version 13"
need_medium "$ISO"

xorriso -osirrox on -indev "$ISO" -extract /boot/grub/grub.cfg "$TMPD/grub.cfg" > /dev/null 2>&1 &&
	xorriso -osirrox on -indev "$ISO" -extract /boot/cryptoqual.elf "$TMPD/k.elf" > /dev/null 2>&1
ok $? "iso: holds /boot/grub/grub.cfg and /boot/cryptoqual.elf"
cmp -s "$TMPD/k.elf" "$CQ_KERNEL"; ok $? "iso: /boot/cryptoqual.elf is the built kernel"
SERIAL=$(serial_of "$TMPD/grub.cfg")
diag "iso: built with SERIAL=${SERIAL:-?}"
check_grub_cfg iso "$TMPD/grub.cfg" /boot/cryptoqual.elf "$SERIAL"
if [ -f "$CQ_MEDIA/cryptoqual-cf.img" ]; then
	mtype -i "$CQ_MEDIA/cryptoqual-cf.img@@1M" ::/boot/grub/grub.cfg > "$TMPD/cf.cfg" 2>/dev/null
	cmp -s "$TMPD/cf.cfg" "$TMPD/grub.cfg"; ok $? "iso: the menu is the CompactFlash image's, byte for byte"
fi

boot_medium "iso" iso --iso "$ISO" --cpu pentium --timeout 120
check_boot iso "GRUB 2" "$SERIAL"
grep -aq "cryptoqual: full run, bench=full (console ttyS0 $SERIAL)" "$RAW_LOG"
ok $? "iso: GRUB showed the menu (quick and full entries) on the serial port"
check_qualreport iso
finish
