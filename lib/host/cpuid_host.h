/*
 * cpuid_host: the host CPU's own CPUID instruction as the query function
 * of lib/platform/cpuid.h (cpuid_decode(&ci, host_cpuid, NULL)), for the
 * host programs that look at the machine they run on
 * (tests/drivers/aesni/test_aesni.c, tools/bench/bench-host.c). The kernel
 * asks CPUID through kernel/platform/hw.h instead. Always returns true.
 */
#ifndef CQ_LIB_CPUID_HOST_H
#define CQ_LIB_CPUID_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"

static inline bool host_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	/* The CPUID instruction itself (GCC's <cpuid.h> is not used). */
	__asm__ volatile("cpuid"
			 : "=a"(out->eax), "=b"(out->ebx), "=c"(out->ecx), "=d"(out->edx)
			 : "a"(leaf), "c"(subleaf));
	return true;
}

#endif
