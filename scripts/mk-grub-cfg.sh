#!/bin/sh
# Prints the GRUB 2 menu shared by the CompactFlash image, the rescue ISO and
# GRUB netboot (docs/boot-media.md).
#
#   scripts/mk-grub-cfg.sh --serial BAUD --kernel PATH [--timeout SECONDS]
#                          [--append "KERNEL OPTIONS"]
#
# GRUB's menu goes to COM1 (0x3f8) only, 8N1 at BAUD: the Soekris comBIOS
# redirects the BIOS text console to the serial port itself, so adding
# GRUB's `console` terminal would print every character twice there. The
# kernel gets console=ttyS0,BAUD explicitly (README "Kernel command line").
# Entries: "quick" (the default options) and "full" (bench=full); --append
# adds options to both, last (e.g. on_finish=reboot for a soak rack).
set -eu

serial=""
kernel=""
timeout=5
append=""
while [ $# -gt 0 ]; do
	case "$1" in
	--serial) serial="$2"; shift 2 ;;
	--kernel) kernel="$2"; shift 2 ;;
	--timeout) timeout="$2"; shift 2 ;;
	--append) append="$2"; shift 2 ;;
	*) echo "mk-grub-cfg: unknown option $1" >&2; exit 2 ;;
	esac
done
case "$serial" in
9600|19200|38400|57600|115200) ;;
*) echo "mk-grub-cfg: --serial must be 9600, 19200, 38400, 57600 or 115200 (got '$serial')" >&2; exit 2 ;;
esac
[ -n "$kernel" ] || { echo "mk-grub-cfg: --kernel PATH is required" >&2; exit 2; }
case "$timeout" in
''|*[!0-9]*) echo "mk-grub-cfg: --timeout must be a whole number of seconds" >&2; exit 2 ;;
esac
case "$append" in
*[\\\"\'\$\;\{\}]*) echo "mk-grub-cfg: --append: no quotes, backslashes, \$, ; or braces" >&2; exit 2 ;;
esac
extra=${append:+ $append}

cat <<EOF
# cryptoqual boot menu (scripts/mk-grub-cfg.sh): serial ttyS0 ${serial} 8N1.
serial --unit=0 --speed=${serial} --word=8 --parity=no --stop=1
terminal_input serial
terminal_output serial
set timeout=${timeout}
set default=quick

menuentry "cryptoqual: quick run (console ttyS0 ${serial})" --id quick {
	echo "Loading ${kernel} ..."
	multiboot ${kernel} console=ttyS0,${serial}${extra}
	boot
}

menuentry "cryptoqual: full run, bench=full (console ttyS0 ${serial})" --id full {
	echo "Loading ${kernel} ..."
	multiboot ${kernel} console=ttyS0,${serial} bench=full${extra}
	boot
}
EOF
