/*
 * kprintf: printf-style output on the console, for the kernel and for host
 * programs that link kernel code: each of them supplies console_write()
 * (kernel/platform/console.c on the hardware, tests/host/console_host.c
 * on the host) and shares this file.
 */
#include <stddef.h>

#include "lib/util/fmt.h"
#include "kernel/platform/console.h"

static void console_sink(void *ctx, const char *s, size_t len)
{
	(void)ctx;
	console_write(s, len);
}

void kvprintf(const char *fmt, va_list ap)
{
	fmt_vformat(console_sink, NULL, fmt, ap);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}
