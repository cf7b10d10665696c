/*
 * emulate_none: the release image has no emulated machines (see
 * emulate.h); the emulation build links emu/emulate.c instead.
 */
#include "kernel/platform/emulate.h"

#include "kernel/platform/console.h"

static const char *requested;

void emulate_init(const char *profile, const char *fault)
{
	(void)fault;
	requested = profile;
}

void emulate_report(void)
{
	if (requested && requested[0])
		console_diag("warning: emulate=%s needs the emulation build (make emu); this image runs on the real hardware only",
			 requested);
}

bool emulate_on_qemu(void)
{
	return false;
}

bool emulate_trap(struct trap_frame *tf)
{
	(void)tf;
	return false;
}

bool emulate_hides_firmware(void)
{
	return false;
}

void emulate_finish(void)
{
}

void emulate_soak_pass(unsigned pass)
{
	(void)pass;
}

const char *emulate_profile(void)
{
	return "none";
}

const char *emulate_fault(void)
{
	return "";
}
