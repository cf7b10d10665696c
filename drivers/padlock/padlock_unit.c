/*
 * padlock_unit: what every PadLock unit file calls, and nothing else, so
 * calls between the driver's files go one way (padlock.c and the unit
 * files call here; this file calls none of them): the skip reason of a
 * unit's self-test and the CR0 guard around every PadLock instruction.
 * See padlock_int.h.
 */
#include "drivers/padlock/padlock.h"

#include "lib/util/fmt.h"
#include "drivers/padlock/padlock_int.h"

const char *padlock_absent_reason(void)
{
	if (!padlock_dev.probed)
		return "the PadLock driver did not probe";
	return padlock_dev.absent;
}

bool padlock_unit_skip(enum padlock_state st, const char *unit, char *d, size_t cap)
{
	const char *why = padlock_absent_reason();

	if (why)
		fmt_snprintf(d, cap, "%s", why);
	else if (st != PADLOCK_ENABLED)
		fmt_snprintf(d, cap, "PadLock %s %s", unit,
			     st == PADLOCK_ABSENT ? "absent on this CPU" : "present but disabled");
	else
		return false;
	return true;
}

uint32_t padlock_enter(void)
{
	return PADLOCK_QUIRK(no_cr0_ts) ? 0 : padlock_cr0_enter();
}

void padlock_leave(uint32_t saved)
{
	if (!PADLOCK_QUIRK(no_cr0_ts))
		padlock_cr0_leave(saved);
}
