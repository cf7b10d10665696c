#!/bin/sh
# Prints the QEMU -cpu model to boot an emulated machine profile with
# (make run MACHINE=..., tests/boot/emu-*.t). The emulated CPUID answers the
# kernel whatever QEMU runs; the real CPU only has to execute the code the
# profile's CPUID lets the kernel choose:
#   Geode LX boards: pentium,+cmov, the closest QEMU model (no SSE, no long NOP);
#   VIA C3 Nehemiah, C7, Nano: qemu32, which has the SSE their CPUID reports
#     and no AES-NI or RDRAND to leak through;
#   Zhaoxin KX-7000: max, since its CPUID reports AES-NI and RDRAND too;
#   C3 Samuel 2: pentium (no CMOV, no SSE);
#   Ivy Bridge: max, whose AES-NI and RDRAND TCG executes.
# `--list` prints the profiles (those of emu/emu_profiles.c, in its
# order). An unknown name is an error (exit 2, the profiles on stderr), so
# that `make run MACHINE=typo` stops before building anything.
PROFILES="net5501 alix c7 nano nehemiah samuel2 zhaoxin ivybridge"
case "${1:-}" in
--list) echo "$PROFILES" ;;
net5501|alix) echo 'pentium,+cmov' ;;
c7|nano|nehemiah) echo 'qemu32' ;;
samuel2) echo 'pentium' ;;
zhaoxin|ivybridge) echo 'max' ;;
*)
	echo "emu-cpu: no emulated machine profile '${1:-}' (profiles: $PROFILES)" >&2
	exit 2 ;;
esac
