/*
 * Host stand-in for drivers/padlock/padlock_cr0.c: the driver clears and
 * restores the emulator's virtual CR0 (tests/drivers/padlock/padlock_emu.h), so a test
 * can start with CR0.TS set and see the driver clear it (or, with the
 * no_cr0_ts quirk switch, the emulated #NM).
 */
#include <stdint.h>

#include "drivers/padlock/padlock_int.h"
#include "tests/drivers/padlock/padlock_emu.h"

#define CR0_EM	(1u << 2)
#define CR0_TS	(1u << 3)

uint32_t padlock_cr0_enter(void)
{
	uint32_t cr0 = emu_cr0();
	emu_set_cr0(cr0 & ~(CR0_TS | CR0_EM));
	return cr0;
}

void padlock_cr0_leave(uint32_t saved)
{
	emu_set_cr0(emu_cr0() | (saved & (CR0_TS | CR0_EM)));
}
