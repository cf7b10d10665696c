#!/bin/sh
# Builds a GRUB 2 rescue ISO (BIOS, El Torito) carrying the kernel and the same
# menu as the CompactFlash image (scripts/mk-grub-cfg.sh). Needs grub-pc-bin,
# xorriso and mtools; no root.
#
#   scripts/mk-iso.sh --kernel ELF --serial BAUD|firmware [--timeout S] [--append OPTS] -o OUT.iso
#
# Burn it, boot it as a CD-ROM (QEMU -cdrom), or write it to a USB stick:
# grub-mkrescue makes a hybrid image. SOURCE_DATE_EPOCH (default: the
# kernel's modification time) fixes the timestamps xorriso writes.
set -eu

# Only what the menu needs (and their dependencies): keeps the ISO small.
ISO_MODULES="biosdisk iso9660 part_msdos fat multiboot normal configfile serial terminal echo test sleep"

. "$(dirname "$0")/media-args.sh"
while [ $# -gt 0 ]; do
	media_need_value mk-iso "$@"
	media_common_opt "$1" "$2" || { echo "mk-iso: unknown option $1" >&2; exit 2; }
	shift 2
done
media_require mk-iso "mk-iso.sh --kernel ELF --serial BAUD|firmware [--timeout S] [--append OPTS] -o OUT.iso"

here=$(dirname "$0")
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$kernel")}
export SOURCE_DATE_EPOCH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/boot/grub"
cp "$kernel" "$tmp/root/boot/cryptoqual.elf"
"$here/mk-grub-cfg.sh" --serial "$serial" --kernel /boot/cryptoqual.elf --timeout "$timeout" --append "$append" \
	> "$tmp/root/boot/grub/grub.cfg"
touch -d "@$SOURCE_DATE_EPOCH" "$tmp/root/boot/cryptoqual.elf" "$tmp/root/boot/grub/grub.cfg"

mkdir -p "$(dirname "$out")"
grub-mkrescue --install-modules="$ISO_MODULES" --fonts= --locales= --themes= \
	-o "$tmp/out.iso" "$tmp/root" 2> "$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
mv "$tmp/out.iso" "$out"
echo "mk-iso: $out: $(( $(stat -c %s "$out") / 1024 )) KiB, serial $serial"
