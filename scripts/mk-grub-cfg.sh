#!/bin/sh
# Prints the GRUB 2 menu shared by the CompactFlash image, the rescue ISO and
# GRUB netboot (docs/boot-media.md).
#
#   scripts/mk-grub-cfg.sh --serial BAUD|firmware --kernel PATH [--timeout SECONDS]
#                          [--append "KERNEL OPTIONS"]
#
# --serial BAUD: GRUB's menu goes to COM1 (0x3f8) only, 8N1 at BAUD: the
# Soekris comBIOS redirects the BIOS text console to the serial port itself,
# so adding GRUB's `console` terminal would print every character twice
# there. The kernel gets console=ttyS0,BAUD explicitly (README "Kernel
# command line").
# --serial firmware (one image for a mixed fleet): GRUB writes and reads
# through the BIOS console only, which the comBIOS (19200) and the tinyBIOS
# (38400) redirect to the serial port at their own speed, and the default
# entries pass console=ttyS0 without a speed: the kernel keeps the speed the
# firmware programmed (kernel/platform/console.c). More entries force a speed.
# Entries: "quick" (the default options) and "full" (bench=full); --append
# adds options to every entry, last (e.g. on_finish=reboot for a soak rack).
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
9600|19200|38400|57600|115200|firmware) ;;
*) echo "mk-grub-cfg: --serial must be 9600, 19200, 38400, 57600, 115200 or firmware (got '$serial')" >&2; exit 2 ;;
esac
[ -n "$kernel" ] || { echo "mk-grub-cfg: --kernel PATH is required" >&2; exit 2; }
case "$timeout" in
''|*[!0-9]*) echo "mk-grub-cfg: --timeout must be a whole number of seconds" >&2; exit 2 ;;
esac
case "$append" in
*[\\\"\'\$\;\{\}]*) echo "mk-grub-cfg: --append: no quotes, backslashes, \$, ; or braces" >&2; exit 2 ;;
esac
extra=${append:+ $append}

if [ "$serial" = firmware ]; then
	cat <<EOF
# cryptoqual boot menu (scripts/mk-grub-cfg.sh): serial ttyS0 firmware 8N1.
# The BIOS console (redirected to the serial port by the comBIOS or the
# tinyBIOS at the speed they use) carries the menu; the kernel keeps that speed.
terminal_input console
terminal_output console
set timeout=${timeout}
set default=quick

menuentry "cryptoqual: quick run (console ttyS0 at the firmware's speed)" --id quick {
	echo "Loading ${kernel} ..."
	multiboot ${kernel} console=ttyS0${extra}
	boot
}

menuentry "cryptoqual: full run, bench=full (console ttyS0 at the firmware's speed)" --id full {
	echo "Loading ${kernel} ..."
	multiboot ${kernel} console=ttyS0 bench=full${extra}
	boot
}
EOF
	for speed in 19200 38400 115200; do
		cat <<EOF

menuentry "cryptoqual: quick run (console ttyS0 forced to ${speed})" --id quick-${speed} {
	echo "Loading ${kernel} ..."
	multiboot ${kernel} console=ttyS0,${speed}${extra}
	boot
}
EOF
	done
	exit 0
fi

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
