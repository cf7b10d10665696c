/*
 * console_emu: kernel/platform/console.h for the emulator host programs. Output of
 * the kernel code they link (kernel/run/report.c, the drivers' `#` lines and
 * TAP results) goes into a buffer the program inspects, and is echoed to a
 * stream when one is set (stderr for cavp-padlock, none by default).
 */
#ifndef CQ_TESTS_CONSOLE_EMU_H
#define CQ_TESTS_CONSOLE_EMU_H

#include <stddef.h>
#include <stdio.h>

/* The text written since the last clear (NUL-terminated; the start is kept
 * when more than the buffer holds is written). */
const char *console_emu_text(void);
void console_emu_clear(void);

/* Also copy everything written to f (NULL: nowhere). */
void console_emu_echo(FILE *f);

#endif
