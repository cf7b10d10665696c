/*
 * Checks shared by the libFuzzer targets (tests/fuzz/fuzz_*.c): a failed
 * check aborts, which libFuzzer reports as a crash and saves the input.
 */
#ifndef CQ_TESTS_FUZZ_COMMON_H
#define CQ_TESTS_FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

static inline void fz_check(int ok)
{
	if (!ok)
		abort();
}

/* s is a NUL-terminated line of printable ASCII within max characters. */
static inline void fz_check_printable(const char *s, size_t max)
{
	size_t i, len = strnlen(s, max + 1);

	fz_check(len <= max);
	for (i = 0; i < len; i++)
		fz_check(s[i] >= 0x20 && s[i] < 0x7f);
}

/* 1 + the number of LF in len bytes: the highest line number an error may name. */
static inline unsigned fz_lines(const unsigned char *p, size_t len)
{
	unsigned n = 1;
	size_t i;
	for (i = 0; i < len; i++)
		n += p[i] == '\n';
	return n;
}

#endif
