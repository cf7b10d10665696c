/*
 * fpu: switching on the x87 FPU and the SSE state so that SSE, SSE2 and
 * AES-NI instructions can run (the AES-NI engine needs the XMM registers).
 */
#ifndef CQ_KERNEL_FPU_H
#define CQ_KERNEL_FPU_H

#include <stdbool.h>

/*
 * Native x87 error reporting (Intel SDM vol. 3A 9.2.2, CR0.NE = 1): an
 * unmasked x87 exception raises #MF (vector 16) at the next waiting x87
 * instruction, handled like any other exception, instead of the legacy
 * FERR#/IRQ 13 path (on which QEMU aborts). Also clears CR0.EM/TS, sets MP
 * and resets the x87 (FNINIT: every exception masked). Call once at boot.
 */
void fpu_x87_init(void);

/*
 * Enables SSE as Intel SDM vol. 3A 13.1.3 and 9.6 describe: CR0.MP set,
 * CR0.EM and CR0.TS clear, CR0.NE set (x87 errors as #MF, not IRQ 13),
 * FNINIT, then CR4.OSFXSR and CR4.OSXMMEXCPT set and MXCSR loaded with its
 * reset value 0x1F80 (all SIMD exceptions masked, round to nearest).
 * Call once, after cpu_init(). Returns false, changing nothing, when CPUID
 * does not report SSE (CPUID.1:EDX.SSE[25]) and FXSAVE/FXRSTOR
 * (CPUID.1:EDX.FXSR[24]), which CR4.OSFXSR requires; true once SSE is on.
 */
bool fpu_enable_sse(void);

/* Whether fpu_enable_sse() succeeded. */
bool fpu_sse_enabled(void);

#endif
