/*
 * cavp-padlock: tools/host/cavp.c linked, as an i386 program for
 * qemu-i386, with the PadLock driver and the emulated VIA CPU, so
 * `cavp-padlock --engine padlock-ace FILE.rsp...` runs NIST CAVP files
 * through the driver's real instructions.
 *
 * The CPU profile comes from the environment (cavp.c's command line is its
 * own): CQ_PADLOCK_PROFILE = nehemiah|c3, esther|c7 (default) or
 * isaiah|nano; the CPUID dumps from $CQ_SHARED/data/cpuid (default
 * ../shared). CQ_PADLOCK_VERBOSE=1 shows the driver's `#` lines on stderr.
 * CQ_PADLOCK_QUIRKS=no_reload,no_page_tail_bounce,... turns the driver's
 * handling of those quirks off (struct padlock_quirks), for the negative
 * controls of tests/drivers/padlock/cavp-padlock.t.
 * The set-up runs as a constructor, before cavp's main() registers the
 * software engines, so it needs no hook in cavp.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/padlock/padlock.h"
#include "drivers/padlock/padlock_int.h"
#include "lib/engine/engine.h"
#include "tests/host/console_host.h"
#include "tests/drivers/padlock/padlock_emu.h"

/* Sets the padlock_quirks switches named in list (comma-separated). */
static void set_quirks(const char *list)
{
	static const struct { const char *name; bool *flag; } q[] = {
		{ "no_reload", &padlock_quirks.no_reload },
		{ "no_bounce_unaligned", &padlock_quirks.no_bounce_unaligned },
		{ "no_page_tail_bounce", &padlock_quirks.no_page_tail_bounce },
		{ "no_xstore_slack", &padlock_quirks.no_xstore_slack },
		{ "no_cr0_ts", &padlock_quirks.no_cr0_ts },
		{ "no_pmm_final_sub", &padlock_quirks.no_pmm_final_sub },
	};
	size_t i, n;

	while (list && *list) {
		n = strcspn(list, ",");
		for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
			if (strlen(q[i].name) == n && strncmp(q[i].name, list, n) == 0)
				*q[i].flag = true;
		list += n + (list[n] == ',');
	}
}

__attribute__((constructor)) static void cavp_padlock_setup(void)
{
	const char *shared = getenv("CQ_SHARED");
	const char *name = getenv("CQ_PADLOCK_PROFILE");
	const char *verbose = getenv("CQ_PADLOCK_VERBOSE");
	enum emu_profile p;
	struct cpu_info ci;

	if (!shared || !shared[0])
		shared = "../shared";
	if (!name || !name[0])
		name = "esther";
	p = emu_profile_by_name(name);
	if (p == EMU_PROFILES) {
		fprintf(stderr, "cavp-padlock: CQ_PADLOCK_PROFILE=%s: not a profile (nehemiah, esther, isaiah, samuel2)\n",
			name);
		exit(2);
	}
	console_host_echo(verbose && verbose[0] == '1' ? stderr : NULL);
	if (emu_init(shared) < 0 || emu_select(p, NULL) != 0) {
		fprintf(stderr, "cavp-padlock: cannot set up the %s profile from %s\n", name, shared);
		exit(2);
	}
	emu_cpu_info(&ci);
	engine_mark_emulated("padlock-");
	padlock_probe(&ci);
	set_quirks(getenv("CQ_PADLOCK_QUIRKS"));
}
