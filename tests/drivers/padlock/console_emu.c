/* console_emu: kernel/platform/console.h into a buffer. See console_emu.h. */
#include "tests/drivers/padlock/console_emu.h"

#include <string.h>

#include "kernel/platform/console.h"
#include "lib/util/fmt.h"

#define CAPTURE_BYTES (64 * 1024)

static char text[CAPTURE_BYTES];
static size_t used;
static FILE *echo;

const char *console_emu_text(void)
{
	return text;
}

void console_emu_clear(void)
{
	used = 0;
	text[0] = '\0';
}

void console_emu_echo(FILE *f)
{
	echo = f;
}

void console_init(int port, unsigned baud)
{
	(void)port;
	(void)baud;
}

void console_describe(char *buf, size_t n)
{
	fmt_snprintf(buf, n, "emulator capture buffer");
}

void console_write(const char *s, size_t len)
{
	size_t n = len < CAPTURE_BYTES - 1 - used ? len : CAPTURE_BYTES - 1 - used;
	memcpy(text + used, s, n);
	used += n;
	text[used] = '\0';
	if (echo)
		fwrite(s, 1, len, echo);
}


void console_emergency(const char *s)
{
	console_write(s, strlen(s));
}
