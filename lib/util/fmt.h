/*
 * fmt: a small, freestanding formatter (a subset of C99 printf) used by the
 * kernel console and by lib/ code that builds text lines. Also built on the
 * host, so formatting code is tested there.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %% with flags '-' '0' ' ' '+',
 * a field width and a precision (number or '*'), and the length modifiers
 * h, hh, l, ll, z. %s with a NULL pointer prints "(null)". No floating point:
 * use fmt_fixed() for decimal fractions.
 */
#ifndef CQ_LIB_FMT_H
#define CQ_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A sink receives formatted text in pieces of len bytes (not NUL-terminated). */
typedef void (*fmt_sink)(void *ctx, const char *s, size_t len);

/* Formats to a sink. Returns the number of bytes produced. */
size_t fmt_vformat(fmt_sink sink, void *ctx, const char *fmt, va_list ap);
size_t fmt_format(fmt_sink sink, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Formats into buf (size n bytes, always NUL-terminated when n > 0).
 * Returns the length the whole output would have had, as C99 snprintf does.
 */
size_t fmt_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
size_t fmt_snprintf(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Appends to the NUL-terminated text in buf (size n bytes): one whole
 * clause of a detail line, so that each clause comes from its own format
 * string. Output past n is cut, buf stays NUL-terminated. Returns the
 * length the whole text would have had; when that is n or more, the text
 * was cut. buf must hold a string (or n be 0).
 */
size_t fmt_append(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Writes value / 10^decimals as a decimal fraction with exactly `decimals`
 * digits after the point (rounded half up from the value given, which is
 * already scaled), e.g. fmt_fixed(buf, n, 123456, 2) gives "1234.56".
 * Negative values get a leading '-'. decimals is 0..9. Returns the length.
 */
size_t fmt_fixed(char *buf, size_t n, int64_t scaled, unsigned decimals);

#endif
