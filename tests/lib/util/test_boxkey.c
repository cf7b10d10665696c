/* Unit tests for lib/util/boxkey.c: the key's sources in order, placeholders, characters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/util/boxkey.h"

static const uint8_t mac[6] = { 0x00, 0x00, 0x24, 0xC8, 0x1A, 0x0F };

static void test_order(void **state)
{
	char k[BOXKEY_MAX + 1];
	(void)state;
	assert_int_equal(boxkey_make(k, sizeof(k), "RACK7-U12", "SN123", "BSN9", mac), 'a');
	assert_string_equal(k, "RACK7-U12");
	assert_int_equal(boxkey_make(k, sizeof(k), "", "SN123", "BSN9", mac), 's');
	assert_string_equal(k, "SN123");
	assert_int_equal(boxkey_make(k, sizeof(k), NULL, "To be filled by O.E.M.", "BSN9", mac), 'b');
	assert_string_equal(k, "BSN9");
	assert_int_equal(boxkey_make(k, sizeof(k), NULL, "0123456789", "Default string", mac), 'm');
	assert_string_equal(k, "mac-000024c81a0f");
	assert_int_equal(boxkey_make(k, sizeof(k), NULL, NULL, NULL, NULL), 'u');
	assert_string_equal(k, "unknown");
}

static void test_placeholders(void **state)
{
	(void)state;
	assert_true(boxkey_placeholder(NULL));
	assert_true(boxkey_placeholder(""));
	assert_true(boxkey_placeholder("   "));
	assert_true(boxkey_placeholder("0000000000"));
	assert_true(boxkey_placeholder("xxxxxxxx"));
	assert_true(boxkey_placeholder("TO BE FILLED BY O.E.M."));
	assert_true(boxkey_placeholder("  System Serial Number  "));
	assert_true(boxkey_placeholder("Not Specified"));
	assert_true(boxkey_placeholder("N/A"));
	assert_false(boxkey_placeholder("CQ-TEST-42"));
	assert_false(boxkey_placeholder("0123456789A"));	/* not the placeholder itself */
	assert_false(boxkey_placeholder("None1"));
	assert_false(boxkey_placeholder("ab"));
}

/* One token of safe characters, at most BOXKEY_MAX of them. */
static void test_characters(void **state)
{
	char k[BOXKEY_MAX + 1], small[6], longer[200];
	(void)state;
	assert_int_equal(boxkey_make(k, sizeof(k), " a b/c:d\\e\n ", NULL, NULL, NULL), 'a');
	assert_string_equal(k, "a_b_c_d_e_");
	memset(longer, 'z', sizeof(longer) - 1);
	longer[0] = 'y';	/* not one repeated character: a real serial */
	longer[sizeof(longer) - 1] = '\0';
	boxkey_make(k, sizeof(k), NULL, longer, NULL, NULL);
	assert_int_equal(strlen(k), BOXKEY_MAX);
	boxkey_make(small, sizeof(small), "ABCDEFGH", NULL, NULL, NULL);
	assert_string_equal(small, "ABCDE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_characters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
