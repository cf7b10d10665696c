/*
 * CR0 around the PadLock instructions (kernel build; host tests link the
 * emulator's virtual CR0 instead). The instructions use no FPU state but
 * raise a spurious #NM when CR0.TS is set [LAES irq_ts_save, PG]; OpenBSD
 * also clears CR0.EM for xstore [OBSD]. Intel SDM vol. 3A 2.5: TS is bit 3,
 * EM bit 2.
 */
#include <stdint.h>

#include "kernel/platform/x86.h"
#include "drivers/padlock/padlock_int.h"

#define CR0_EM	(1u << 2)	/* emulation: x87 instructions raise #NM */
#define CR0_TS	(1u << 3)	/* task switched: FPU/SSE use raises #NM */

uint32_t padlock_cr0_enter(void)
{
	uint32_t cr0 = x86_read_cr0();
	if (cr0 & (CR0_TS | CR0_EM))
		x86_write_cr0(cr0 & ~(CR0_TS | CR0_EM));
	return cr0;
}

void padlock_cr0_leave(uint32_t saved)
{
	if (saved & (CR0_TS | CR0_EM))
		x86_write_cr0(x86_read_cr0() | (saved & (CR0_TS | CR0_EM)));
}
