/* emu_tap: TAP version 13 for the emulator host programs. See emu_tap.h. */
#include "tests/drivers/padlock/emu_tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static unsigned n, failed;

void t_begin(void)
{
	printf("TAP version 13\n");
}

bool t_ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	printf("%s %u - ", cond ? "ok" : "not ok", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		failed++;
	return cond;
}

void t_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;
	printf("ok %u - ", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
}

void t_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void t_diag_lines(const char *text)
{
	const char *nl;
	while (*text) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		printf("# | %.*s\n", (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
	}
}

int t_end(void)
{
	printf("1..%u\n", n);
	if (failed)
		printf("# %u of %u failed\n", failed, n);
	return failed ? 1 : 0;
}
