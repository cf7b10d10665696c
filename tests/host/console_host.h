/*
 * console_host: kernel/platform/console.h for host programs that link
 * kernel code (the report, drivers). Everything written is kept in a
 * capture buffer and copied to an echo stream (stdout unless changed), so
 * a harness can both show the kernel's lines and check them.
 */
#ifndef CQ_TESTS_CONSOLE_HOST_H
#define CQ_TESTS_CONSOLE_HOST_H

#include <stddef.h>
#include <stdio.h>

/* The text written since the last clear (NUL-terminated; the start is kept
 * when more than the buffer's 64 KiB arrive). */
const char *console_host_text(void);
void console_host_clear(void);

/* Where to copy everything written as well: stdout by default, NULL for nowhere. */
void console_host_echo(FILE *f);

#endif
