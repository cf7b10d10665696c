#!/bin/sh
# Builds a raw CompactFlash disk image: an MBR with one active FAT16
# partition, GRUB 2 (i386-pc) in the MBR gap, the kernel and the GRUB menu.
# Needs no root and no loop device: the partition table is written with dd,
# the file system with mtools (docs/boot-media.md, ../shared/notes/boot-and-qemu.md).
#
#   scripts/mk-cf-image.sh --kernel ELF --serial BAUD|firmware [--timeout S] [--append OPTS]
#                          [--size-mb N] [--note TEXT] -o OUT.img
#
# Write it to a card with `dd if=OUT.img of=/dev/sdX bs=1M conv=fsync`.
# Layout (512-byte sectors):
#   LBA 0          MBR: GRUB boot.img code (446 bytes), partition table, 55AA
#   LBA 1..        GRUB core.img (biosdisk, part_msdos, fat, multiboot, ...)
#   LBA 2048..end  partition 1, type 0x06 (FAT16), active: /boot/cryptoqual.elf,
#                  /boot/grub/grub.cfg, /boot/grub/i386-pc/*.mod, /cryptoqual.txt
#                  (a note: serial speed and --note TEXT, e.g. the version)
# SOURCE_DATE_EPOCH (default: the kernel's modification time) fixes every
# timestamp, so the same kernel gives the same image.
set -eu

GRUB_DIR=/usr/lib/grub/i386-pc
PART_START=2048         # sectors: 1 MiB, the usual alignment; core.img must end before it
SECTOR=512
HEADS=16                # CHS geometry written into the table (LBA is what BIOSes use)
SPT=63
CORE_MODULES="biosdisk part_msdos fat multiboot normal configfile serial terminal echo test sleep"

. "$(dirname "$0")/media-args.sh"
size_mb=32
note=""
while [ $# -gt 0 ]; do
	media_need_value mk-cf-image "$@"
	media_common_opt "$1" "$2" || case "$1" in
	--size-mb) size_mb="$2" ;;
	--note) note="$2" ;;
	*) echo "mk-cf-image: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
media_require mk-cf-image "mk-cf-image.sh --kernel ELF --serial BAUD|firmware [--timeout S] [--append OPTS] [--size-mb N] -o OUT.img"
[ -f "$GRUB_DIR/boot.img" ] || { echo "mk-cf-image: $GRUB_DIR/boot.img missing (Debian package grub-pc-bin)" >&2; exit 2; }
case "$size_mb" in
''|*[!0-9]*) echo "mk-cf-image: --size-mb must be a number" >&2; exit 2 ;;
esac
[ "$size_mb" -ge 8 ] || { echo "mk-cf-image: --size-mb must be at least 8" >&2; exit 2; }

here=$(dirname "$0")
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$kernel")}
export SOURCE_DATE_EPOCH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
img="$tmp/cf.img"
total=$((size_mb * 1024 * 1024 / SECTOR))
part_len=$((total - PART_START))

"$here/mk-grub-cfg.sh" --serial "$serial" --kernel /boot/cryptoqual.elf --timeout "$timeout" --append "$append" > "$tmp/grub.cfg"
{
	echo "cryptoqual CompactFlash image"
	sed -n 's/^# cryptoqual boot menu.*: \(serial.*\)$/\1/p' "$tmp/grub.cfg"
	[ -z "$note" ] || echo "$note"
} > "$tmp/cryptoqual.txt"

# 1. The empty disk.
truncate -s "$((total * SECTOR))" "$img"

# 2. GRUB's core image, read by boot.img from LBA 1 onwards.
# shellcheck disable=SC2086 # the module list is meant to split
grub-mkimage -O i386-pc -p '(hd0,msdos1)/boot/grub' -o "$tmp/core.img" $CORE_MODULES
core_sectors=$(( ($(stat -c %s "$tmp/core.img") + SECTOR - 1) / SECTOR ))
if [ $((1 + core_sectors)) -gt "$PART_START" ]; then
	echo "mk-cf-image: core.img ($core_sectors sectors) does not fit before LBA $PART_START" >&2
	exit 1
fi
dd if="$GRUB_DIR/boot.img" of="$img" bs=446 count=1 conv=notrunc status=none
dd if="$tmp/core.img" of="$img" bs=$SECTOR seek=1 conv=notrunc status=none

# 3. The partition table entry (MBR offset 446): active, CHS start, type,
#    CHS end, LBA start, sector count (little-endian), then 0x55AA at 510.
chs() {  # chs LBA: prints the 3 CHS bytes as printf octal escapes
	c=$(($1 / (HEADS * SPT)))
	h=$(( ($1 / SPT) % HEADS ))
	s=$(( $1 % SPT + 1 ))
	if [ "$c" -gt 1023 ]; then  # beyond CHS: the conventional 1023/254/63 marker
		c=1023; h=254; s=63
	fi
	printf '\\%03o\\%03o\\%03o' "$h" $(( s | ((c >> 8) << 6) )) $(( c & 255 ))
}
le32() {  # le32 N: prints N as 4 little-endian bytes in printf octal escapes
	printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
}
# shellcheck disable=SC2059
printf "\\200$(chs $PART_START)\\006$(chs $((total - 1)))$(le32 $PART_START)$(le32 $part_len)" |
	dd of="$img" bs=1 seek=446 conv=notrunc status=none
printf '\125\252' | dd of="$img" bs=1 seek=510 conv=notrunc status=none

# 4. The FAT file system in the partition, and its files. The volume serial
#    number comes from the epoch so that rebuilds are identical.
part="$img@@$((PART_START * SECTOR))"
serial_no=$(printf '%08X' $((SOURCE_DATE_EPOCH & 0xffffffff)))
mformat -i "$part" -T "$part_len" -h $HEADS -s $SPT -H $PART_START -N "$serial_no" -v CRYPTOQUAL ::
mmd -i "$part" ::/boot ::/boot/grub ::/boot/grub/i386-pc
mcopy -i "$part" "$kernel" ::/boot/cryptoqual.elf
mcopy -i "$part" "$tmp/grub.cfg" ::/boot/grub/grub.cfg
mcopy -i "$part" "$tmp/cryptoqual.txt" ::/cryptoqual.txt
# The modules, so that GRUB's rescue shell can load any command by hand.
mcopy -i "$part" "$GRUB_DIR"/*.mod "$GRUB_DIR"/*.lst ::/boot/grub/i386-pc/

mkdir -p "$(dirname "$out")"
mv "$img" "$out"
echo "mk-cf-image: $out: ${size_mb} MiB, serial $serial, core.img $core_sectors sectors"
