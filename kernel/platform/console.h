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

/*
 * A copy of every byte console_write() is given (before "\n" becomes
 * "\r\n"), passed after the bytes went out: how the network report
 * (kernel/run/net_report.c) keeps the log and sends its lines. NULL: none.
 */
void console_set_tee(void (*tee)(const char *s, size_t len));

/* printf-style output (lib/util/fmt.h conversions). */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kvprintf(const char *fmt, va_list ap);

/*
 * How the platform reports without calling up into the run: the run
 * installs its writers once (kernel/run/report.c, at report_begin()), and
 * the platform's files print through console_diag() and console_bail_out().
 * diag gets one formatted line without "# " and newline (at most
 * CONSOLE_DIAG_BYTES - 1 bytes); bail_out a reason and does not return.
 * Before they are installed a diagnostic is printed as "# text" and a
 * bail-out prints "Bail out! reason" and halts.
 */
#define CONSOLE_DIAG_BYTES 768
struct console_report {
	void (*diag)(const char *text);
	void (*bail_out)(const char *reason) __attribute__((noreturn));
};
void console_set_report(const struct console_report *r);
void console_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_bail_out(const char *reason) __attribute__((noreturn));

/*
 * Waits until the UART has sent every byte (LSR.TEMT: holding and shift
 * register empty, PC16550D data sheet), at most CONSOLE_DRAIN_US: a 16-byte
 * FIFO at 9600 baud drains in about 17 ms. Called before a reset or halt so
 * that the verdict's line end is on the wire. Returns true when drained
 * (or there is no UART); false with why (cap bytes: the LSR value) when not.
 */
#define CONSOLE_DRAIN_US 50000u
bool console_drain(char *why, size_t cap);

/* Writes a string using nothing but the UART registers (for fatal paths). */
void console_emergency(const char *s);

#endif
