/*
 * Console: a 16550 UART (the log that matters) mirrored to the VGA text
 * screen when one is present. The output is a line-oriented log: text and
 * newlines only, never cursor movement (the VGA mirror scrolls by itself).
 */
#ifndef CQ_KERNEL_CONSOLE_H
#define CQ_KERNEL_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Sets up the console. port: 0..3 for ttyS0..3 (I/O 0x3F8, 0x2F8, 0x3E8,
 * 0x2E8), or -1 for ttyS0. baud: 9600..115200, or 0 to keep the speed the
 * firmware or loader programmed (Soekris comBIOS 19200, ALIX tinyBIOS 38400),
 * falling back to 115200 when the UART was left unprogrammed.
 * Safe to call again (e.g. after parsing the command line).
 */
void console_init(int port, unsigned baud);

/*
 * A UART is used only once it answers: its scratch register holds a value
 * and a byte sent in loopback mode comes back (PC16550D). When the port
 * asked for does not, console_init() falls back to ttyS0, else to the first
 * port that answers, and console_warning() gives one line saying so (false
 * when there is nothing to say). The VGA mirror shows every line, so the
 * warning is seen even when no UART answered at all.
 */
bool console_warning(char *buf, size_t n);

/* One line describing the console in force, e.g. "ttyS0 0x3f8 115200 8N1 (...)". */
void console_describe(char *buf, size_t n);

/* Writes len bytes; '\n' becomes "\r\n" on the UART. UART waits are bounded. */
void console_write(const char *s, size_t len);

/* printf-style output (lib/util/fmt.h conversions). */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kvprintf(const char *fmt, va_list ap);

/* Writes a string using nothing but the UART registers (for fatal paths). */
void console_emergency(const char *s);

#endif
