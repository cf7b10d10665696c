#!/bin/sh
# Builds a TFTP tree that network-boots the kernel three ways (the DHCP
# settings for each are in docs/boot-media.md):
#
#   cryptoqual.ipxe          iPXE script: quick run (press f within the
#                            timeout for the full run, if iPXE shows a console)
#   cryptoqual-full.ipxe     iPXE script: the full run, no question asked
#   undionly.kpxe            iPXE for PXE ROMs that are not iPXE (chainload)
#   boot/grub/i386-pc/core.0 GRUB netboot (grub-mknetdir), menu boot/grub/grub.cfg
#   pxelinux.0               PXELINUX + ldlinux.c32, libcom32.c32, mboot.c32,
#                            menu pxelinux.cfg/default (labels quick, full)
#   cryptoqual.elf           the kernel
#
#   scripts/mk-pxe-tree.sh --kernel ELF --serial BAUD|firmware [--timeout S] [--append OPTS] -o DIR
#
# The tree is meant to be the TFTP server's root (GRUB looks for its files
# under /boot/grub there). Every menu passes console=ttyS0,BAUD to the kernel
# and sets the loader's own console to the same speed where it has one.
set -eu

SYSLINUX_BIOS=/usr/lib/syslinux/modules/bios    # Debian syslinux-common
PXELINUX=/usr/lib/PXELINUX/pxelinux.0           # Debian pxelinux
UNDIONLY=/usr/lib/ipxe/undionly.kpxe            # Debian ipxe
NET_MODULES="pxe tftp net multiboot normal configfile serial terminal echo test sleep"

. "$(dirname "$0")/media-args.sh"
while [ $# -gt 0 ]; do
	media_need_value mk-pxe-tree "$@"
	media_common_opt "$1" "$2" || { echo "mk-pxe-tree: unknown option $1" >&2; exit 2; }
	shift 2
done
media_require mk-pxe-tree "mk-pxe-tree.sh --kernel ELF --serial BAUD|firmware [--timeout S] [--append OPTS] -o DIR"
for f in "$PXELINUX" "$SYSLINUX_BIOS/ldlinux.c32" "$SYSLINUX_BIOS/libcom32.c32" \
	"$SYSLINUX_BIOS/mboot.c32" "$UNDIONLY"; do
	[ -f "$f" ] || { echo "mk-pxe-tree: $f missing (Debian packages pxelinux syslinux-common ipxe)" >&2; exit 2; }
done

here=$(dirname "$0")
tmp="$out.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/boot/grub" "$tmp/pxelinux.cfg"
cp "$kernel" "$tmp/cryptoqual.elf"

# GRUB menu first: it also validates --serial and --timeout.
"$here/mk-grub-cfg.sh" --serial "$serial" --kernel /cryptoqual.elf --timeout "$timeout" --append "$append" \
	> "$tmp/boot/grub/grub.cfg"

extra=${append:+ $append}
# --serial firmware: the kernel keeps the speed the firmware set, and
# PXELINUX writes through the BIOS console (which the firmware redirects).
console="console=ttyS0,${serial}"
pxelinux_serial="SERIAL 0 ${serial}"
if [ "$serial" = firmware ]; then
	console="console=ttyS0"
	pxelinux_serial="# no SERIAL line: the BIOS console, at the firmware's speed"
fi

# 1. iPXE. A script's relative paths resolve against the script's own URL.
cat > "$tmp/cryptoqual.ipxe" <<EOF
#!ipxe
# cryptoqual, quick run (scripts/mk-pxe-tree.sh); console ttyS0 ${serial} 8N1.
prompt --key f --timeout $((timeout * 1000)) cryptoqual: press f for the full run (bench=full) && goto full || goto quick
:quick
kernel cryptoqual.elf ${console}${extra}
boot
:full
kernel cryptoqual.elf ${console} bench=full${extra}
boot
EOF
cat > "$tmp/cryptoqual-full.ipxe" <<EOF
#!ipxe
# cryptoqual, full run (scripts/mk-pxe-tree.sh); console ttyS0 ${serial} 8N1.
kernel cryptoqual.elf ${console} bench=full${extra}
boot
EOF
cp "$UNDIONLY" "$tmp/undionly.kpxe"

# 2. GRUB netboot: core.0 plus the modules it loads over TFTP.
grub-mknetdir --net-directory="$tmp" --subdir=boot/grub --install-modules="$NET_MODULES" \
	--fonts= --locales= --themes= > "$tmp/grub-mknetdir.log" 2>&1 ||
	{ cat "$tmp/grub-mknetdir.log" >&2; exit 1; }
rm -f "$tmp/grub-mknetdir.log"
[ -f "$tmp/boot/grub/i386-pc/core.0" ] || { echo "mk-pxe-tree: grub-mknetdir made no core.0" >&2; exit 1; }

# 3. PXELINUX (syslinux 6: pxelinux.0 loads ldlinux.c32; mboot.c32 needs
#    libcom32.c32 and loads a multiboot kernel given first in APPEND).
cp "$PXELINUX" "$SYSLINUX_BIOS/ldlinux.c32" "$SYSLINUX_BIOS/libcom32.c32" \
	"$SYSLINUX_BIOS/mboot.c32" "$tmp/"
cat > "$tmp/pxelinux.cfg/default" <<EOF
# cryptoqual (scripts/mk-pxe-tree.sh): console ttyS0 ${serial} 8N1.
# At the boot: prompt type "full" for the full run (bench=full).
${pxelinux_serial}
PROMPT 1
TIMEOUT $((timeout * 10))
DEFAULT quick
DISPLAY pxelinux.cfg/cryptoqual.msg

LABEL quick
  KERNEL mboot.c32
  APPEND cryptoqual.elf ${console}${extra}

LABEL full
  KERNEL mboot.c32
  APPEND cryptoqual.elf ${console} bench=full${extra}
EOF
cat > "$tmp/pxelinux.cfg/cryptoqual.msg" <<EOF
cryptoqual: type "quick" (the default, in ${timeout} s) or "full" (bench=full), then Enter.
EOF

rm -rf "$out"
mv "$tmp" "$out"
echo "mk-pxe-tree: $out: iPXE, GRUB netboot and PXELINUX, serial $serial"
