/*
 * nic_table: the table of NIC drivers (lib/net/netdev.h), the only place
 * the network stage names them. Adding a NIC driver: its folder under
 * drivers/, and one line here.
 */
#include "kernel/run/net_report.h"

#include <stddef.h>

#include "drivers/e1000/e1000.h"
#include "drivers/rhine/rhine.h"

static const struct nic_driver *const nic_table[] = {
	&e1000_nic_driver,
	&rhine_nic_driver,
};

const struct nic_driver *nic_driver_for(uint16_t vendor, uint16_t device)
{
	unsigned i;
	for (i = 0; i < sizeof(nic_table) / sizeof(nic_table[0]); i++)
		if (nic_table[i]->match(vendor, device))
			return nic_table[i];
	return NULL;
}
