/* Enabling the x87 FPU and SSE (Intel SDM vol. 3A 9.6 and 13.1.3). */
#include "kernel/platform/fpu.h"

#include <stdint.h>

#include "kernel/platform/cpu.h"
#include "kernel/platform/cpufeat.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/x86.h"

/* CR0, Intel SDM vol. 3A 2.5 */
#define CR0_MP		(1u << 1)	/* monitor coprocessor: WAIT honours TS */
#define CR0_EM		(1u << 2)	/* emulation: x87 raises #NM, SSE raises #UD */
#define CR0_TS		(1u << 3)	/* task switched: next x87/SSE use raises #NM */
#define CR0_NE		(1u << 5)	/* numeric error: x87 errors raise #MF */
/* CR4, Intel SDM vol. 3A 2.5 */
#define CR4_OSFXSR	(1u << 9)	/* OS uses FXSAVE/FXRSTOR: SSE instructions allowed */
#define CR4_OSXMMEXCPT	(1u << 10)	/* OS handles #XM: unmasked SIMD FP errors raise #XM */

/* CPUID.1:EDX, Intel SDM vol. 2A table "Feature Information Returned in EDX" */
#define CPUID_1_EDX_FXSR (1u << 24)

/* MXCSR after reset: all six exception masks set, round to nearest
 * (Intel SDM vol. 1 10.2.3). */
#define MXCSR_DEFAULT	0x1F80u

/* The kernel is assembled with -Wa,-march=i586: allow LDMXCSR here. */
__asm__(".arch .sse");

static bool sse_on;

CPUFEAT_FN("sse") static void load_mxcsr(uint32_t v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

void fpu_x87_init(void)
{
	uint32_t cr0 = x86_read_cr0();
	cr0 &= ~(CR0_EM | CR0_TS);
	cr0 |= CR0_MP | CR0_NE;
	x86_write_cr0(cr0);
	__asm__ volatile("fninit");
}

bool fpu_enable_sse(void)
{
	struct cpuid_regs r;
	uint32_t cr0;

	if (sse_on)
		return true;
	if (!cpu()->sse)
		return false;
	hw_cpuid(CPUID_LEAF_FEATURES, 0, &r);
	if (!(r.edx & CPUID_1_EDX_SSE) || !(r.edx & CPUID_1_EDX_FXSR))
		return false;

	cr0 = x86_read_cr0();
	cr0 &= ~(CR0_EM | CR0_TS);
	cr0 |= CR0_MP | CR0_NE;
	x86_write_cr0(cr0);
	__asm__ volatile("fninit");
	x86_write_cr4(x86_read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	load_mxcsr(MXCSR_DEFAULT);
	sse_on = true;
	return true;
}

bool fpu_sse_enabled(void)
{
	return sse_on;
}
