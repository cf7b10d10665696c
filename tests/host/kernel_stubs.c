/*
 * What kernel/run/report.c and kernel/platform/timer.c need beyond the hardware access
 * layer, for host programs that link them: no exception guard (a fault in
 * a host test ends the program, which prove reports), no ACPI tables (the
 * host has no BIOS memory to search: timer.c then calibrates against the
 * PIT only, and tsc_ticks_for_us() assumes 2 GHz until calibrated).
 */
#include <stdbool.h>

#include "kernel/platform/acpi.h"
#include "kernel/platform/exceptions.h"

bool guard_run(const char *what, void (*fn)(void *ctx), void *ctx, struct fault_info *fi)
{
	(void)what;
	(void)fi;
	fn(ctx);
	return true;
}

const char *exc_mnemonic(unsigned vector)
{
	(void)vector;
	return "#?";
}

bool acpi_find_pm_timer(struct acpi_pm_timer *t)
{
	(void)t;
	return false;
}
