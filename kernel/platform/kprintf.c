/*
 * kprintf: printf-style output on the console, for the kernel and for host
 * programs that link kernel code: each of them supplies console_write()
 * (kernel/platform/console.c on the hardware, tests/host/console_host.c
 * on the host) and shares this file. Also the platform's report hook
 * (console_diag(), console_bail_out(): see console.h).
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

static const struct console_report *report_hook;

void console_set_report(const struct console_report *r)
{
	report_hook = r;
}

void console_diag(const char *fmt, ...)
{
	char line[CONSOLE_DIAG_BYTES];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (report_hook)
		report_hook->diag(line);
	else
		kprintf("# %s\n", line);
}

void console_bail_out(const char *reason)
{
	if (report_hook)
		report_hook->bail_out(reason);
	kprintf("Bail out! %s\n", reason);
	for (;;)
		__asm__ volatile("cli; hlt");
}
