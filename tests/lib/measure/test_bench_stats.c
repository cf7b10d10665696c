/*
 * Unit tests for lib/measure/bench_stats.c: exact values of every statistic, the
 * rounding rules, 128-bit intermediate products (cycle counts of 2^40 and
 * more), the least-squares fit and the break-even cases, and the
 * openssl-speed table layout.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/measure/bench_stats.h"

#define P40	(1ull << 40)

static void test_muldiv(void **state)
{
	(void)state;
	assert_int_equal(bstat_muldiv(10, 10, 3), 33);		/* 33.33 */
	assert_int_equal(bstat_muldiv(20, 10, 3), 67);		/* 66.67 */
	assert_int_equal(bstat_muldiv(1, 1, 2), 1);		/* 0.5 rounds up */
	assert_int_equal(bstat_muldiv(1, 1, 3), 0);
	assert_int_equal(bstat_muldiv(0, 12345, 7), 0);
	/* The product needs 80 bits; the quotient fits. */
	assert_int_equal(bstat_muldiv(P40, P40, 1ull << 20), 1ull << 60);
	assert_int_equal(bstat_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX - 1) ,
			 BSTAT_SATURATED);
	assert_int_equal(bstat_muldiv(UINT64_MAX - 1, 3, 3), UINT64_MAX - 1);
	assert_int_equal(bstat_muldiv(1ull << 63, 4, 1), BSTAT_SATURATED);
	assert_int_equal(bstat_muldiv(5, 5, 0), BSTAT_SATURATED);
	/* 2^64 + 2^32 + ... : high word of the product matters. */
	assert_int_equal(bstat_muldiv(0xFFFFFFFFull * 3, 0x100000001ull, 0x100000001ull * 3),
			 0xFFFFFFFFull);
}

static void test_median(void **state)
{
	uint64_t odd[] = { 30, 10, 20 };
	uint64_t even[] = { 4, 1, 3, 2 };
	uint64_t big[] = { UINT64_MAX, UINT64_MAX - 2 };
	uint64_t one[] = { 7 };
	uint64_t many[BSTAT_MAX_REPS + 1] = { 0 };

	(void)state;
	assert_int_equal(bstat_median(odd, 3), 20);
	assert_int_equal(odd[0], 30);			/* input untouched */
	assert_int_equal(bstat_median(even, 4), 2);	/* (2 + 3) / 2 rounded down */
	assert_int_equal(bstat_median(big, 2), UINT64_MAX - 1);	/* no overflow */
	assert_int_equal(bstat_median(one, 1), 7);
	assert_int_equal(bstat_median(one, 0), 0);
	many[0] = 5;
	assert_int_equal(bstat_median(many, BSTAT_MAX_REPS + 1), 0);
}

static void test_spread(void **state)
{
	uint64_t a[] = { 100, 110, 105 };
	uint64_t b[] = { 2000, 2001, 2002 };
	uint64_t c[] = { 1000, 1000, 1000 };
	uint64_t z[] = { 0, 0, 5 };
	uint64_t huge[] = { 1, 1, P40 };
	uint64_t rep40[] = { P40, P40 + (P40 >> 10), P40 - (P40 >> 10) };

	(void)state;
	assert_int_equal(bstat_spread_x10(a, 3), 95);	/* 10 / 105 = 9.52 % */
	assert_int_equal(bstat_spread_x10(b, 3), 1);	/* 0.0999.. % rounds to 0.1 % */
	assert_int_equal(bstat_spread_x10(c, 3), 0);
	assert_int_equal(bstat_spread_x10(c, 1), 0);	/* one run: no spread */
	assert_int_equal(bstat_spread_x10(z, 3), UINT32_MAX);	/* median 0 */
	/* (2^40 - 1) * 1000 / 1 does not fit 32 bits. */
	assert_int_equal(bstat_spread_x10(huge, 3), UINT32_MAX);
	/* 2^31 / 2^40 * 1000 = 1.953 per mille -> 2 (0.2 %). */
	assert_int_equal(bstat_spread_x10(rep40, 3), 2);
}

static void test_units(void **state)
{
	(void)state;
	/* 8192 bytes in 0.8192 ms: 10,000,000 B/s = 10000.00k. */
	assert_int_equal(bstat_kbps_x100(8192, 819200, 1000000000), 1000000);
	/* 1 byte in 2 ticks at 1 kHz = 500 B/s = 0.50k. */
	assert_int_equal(bstat_kbps_x100(1, 2, 1000), 50);
	assert_int_equal(bstat_kbps_x100(1, 200, 1000), 1);	/* 0.005k rounds up */
	assert_int_equal(bstat_kbps_x100(1, 400, 1000), 0);	/* 0.0025k */
	assert_int_equal(bstat_kbps_x100(1, 0, 1000), BSTAT_SATURATED);
	/* 2^40 bytes in 2^40 ticks at 2^35 Hz: 2^35 B/s = 34359738.368 kB/s. */
	assert_int_equal(bstat_kbps_x100(P40, P40, 1ull << 35), 3435973837ull);
	/* A 2^40-cycle run at 2.4 GHz over 16 GiB. */
	assert_int_equal(bstat_kbps_x100(1ull << 34, P40, 2400000000ull), 3750000);

	assert_int_equal(bstat_cpb_x100(819200, 8192), 10000);	/* 100.00 */
	assert_int_equal(bstat_cpb_x100(1, 3), 33);
	assert_int_equal(bstat_cpb_x100(2, 3), 67);
	assert_int_equal(bstat_cpb_x100(1, 200), 1);		/* 0.005 rounds up */
	assert_int_equal(bstat_cpb_x100(P40, 1ull << 30), 102400);	/* 1024.00 */
	assert_int_equal(bstat_cpb_x100(5, 0), BSTAT_SATURATED);

	assert_int_equal(bstat_per_second(1000, 2000000000, 2000000000), 1000);
	assert_int_equal(bstat_per_second(3, 2, 1000), 1500);
	assert_int_equal(bstat_per_second(P40, P40, 3000000000ull), 3000000000ull);
	assert_int_equal(bstat_per_second(1, 0, 1000), BSTAT_SATURATED);
}

static void test_fit_exact(void **state)
{
	static const uint32_t x[6] = { 16, 64, 256, 1024, 8192, 16384 };
	uint64_t y[6];
	struct bstat_fit f;
	unsigned i;

	(void)state;
	/* cycles = 500 + 3 x exactly. */
	for (i = 0; i < 6; i++)
		y[i] = 50000 + 300ull * x[i];
	assert_true(bstat_fit_line(x, y, 6, &f));
	assert_true(f.ok);
	assert_int_equal(f.fixed_x100, 50000);
	assert_int_equal(f.per_byte_x100, 300);

	/* Fractional: 123.45 + 17.89 x. */
	for (i = 0; i < 6; i++)
		y[i] = 12345 + 1789ull * x[i];
	assert_true(bstat_fit_line(x, y, 6, &f));
	assert_int_equal(f.fixed_x100, 12345);
	assert_int_equal(f.per_byte_x100, 1789);

	/* Cycles per operation near 2^40: fixed 2^39, 2^20 cycles per byte. */
	for (i = 0; i < 6; i++)
		y[i] = 100 * ((1ull << 39) + (1ull << 20) * x[i]);
	assert_true(bstat_fit_line(x, y, 6, &f));
	assert_int_equal(f.fixed_x100, 100 * (1ll << 39));
	assert_int_equal(f.per_byte_x100, 100 * (1ll << 20));
}

static void test_fit_rounding(void **state)
{
	static const uint32_t x3[3] = { 1, 2, 3 };
	static const uint64_t y3[3] = { 1, 2, 4 };
	static const uint32_t x2[2] = { 0, 2 };
	static const uint64_t y2[2] = { 3, 0 };
	static const uint32_t xf[2] = { 16, 32 };
	static const uint64_t yf[2] = { 1000, 1000 };
	struct bstat_fit f;

	(void)state;
	/* b = 9/6 = 1.5 -> 2 (away from zero); a = -4/6 = -0.67 -> -1. */
	assert_true(bstat_fit_line(x3, y3, 3, &f));
	assert_int_equal(f.per_byte_x100, 2);
	assert_int_equal(f.fixed_x100, -1);
	/* b = -6/4 = -1.5 -> -2; a = 3. */
	assert_true(bstat_fit_line(x2, y2, 2, &f));
	assert_int_equal(f.per_byte_x100, -2);
	assert_int_equal(f.fixed_x100, 3);
	/* Flat. */
	assert_true(bstat_fit_line(xf, yf, 2, &f));
	assert_int_equal(f.per_byte_x100, 0);
	assert_int_equal(f.fixed_x100, 1000);
}

static void test_fit_rejects(void **state)
{
	static const uint32_t same[3] = { 64, 64, 64 };
	static const uint32_t x[2] = { 16, BSTAT_MAX_X + 1 };
	static const uint32_t ok_x[2] = { 16, 32 };
	static const uint64_t y[3] = { 1, 2, 3 };
	static const uint64_t big_y[2] = { 1, BSTAT_MAX_Y + 1 };
	struct bstat_fit f = { true, 5, 5 };

	(void)state;
	assert_false(bstat_fit_line(same, y, 3, &f));
	assert_false(f.ok);
	assert_false(bstat_fit_line(ok_x, y, 1, &f));
	assert_false(bstat_fit_line(ok_x, y, BSTAT_MAX_POINTS + 1, &f));
	assert_false(bstat_fit_line(x, y, 2, &f));
	assert_false(bstat_fit_line(ok_x, big_y, 2, &f));
	assert_true(bstat_fit_line(ok_x, y, 2, &f));
}

static struct bstat_fit line(int64_t fixed_x100, int64_t per_byte_x100)
{
	struct bstat_fit f = { true, fixed_x100, per_byte_x100 };
	return f;
}

static void expect_be(struct bstat_fit e, struct bstat_fit r, enum bstat_breakeven_kind kind,
		      uint64_t bytes, const char *text)
{
	struct bstat_breakeven be = bstat_breakeven(&e, &r);
	char buf[32];

	assert_int_equal(be.kind, kind);
	assert_int_equal(be.bytes, bytes);
	assert_int_equal(bstat_format_breakeven(buf, sizeof(buf), &be), strlen(text));
	assert_string_equal(buf, text);
}

static void test_breakeven(void **state)
{
	/* Software: 500 cycles per operation + 20 per byte. */
	struct bstat_fit sw = line(50000, 2000), bad = line(0, 0);

	(void)state;
	/* DMA-like: 5000 + 2 x; equal at 250 bytes, faster from 251. */
	expect_be(line(500000, 200), sw, BSTAT_BE_FROM, 251, "251");
	/* Not on a multiple: 5000 + 7 x; 4500 / 13 = 346.15 -> 347. */
	expect_be(line(500000, 700), sw, BSTAT_BE_FROM, 347, "347");
	/* Cheaper both ways. */
	expect_be(line(10000, 500), sw, BSTAT_BE_ALWAYS, 0, "always");
	/* Dearer both ways. */
	expect_be(line(100000, 3000), sw, BSTAT_BE_NEVER, 0, "never");
	/* The same line is never strictly faster. */
	expect_be(sw, sw, BSTAT_BE_NEVER, 0, "never");
	/* Cheaper per operation, dearer per byte: 100 + 21 x faster only below 400. */
	expect_be(line(10000, 2100), sw, BSTAT_BE_BELOW, 400, "below_400");
	/* 100 + 23 x: 40000 / 300 = 133.3, so faster up to 133 bytes. */
	expect_be(line(10000, 2300), sw, BSTAT_BE_BELOW, 134, "below_134");
	/* Same per byte: decided by the fixed cost. */
	expect_be(line(49999, 2000), sw, BSTAT_BE_ALWAYS, 0, "always");
	expect_be(line(50000, 2000), sw, BSTAT_BE_NEVER, 0, "never");
	/* Dearer per operation by less than the per-byte saving of one byte. */
	expect_be(line(50050, 1900), sw, BSTAT_BE_ALWAYS, 0, "always");
	/* Dearer by exactly one byte's saving: equal at 1, faster from 2. */
	expect_be(line(50100, 1900), sw, BSTAT_BE_FROM, 2, "2");
	/* Cheaper per operation by less than one byte's extra cost. */
	expect_be(line(49950, 2100), sw, BSTAT_BE_NEVER, 0, "never");
	/* Extreme coefficients do not overflow. */
	expect_be(line(1ll << 60, -(1ll << 60)), line(-(1ll << 60), 1ll << 60), BSTAT_BE_FROM,
		  2, "2");
	expect_be(line(0, 1), line(1ll << 60, 0), BSTAT_BE_BELOW, 1ull << 60,
		  "below_1152921504606846976");
	/* An engine whose fit failed is never called faster. */
	bad.ok = false;
	expect_be(bad, sw, BSTAT_BE_NEVER, 0, "never");
	expect_be(line(0, 0), bad, BSTAT_BE_NEVER, 0, "never");
}

static void test_format_kbps(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(bstat_format_kbps(buf, sizeof(buf), 5123456), 9);
	assert_string_equal(buf, "51234.56k");
	bstat_format_kbps(buf, sizeof(buf), 5);
	assert_string_equal(buf, "0.05k");
	bstat_format_kbps(buf, sizeof(buf), 0);
	assert_string_equal(buf, "0.00k");
	bstat_format_kbps(buf, sizeof(buf), 100);
	assert_string_equal(buf, "1.00k");
	/* Truncated: the length is still that of the whole text. */
	assert_int_equal(bstat_format_kbps(buf, 4, 5123456), 9);
	assert_string_equal(buf, "512");
}

static const uint32_t sizes[6] = { 16, 64, 256, 1024, 8192, 16384 };

static void test_header(void **state)
{
	char buf[160];
	size_t len;

	(void)state;
	/* Exactly `openssl speed`'s header with a 12-character name column. */
	len = bstat_format_header(buf, sizeof(buf), 12, sizes, 6);
	assert_string_equal(buf,
		"type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes");
	assert_int_equal(len, strlen(buf));
	assert_int_equal(len, 12 + 6 * BSTAT_COL_WIDTH);
	len = bstat_format_header(buf, 10, 12, sizes, 6);
	assert_int_equal(len, 12 + 6 * BSTAT_COL_WIDTH);
	assert_string_equal(buf, "type     ");
}

static void test_row(void **state)
{
	static const char *const kb[6] = { "797386.27k", "883508.31k", "0.05k", "1.00k",
					   "12345678.90k", "n/a" };
	static const char *const two[2] = { "40.91", "3.20" };
	char buf[200], hdr[200];
	size_t len;

	(void)state;
	len = bstat_format_row(buf, sizeof(buf), 24, "software:aes-128-cbc", kb, 6);
	assert_string_equal(buf,
		"software:aes-128-cbc       797386.27k   883508.31k        0.05k        1.00k"
		" 12345678.90k          n/a");
	assert_int_equal(len, strlen(buf));
	/* Cells end in the header's columns. */
	bstat_format_header(hdr, sizeof(hdr), 24, sizes, 6);
	assert_int_equal(strlen(hdr), len);
	/* A name longer than the column shifts the row but keeps a blank. */
	bstat_format_row(buf, sizeof(buf), 4, "geode-sb:aes-128-cbc", two, 2);
	assert_string_equal(buf, "geode-sb:aes-128-cbc        40.91         3.20");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_muldiv),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_fit_exact),
		cmocka_unit_test(test_fit_rounding),
		cmocka_unit_test(test_fit_rejects),
		cmocka_unit_test(test_breakeven),
		cmocka_unit_test(test_format_kbps),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
