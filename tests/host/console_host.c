/*
 * console_host: kernel/platform/console.c for host programs: the kernel's
 * report and driver messages go into a capture buffer and to the echo
 * stream (stdout by default). See console_host.h.
 */
#include "tests/host/console_host.h"

#include <stdbool.h>
#include <string.h>

#include "kernel/platform/console.h"
#include "lib/util/fmt.h"

#define CAPTURE_BYTES (64 * 1024)

static char text[CAPTURE_BYTES];
static size_t used;
static FILE *echo;
static bool echo_set;

const char *console_host_text(void)
{
	return text;
}

void console_host_clear(void)
{
	used = 0;
	text[0] = '\0';
}

void console_host_echo(FILE *f)
{
	echo = f;
	echo_set = true;
}

void console_init(int port, unsigned baud)
{
	(void)port;
	(void)baud;
}

void console_describe(char *buf, size_t n)
{
	fmt_snprintf(buf, n, "host capture buffer");
}

void console_write(const char *s, size_t len)
{
	size_t n = len < CAPTURE_BYTES - 1 - used ? len : CAPTURE_BYTES - 1 - used;
	FILE *to = echo_set ? echo : stdout;

	memcpy(text + used, s, n);
	used += n;
	text[used] = '\0';
	if (to)
		fwrite(s, 1, len, to);
}

void console_emergency(const char *s)
{
	console_write(s, strlen(s));
}

/* The host console is a buffer: nothing to drain. */
bool console_drain(char *why, size_t cap)
{
	(void)why;
	(void)cap;
	return true;
}
