/*
 * Model glue for build/i386/cavp-geode: tools/host/cavp.c calls its weak
 * hook cavp_register_model_engines() after registering the software
 * engines; this file defines it: the Geode LX security block model is
 * installed behind hw_host and the driver probed, which registers
 * "geode-sb". The driver's log goes to stdout as `# geode-sb: ...` lines,
 * after the probe and again at exit (errors of the run).
 *
 * CQ_GEODE_FAULT=NAME (a fault of emu/models/geode_sb_model.h, e.g.
 * wrong-data) runs the files against a misbehaving model, so a test can
 * show that cavp catches it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "drivers/geode_sb/geode_sb.h"
#include "emu/models/geode_sb_model.h"
#include "kernel/run/driver_run.h"
#include "tests/drivers/geode_sb/geode_sb_host.h"

void cavp_register_model_engines(void);

static void flush_driver_log(void)
{
	driver_flush_log(&geode_sb_driver);
	fflush(stdout);
}

void cavp_register_model_engines(void)
{
	static struct geode_sb_model m;
	static struct pci_model pm;
	const char *fault = getenv("CQ_GEODE_FAULT");

	geode_sb_model_init(&m);
	if (fault && *fault) {
		m.faults = geode_sb_model_fault(fault);
		if (!m.faults)
			fprintf(stderr, "cavp-geode: unknown fault '%s' in CQ_GEODE_FAULT\n", fault);
	}
	if (geode_sb_host_probe(&m, &pm) != 0)
		fprintf(stderr, "cavp-geode: the model did not fit the host PCI/MMIO tables\n");
	flush_driver_log();
	atexit(flush_driver_log);
}
