/* Unit tests for lib/util/escape.c: outside text as one bounded printable line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/escape.h"

/* Every output byte printable, no line break, within the bound. */
static void assert_one_line(const char *s, size_t bound)
{
	size_t i, n = strlen(s);
	assert_true(n <= bound);
	for (i = 0; i < n; i++)
		assert_true(s[i] >= 0x20 && s[i] < 0x7f);
}

static void plain_text_kept(void **state)
{
	char out[64];
	(void)state;
	assert_int_equal(esc_line(out, sizeof(out), "SeaBIOS rel-1.16.1", 100, 60), 18);
	assert_string_equal(out, "SeaBIOS rel-1.16.1");
}

static void newline_and_controls_escaped(void **state)
{
	char out[128];
	const char evil[] = "bench=off\n# cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)\r\x1b[2J\x7f\xff";
	(void)state;
	esc_line(out, sizeof(out), evil, sizeof(evil) - 1, 120);
	assert_string_equal(out, "bench=off\\x0a# cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)"
			    "\\x0d\\x1b[2J\\x7f\\xff");
	assert_one_line(out, 120);
}

static void backslash_escaped_so_text_reads_back(void **state)
{
	char out[32];
	(void)state;
	/* A literal "\x0a" in the input must not read back as a newline. */
	esc_line(out, sizeof(out), "a\\x0a", 5, 31);
	assert_string_equal(out, "a\\x5cx0a");
}

static void length_bounded_never_inside_escape(void **state)
{
	char out[64];
	size_t n;
	(void)state;
	n = esc_line(out, sizeof(out), "abcdefghijklmnopqrstuvwxyz", 26, 10);
	assert_int_equal(n, 10);
	assert_string_equal(out, "abcdefg...");
	/* "ab" then \x01: 2 + 4 = 6, the next \x02 would need 10 > 9: cut at 6. */
	n = esc_line(out, sizeof(out), "ab\x01\x02\x03", 5, 9);
	assert_string_equal(out, "ab\\x01...");
	assert_int_equal(n, 9);
	n = esc_line(out, sizeof(out), "ab\x01\x02\x03", 5, 10);
	assert_string_equal(out, "ab\\x01...");
	/* Exactly fits: no "...". */
	n = esc_line(out, sizeof(out), "abcdefghij", 10, 10);
	assert_string_equal(out, "abcdefghij");
}

static void cap_bounds_output(void **state)
{
	char out[12];
	(void)state;
	memset(out, 'Z', sizeof(out));
	esc_line(out, sizeof(out), "0123456789abcdefghij", 20, 1000);
	assert_string_equal(out, "01234567...");
	assert_int_equal(esc_line(out, 4, "abc", 3, 100), 0);   /* too small: empty */
	assert_string_equal(out, "");
	assert_int_equal(esc_line(out, 0, "abc", 3, 100), 0);
}

static void src_len_and_null(void **state)
{
	char out[32];
	(void)state;
	/* A string the loader left without a NUL: only src_len bytes read. */
	assert_int_equal(esc_line(out, sizeof(out), "abcdef", 3, 31), 3);
	assert_string_equal(out, "abc");
	assert_int_equal(esc_line(out, sizeof(out), NULL, 5, 31), 0);
	assert_string_equal(out, "");
	/* A NUL inside src_len ends the text (SMBIOS strings are NUL-terminated). */
	assert_int_equal(esc_line(out, sizeof(out), "ab\0cd", 5, 31), 2);
}

static void tap_name_hash_escaped(void **state)
{
	char out[64];
	(void)state;
	esc_tap_name(out, sizeof(out), "pci: configuration mechanism #1", 100, 63);
	assert_string_equal(out, "pci: configuration mechanism \\#1");
	esc_tap_name(out, sizeof(out), "x # SKIP fake\nok 9", 100, 63);
	assert_string_equal(out, "x \\# SKIP fake\\x0aok 9");
	/* Never ends in a lone backslash when cut. */
	esc_tap_name(out, sizeof(out), "abcdef######", 100, 12);
	assert_string_equal(out, "abcdef\\#...");
}

static void record_value(void **state)
{
	char out[80];
	(void)state;
	esc_value(out, sizeof(out), "Standard PC (i440FX + PIIX, 1996)", 100, 79);
	assert_string_equal(out, "Standard\\x20PC\\x20(i440FX\\x20+\\x20PIIX,\\x201996)");
	esc_value(out, sizeof(out), "", 10, 79);
	assert_string_equal(out, "absent");
	esc_value(out, sizeof(out), NULL, 10, 79);
	assert_string_equal(out, "absent");
	esc_value(out, sizeof(out), "a#b\n", 10, 79);
	assert_string_equal(out, "a#b\\x0a");
}

/* Hostile input: every byte value, every bound: one printable line, within bound. */
static void random_input_always_one_line(void **state)
{
	char in[300], out[400];
	unsigned seed = 12345, round;
	(void)state;
	for (round = 0; round < 20000; round++) {
		size_t len = (seed = seed * 1103515245u + 12345u) % sizeof(in), i;
		size_t bound = (seed >> 8) % 350, cap = 1 + (seed >> 16) % sizeof(out);
		size_t n, lim;
		for (i = 0; i < len; i++)
			in[i] = (char)((seed = seed * 1103515245u + 12345u) >> 16);
		n = (round & 1) ? esc_tap_name(out, cap, in, len, bound)
				: esc_line(out, cap, in, len, bound);
		lim = bound < ESC_MIN_OUT ? ESC_MIN_OUT : bound;
		if (lim > cap - 1)
			lim = cap - 1;
		assert_int_equal(n, strlen(out));
		assert_one_line(out, lim);
		/* No backslash but as the start of \xNN or \#. */
		for (i = 0; i < n; i++)
			if (out[i] == '\\')
				assert_true((out[i + 1] == 'x' && i + 3 < n) || out[i + 1] == '#');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_text_kept),
		cmocka_unit_test(newline_and_controls_escaped),
		cmocka_unit_test(backslash_escaped_so_text_reads_back),
		cmocka_unit_test(length_bounded_never_inside_escape),
		cmocka_unit_test(cap_bounds_output),
		cmocka_unit_test(src_len_and_null),
		cmocka_unit_test(tap_name_hash_escaped),
		cmocka_unit_test(record_value),
		cmocka_unit_test(random_input_always_one_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
