#!/bin/bash
# Boot test: the CompactFlash image (as `make cf-image` builds it; the copy
# of `make check-media`) as QEMU's primary IDE disk, as a net5501 boots it;
# then an ALIX build (38400) made by an unprivileged user, and the image's
# layout and reproducibility.
. tests/boot/media-lib.sh
IMG="$CQ_MEDIA/cryptoqual-cf.img"
echo "TAP version 13"
need_medium "$IMG"
PART="$IMG@@1M"

# The disk layout: GRUB's boot.img code, one active FAT16 partition at LBA 2048.
cmp -s -n 446 "$IMG" /usr/lib/grub/i386-pc/boot.img; ok $? "cf: MBR code is GRUB's boot.img"
mbr=$(od -v -An -tx1 -j446 -N66 "$IMG" | tr -d ' \n')
[ "${mbr:0:2}" = 80 ] && [ "${mbr:8:2}" = 06 ] && [ "${mbr:16:8}" = 00080000 ] && [ "${mbr:128:4}" = 55aa ]
ok $? "cf: partition 1 active, type 0x06, starts at LBA 2048; signature 55AA (${mbr:0:32}...)"
[ "${mbr:32:96}" = "$(printf '0%.0s' $(seq 96))" ]; ok $? "cf: partitions 2-4 empty"
mtype -i "$PART" ::/boot/grub/grub.cfg > "$TMPD/grub.cfg" 2>/dev/null; ok $? "cf: FAT partition holds /boot/grub/grub.cfg"
mcopy -n -i "$PART" ::/boot/cryptoqual.elf "$TMPD/k.elf" 2>/dev/null && cmp -s "$TMPD/k.elf" "$CQ_KERNEL"
ok $? "cf: /boot/cryptoqual.elf is the built kernel"
mdir -i "$PART" ::/boot/grub/i386-pc/multiboot.mod >/dev/null 2>&1; ok $? "cf: GRUB modules in /boot/grub/i386-pc"
SERIAL=$(serial_of "$TMPD/grub.cfg")
diag "cf: built with SERIAL=${SERIAL:-?}"
check_grub_cfg cf "$TMPD/grub.cfg" /boot/cryptoqual.elf "$SERIAL"

boot_medium "cf" cf --cf "$IMG" --cpu pentium,+cmov --timeout 120
check_boot cf "GRUB 2" "$SERIAL"
grep -aq "cryptoqual: full run, bench=full (console ttyS0 $SERIAL)" "$RAW_LOG"
ok $? "cf: GRUB showed the menu (quick and full entries) on the serial port"
check_qualreport cf
drop_log

# An ALIX card: 38400, built by an unprivileged user (no root, no loop device);
# bench=off through --append keeps this second boot short.
alix="$TMPD/alix"
mkdir -p "$alix" && chmod 755 "$TMPD" && chmod 777 "$alix"
as_user=""
who=$(id -un)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	who="uid 65534 (nobody)"
	cp "$CQ_KERNEL" "$alix/k.elf" && chmod 644 "$alix/k.elf"
else
	cp "$CQ_KERNEL" "$alix/k.elf"
fi
$as_user env HOME="$alix" TMPDIR="$alix" SOURCE_DATE_EPOCH=1700000000 scripts/mk-cf-image.sh \
	--kernel "$alix/k.elf" --serial 38400 --timeout 1 --append bench=off --size-mb 16 -o "$alix/alix.img" > "$alix/out" 2>&1
ok $? "alix: mk-cf-image.sh --serial 38400 builds as $who ($(tail -n 1 "$alix/out"))"
[ "$(stat -c %s "$alix/alix.img" 2>/dev/null)" = $((16 * 1024 * 1024)) ]; ok $? "alix: --size-mb 16 gives a 16 MiB image"
SOURCE_DATE_EPOCH=1700000000 TMPDIR="$alix" scripts/mk-cf-image.sh --kernel "$alix/k.elf" --serial 38400 \
	--timeout 1 --append bench=off --size-mb 16 -o "$alix/again.img" > /dev/null 2>&1 && cmp -s "$alix/alix.img" "$alix/again.img"
ok $? "alix: the same kernel and SOURCE_DATE_EPOCH give a byte-identical image"
boot_medium "alix" alix-cf --cf "$alix/alix.img" --cpu pentium --timeout 120
check_report_shape alix
expect_status 0 "alix: the 38400 image boots to PASS under -cpu pentium"
expect_line "^# console: ttyS0 io=0x3f8 38400 8N1" "alix: the kernel's console runs at 38400"
grep -aq "cryptoqual: quick run (console ttyS0 38400)" "$RAW_LOG"; ok $? "alix: GRUB's menu names 38400"
expect_line "^# cmdline: console=ttyS0,38400 bench=off$" "alix: --append adds its options to the kernel's command line"
scripts/mk-cf-image.sh --kernel "$alix/k.elf" --serial 12345 -o "$alix/bad.img" > /dev/null 2>&1
[ $? -ne 0 ] && [ ! -e "$alix/bad.img" ]; ok $? "cf: an unsupported --serial is refused"
finish
