/* Unit tests for lib/net/inet.c: the Internet checksum, byte order, IPv4 addresses as text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/net/inet.h"

/* RFC 1071 section 3's example: the sum of 00 01 f2 03 f4 f5 f6 f7 is ddf2. */
static void test_rfc1071_example(void **state)
{
	static const uint8_t b[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	(void)state;
	assert_int_equal(inet_checksum(b, sizeof(b)), (uint16_t)~0xddf2);
	/* Chained at an even offset, the same. */
	assert_int_equal(inet_fold(inet_sum(inet_sum(0, b, 4), b + 4, 4)), (uint16_t)~0xddf2);
}

/* An IPv4 header with its checksum (b861) sums to zero; with the field zeroed it gives b861. */
static void test_ipv4_header(void **state)
{
	uint8_t h[] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
			0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	(void)state;
	assert_int_equal(inet_checksum(h, sizeof(h)), 0);
	h[10] = h[11] = 0;
	assert_int_equal(inet_checksum(h, sizeof(h)), 0xb861);
}

/* An odd length pads the last byte with zero on the right. */
static void test_odd_length(void **state)
{
	static const uint8_t b[] = { 0x12, 0x34, 0x56 };
	(void)state;
	assert_int_equal(inet_checksum(b, 3), (uint16_t)~(0x1234 + 0x5600));
	assert_int_equal(inet_checksum(b, 0), 0xFFFF);
}

/* Carries fold around: many 0xffff words still give a 16-bit result. */
static void test_carries(void **state)
{
	static uint8_t b[70000];
	(void)state;
	memset(b, 0xff, sizeof(b));
	assert_int_equal(inet_checksum(b, sizeof(b)), 0);
	b[0] = 0xfe;
	assert_int_equal(inet_checksum(b, sizeof(b)), 0x0100);
	/* ffff + ffff + 0001 = 1ffff: folds to 10000, and again to 0001. */
	b[0] = b[1] = b[2] = b[3] = 0xff;
	b[4] = 0x00;
	b[5] = 0x01;
	assert_int_equal(inet_checksum(b, 6), 0xfffe);
}

static void test_byte_order(void **state)
{
	uint8_t b[4];
	(void)state;
	be32_put(b, 0x0A00020F);
	assert_int_equal(b[0], 10);
	assert_int_equal(b[3], 15);
	assert_int_equal(be32_get(b), 0x0A00020F);
	be16_put(b, 0x1234);
	assert_int_equal(b[0], 0x12);
	assert_int_equal(be16_get(b), 0x1234);
}

static bool parse(const char *s, uint32_t *a)
{
	return inet_parse_ip4(s, strlen(s), a);
}

static void test_parse(void **state)
{
	uint32_t a = 0;
	char t[INET_ADDR_TEXT];
	(void)state;
	assert_true(parse("10.0.2.15", &a));
	assert_int_equal(a, 0x0A00020F);
	assert_string_equal(inet_format_ip4(a, t), "10.0.2.15");
	assert_true(parse("255.255.255.255", &a));
	assert_int_equal(a, 0xFFFFFFFF);
	assert_string_equal(inet_format_ip4(a, t), "255.255.255.255");
	assert_true(parse("0.0.0.0", &a));
	assert_int_equal(a, 0);
	a = 7;
	assert_false(parse("256.1.1.1", &a));
	assert_false(parse("1.2.3", &a));
	assert_false(parse("1.2.3.4.5", &a));
	assert_false(parse("1..3.4", &a));
	assert_false(parse("1.2.3.4 ", &a));
	assert_false(parse("0001.2.3.4", &a));
	assert_false(parse("a.b.c.d", &a));
	assert_false(parse("", &a));
	assert_false(parse("1.2.3.-4", &a));
	assert_int_equal(a, 7);		/* untouched on failure */
	/* The length bounds the text: "10.0.2.15" in a longer buffer. */
	assert_true(inet_parse_ip4("10.0.2.15:514", 9, &a));
	assert_int_equal(a, 0x0A00020F);
}

static void test_mask(void **state)
{
	(void)state;
	assert_true(inet_mask_ok(0xFFFFFF00));
	assert_true(inet_mask_ok(0xFFFFFFFF));
	assert_true(inet_mask_ok(0));
	assert_true(inet_mask_ok(0xFFFE0000));
	assert_false(inet_mask_ok(0xFF00FF00));
	assert_false(inet_mask_ok(0x00FFFFFF));
	assert_false(inet_mask_ok(0xFFFFFF01));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc1071_example),
		cmocka_unit_test(test_ipv4_header),
		cmocka_unit_test(test_odd_length),
		cmocka_unit_test(test_carries),
		cmocka_unit_test(test_byte_order),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
