/*
 * hex: hexadecimal text <-> bytes, for the known-answer vectors, the CAVP
 * parser and failure messages. Freestanding.
 */
#ifndef CQ_LIB_HEX_H
#define CQ_LIB_HEX_H

#include <stddef.h>
#include <stdint.h>

#define HEX_EODD	(-1)	/* an odd number of digits */
#define HEX_EDIGIT	(-2)	/* a character that is not 0-9, a-f, A-F */
#define HEX_ESPACE	(-3)	/* more bytes than the output holds */

/* Value of one hex digit, or -1. */
int hex_digit(int c);

/*
 * Decodes the len characters at s (two digits a byte, either case, no
 * separators) into out (cap bytes) and sets *outlen to len / 2. Returns 0,
 * HEX_EODD, HEX_EDIGIT (then *bad is the index of the first bad character
 * in s), or HEX_ESPACE. bad may be NULL.
 */
int hex_decode(const char *s, size_t len, uint8_t *out, size_t cap, size_t *outlen,
	       size_t *bad);

/*
 * Writes n bytes as 2n lowercase digits and a NUL into out (cap bytes).
 * When cap is too small the text is cut short (still NUL-terminated).
 * Returns out.
 */
char *hex_encode(const uint8_t *in, size_t n, char *out, size_t cap);

#endif
