/*
 * The fault guard of kernel/platform/exceptions.h for the emulator host programs:
 * kernel/run/report.c's tap_run() runs each test through guard_run(), which
 * here is emu_guard(), so an emulated #UD/#GP/#NM or a page fault inside a
 * driver test becomes that test's `not ok` as it would in the kernel.
 */
#include "kernel/platform/exceptions.h"
#include "tests/drivers/padlock/padlock_emu.h"

/* Vectors of the exceptions the emulator raises (Intel SDM vol. 3A 6.15). */
static const unsigned vector_of[] = {
	[EMU_EXC_NONE] = 0, [EMU_EXC_UD] = 6, [EMU_EXC_GP] = 13, [EMU_EXC_NM] = 7,
	[EMU_EXC_PF] = 14,
};

struct call {
	void (*fn)(void *ctx);
	void *ctx;
};

static void trampoline(void *p)
{
	struct call *c = p;
	c->fn(c->ctx);
}

bool guard_run(const char *what, void (*fn)(void *ctx), void *ctx, struct fault_info *fi)
{
	struct call c = { fn, ctx };
	int exc = emu_guard(trampoline, &c);

	(void)what;
	if (exc == EMU_EXC_NONE)
		return true;
	fi->vector = vector_of[exc];
	fi->error = 0;
	fi->eip = 0;
	fi->cr2 = 0;
	return false;
}

const char *exc_mnemonic(unsigned vector)
{
	switch (vector) {
	case 6: return "#UD";
	case 7: return "#NM";
	case 13: return "#GP";
	case 14: return "#PF";
	default: return "#??";
	}
}
