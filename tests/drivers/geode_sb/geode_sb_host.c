/* Host glue for the Geode LX security block model. See geode_sb_host.h. */
#include "tests/drivers/geode_sb/geode_sb_host.h"

#include "drivers/geode_sb/geode_sb.h"
#include "drivers/geode_sb/geode_sb_reg.h"
#include "kernel/platform/pci_bus.h"
#include "tests/host/hw_host.h"

int geode_sb_host_install(struct geode_sb_model *m, struct pci_model *pm)
{
	hw_host_reset();
	if (!geode_sb_model_add_machine(m, pm))
		return -1;
	hw_host_set_pci(pm);
	if (hw_host_add_mmio(m->bar0, GEODE_SB_BAR_SIZE, geode_sb_model_mmio_read,
			     geode_sb_model_mmio_write, m) != 0)
		return -1;
	hw_host_set_msr(geode_sb_model_msr_read, geode_sb_model_msr_write, m);
	pci_scan();
	return 0;
}

int geode_sb_host_probe(struct geode_sb_model *m, struct pci_model *pm)
{
	int rc = geode_sb_host_install(m, pm);
	engine_mark_emulated("geode-");
	geode_sb_probe();
	return rc;
}
