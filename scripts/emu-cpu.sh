#!/bin/sh
# Prints the QEMU -cpu model to boot an emulated machine profile with
# (make run MACHINE=..., tests/boot/emu-*.t). The emulated CPUID answers the
# kernel whatever QEMU runs; the real CPU only has to execute the code the
# profile's CPUID lets the kernel choose:
#   Geode LX boards: pentium,+cmov, the closest QEMU model (no SSE, no long NOP);
#   VIA C3 Nehemiah, C7: qemu32, which has the SSE their CPUID reports
#     and no AES-NI or RDRAND to leak through;
#   VIA Nano: qemu32 with SSE3 and SSSE3 added (its CPUID reports them, and
#     the vector-permute AES of drivers/vperm runs on SSSE3);
#   Zhaoxin KX-7000: max, since its CPUID reports AES-NI and RDRAND too;
#   C3 Samuel 2: pentium (no CMOV, no SSE);
#   Ivy Bridge: max, whose AES-NI and RDRAND TCG executes.
# `--list` prints the profiles (those of emu/emu_profiles.c, in its
# order); `--faults PROFILE` the faults its device models know (the
# fault_names tables of emu/models/*.c; the boot itself says which of them
# the profile's CPU offers). An unknown name is an error (exit 2, the profiles on stderr), so
# that `make run MACHINE=typo` stops before building anything.
PROFILES="net5501 alix c7 nano nehemiah samuel2 zhaoxin ivybridge"
HERE=$(dirname "$0")/..
model_faults() {  # model_faults SOURCE: the quoted names of its fault_names table
	sed -n '/fault_names\[[A-Z_]*\] = {/,/};/p' "$HERE/$1" | grep -o '"[a-z0-9-]*"' | tr -d '"' | tr '\n' ' ' |
		sed 's/ $//'
}
case "${1:-}" in
--list) echo "$PROFILES" ;;
--faults)
	case "${2:-}" in
	net5501|alix) echo "$(model_faults emu/models/geode_sb_model.c) $(model_faults emu/models/rhine_model.c)" ;;
	c7) echo "$(model_faults emu/models/padlock_model.c) $(model_faults emu/models/rhine_model.c)" ;;
	nano|nehemiah|zhaoxin) model_faults emu/models/padlock_model.c; echo ;;
	samuel2|ivybridge) echo ;;
	*) echo "emu-cpu: no emulated machine profile '${2:-}' (profiles: $PROFILES)" >&2; exit 2 ;;
	esac ;;
net5501|alix) echo 'pentium,+cmov' ;;
c7|nehemiah) echo 'qemu32' ;;
nano) echo 'qemu32,+pni,+ssse3' ;;
samuel2) echo 'pentium' ;;
zhaoxin|ivybridge) echo 'max' ;;
*)
	echo "emu-cpu: no emulated machine profile '${1:-}' (profiles: $PROFILES)" >&2
	exit 2 ;;
esac
