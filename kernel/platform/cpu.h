/* The CPU this image runs on, decoded once at boot from CPUID (lib/platform/cpuid.c). */
#ifndef CQ_KERNEL_CPU_H
#define CQ_KERNEL_CPU_H

#include "lib/platform/cpuid.h"

/* Decodes CPUID through the hardware access layer into the global cpu. */
void cpu_init(void);

/* Prints `# cpu.KEY=VALUE` lines (the keys of build/host/cpuid-decode --kv). */
void cpu_report(void);

/*
 * Prints every CPUID leaf the CPU reports (basic, extended and, on VIA and
 * Zhaoxin, Centaur) as `# CPUID LLLLLLLL: EAX-EBX-ECX-EDX` lines, the
 * InstLatx64 layout build/host/cpuid-decode reads (the verbose option).
 */
void cpu_dump_leaves(void);

/* The decoded CPU (valid after cpu_init). */
const struct cpu_info *cpu(void);

#endif
