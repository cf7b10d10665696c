/*
 * Host glue for the Geode LX security block model: puts a model machine
 * (emu/models/geode_sb_model.h) behind the hardware access layer of a
 * host program (tests/host/hw_host.h), so drivers/geode_sb runs unchanged.
 */
#ifndef CQ_TESTS_GEODE_SB_HOST_H
#define CQ_TESTS_GEODE_SB_HOST_H

#include "emu/models/geode_sb_model.h"

/*
 * hw_host_reset(), then: a PCI machine in pm (host bridge 1022:2080 at
 * 00:01.0 and the block at 00:01.2, geode_sb_model_add_machine), BAR0's
 * 16 KiB at m->bar0 served by the model, the MSR handlers, and pci_scan()
 * so the kernel's PCI table lists the machine. Configure m (faults,
 * polls, EEPROM state) before. Returns 0, or -1 if the model did not fit.
 */
int geode_sb_host_install(struct geode_sb_model *m, struct pci_model *pm);

/*
 * geode_sb_host_install(), then engine_mark_emulated("geode-") and
 * geode_sb_probe() (which registers the engine and the RNG sources when
 * the model lets it). Returns what install returned.
 */
int geode_sb_host_probe(struct geode_sb_model *m, struct pci_model *pm);

#endif
