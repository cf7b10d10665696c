/*
 * driver_table: the table of drivers, the only place in the run that names
 * them. Adding a driver: its folder under drivers/, and one line here.
 */
#include "kernel/run/driver_run.h"

#include <stddef.h>

#include "drivers/aesni/aesni.h"
#include "drivers/geode_sb/geode_sb.h"
#include "drivers/padlock/padlock.h"
#include "drivers/rdrand/rdrand.h"
#include "drivers/vperm/vperm.h"

static const struct driver *const driver_table[] = {
	&geode_sb_driver,
	&aesni_driver,
	&vperm_driver,
	&rdrand_driver,
	&padlock_driver,
};
#define N_DRIVERS (sizeof(driver_table) / sizeof(driver_table[0]))

void drivers_probe(const struct driver_facts *f)
{
	unsigned i;
	for (i = 0; i < N_DRIVERS; i++)
		driver_run_probe(driver_table[i], f);
}

void drivers_selftests(void)
{
	unsigned i;
	for (i = 0; i < N_DRIVERS; i++)
		driver_run_tests(driver_table[i]);
}

void drivers_flush_logs(void)
{
	unsigned i;
	for (i = 0; i < N_DRIVERS; i++)
		driver_flush_log(driver_table[i]);
}
