/* Unit tests for lib/util/fmt.c's fmt_append: clauses appended to a detail line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/util/fmt.h"

static void appends_after_the_text(void **state)
{
	char buf[64];
	(void)state;
	fmt_snprintf(buf, sizeof(buf), "%u engines", 8u);
	assert_int_equal(fmt_append(buf, sizeof(buf), "; %s", "ace disabled"), 23);
	assert_string_equal(buf, "8 engines; ace disabled");
	assert_int_equal(fmt_append(buf, sizeof(buf), "; rc %d", -3), 30);
	assert_string_equal(buf, "8 engines; ace disabled; rc -3");
}

static void cut_at_the_buffer_stays_terminated(void **state)
{
	char buf[12];
	(void)state;
	fmt_snprintf(buf, sizeof(buf), "abcdefgh");
	/* 8 + 6 = 14 would be the whole length; 11 characters fit. */
	assert_int_equal(fmt_append(buf, sizeof(buf), "; %s", "1234"), 14);
	assert_string_equal(buf, "abcdefgh; 1");
	/* A full buffer: nothing written, the length still counted (11 + 3). */
	assert_int_equal(fmt_append(buf, sizeof(buf), "%s", "xyz"), 14);
	assert_string_equal(buf, "abcdefgh; 1");
}

static void empty_text_and_zero_size(void **state)
{
	char buf[8] = "";
	(void)state;
	assert_int_equal(fmt_append(buf, sizeof(buf), "%s", "ab"), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(fmt_append(NULL, 0, "%s", "abc"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(appends_after_the_text),
		cmocka_unit_test(cut_at_the_buffer_stays_terminated),
		cmocka_unit_test(empty_text_and_zero_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
