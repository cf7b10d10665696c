#!/bin/sh
# Prints the QEMU -cpu model to boot an emulated machine profile with
# (make run MACHINE=..., tests/boot/emu-*.t). The emulated CPUID answers the
# kernel whatever QEMU runs; the real CPU only has to execute the code the
# profile's CPUID lets the kernel choose:
#   Geode LX boards: pentium,+cmov, the closest QEMU model (no SSE, no long NOP);
#   VIA C3 Nehemiah, C7, Nano (and the synthetic Zhaoxin): qemu32, which has
#     the SSE their CPUID reports and no AES-NI or RDRAND to leak through;
#   C3 Samuel 2: pentium (no CMOV, no SSE);
#   Ivy Bridge: max, whose AES-NI and RDRAND TCG executes.
case "${1:-}" in
net5501|alix) echo 'pentium,+cmov' ;;
c7|nano|nehemiah|zhaoxin) echo 'qemu32' ;;
samuel2) echo 'pentium' ;;
*) echo 'max' ;;
esac
