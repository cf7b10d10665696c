/*
 * Host stand-in for kernel/platform/console.c: the kernel's report and driver
 * messages go to stdout (prefixing nothing), so a host test program can
 * link kernel/run/report.c and drivers unchanged and show their output.
 */
#include <stdio.h>

#include "kernel/platform/console.h"
#include "lib/util/fmt.h"

void console_init(int port, unsigned baud)
{
	(void)port;
	(void)baud;
}

void console_describe(char *buf, size_t n)
{
	fmt_snprintf(buf, n, "host stdout");
}

void console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}


void console_emergency(const char *s)
{
	fputs(s, stdout);
}
