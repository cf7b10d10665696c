/*
 * Host stand-in for kernel/console.c: the kernel's report and driver
 * messages go to stdout (prefixing nothing), so a host test program can
 * link kernel/report.c and drivers unchanged and show their output.
 */
#include <stdio.h>

#include "../../kernel/console.h"
#include "../../lib/fmt.h"

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

static void sink(void *ctx, const char *s, size_t len)
{
	(void)ctx;
	console_write(s, len);
}

void kvprintf(const char *fmt, va_list ap)
{
	fmt_vformat(sink, NULL, fmt, ap);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

void console_emergency(const char *s)
{
	fputs(s, stdout);
}
