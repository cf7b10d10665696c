/* emu_tap: TAP version 13 for the emulator host programs, through tests/host/tap_ok.h. See emu_tap.h. */
#include "tests/drivers/padlock/emu_tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tests/host/tap_ok.h"

void t_begin(void)
{
	printf("TAP version 13\n");
}

bool t_ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cond = tap_vline(cond, "", fmt, ap);
	va_end(ap);
	return cond;
}

void t_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ok_vskip(reason, fmt, ap);
	va_end(ap);
}

void t_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

void t_diag_lines(const char *text)
{
	tap_diag_lines("# | ", text);
}

int t_end(void)
{
	if (failed)
		printf("# %d of %d failed\n", failed, n);
	return tap_plan();
}
