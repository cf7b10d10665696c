/*
 * Unit tests for the RNG statistics: lib/rng/rngtest.c (FIPS 140-2 as rngtest
 * counts), lib/rng/sp800_90b.c (cutoffs, health tests, MCV and Markov),
 * lib/measure/fixmath.c and lib/rng/ent.c, on crafted inputs.
 *
 * Expected values computed independently with python3 (math, fractions,
 * decimal at 80 digits, mpmath at 60 digits) from the formulas of SP 800-90B
 * and of the NIST reference code (SP800-90B_EntropyAssessment markov_test.h,
 * most_common.h), or taken from Debian's ent 1.2debian-3 output; see the
 * comment above each table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/rng/ent.h"
#include "lib/measure/fixmath.h"
#include "lib/rng/rngtest.h"
#include "lib/rng/sp800_90b.h"

/* ---- block builders ---- */

static uint8_t blk[FIPS_BLOCK_BYTES];

static void put_bit(unsigned i, unsigned b)
{
	if (b)
		blk[i / 8] |= (uint8_t)(0x80 >> (i % 8));
	else
		blk[i / 8] &= (uint8_t)~(0x80 >> (i % 8));
}

static unsigned get_bit(unsigned i)
{
	return (blk[i / 8] >> (7 - i % 8)) & 1;
}

/* Tests blk with a carry whose last bit equals the block's first (no rngtest extra count). */
static unsigned test_block(bool strict, struct fips_block_stats *st)
{
	struct fips_carry c = { 0x12345678u, 0, strict };

	c.last_bit = (uint8_t)get_bit(0);
	return fips_block(blk, &c, st);
}

/* 0101... : every run of length 1, 10000 ones. */
static void alternating(void)
{
	memset(blk, 0x55, sizeof(blk));
}

static void test_monobit_bounds(void **state)
{
	(void)state;
	/* fail at ones <= 9725 and >= 10275 (FIPS 140-2, change notice 2001-10-10) */
	static const struct { unsigned ones; bool fail; } cases[] = {
		{ 9725, true }, { 9726, false }, { 10000, false }, { 10274, false }, { 10275, true },
		{ 0, true }, { 20000, true },
	};
	struct fips_block_stats st;
	unsigned i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(blk, 0, sizeof(blk));
		for (k = 0; k < cases[i].ones; k++)
			put_bit(k, 1);
		assert_int_equal(!!(test_block(false, &st) & FIPS_FAIL(FIPS_MONOBIT)), cases[i].fail);
		assert_int_equal(st.ones, cases[i].ones);
	}
}

/* Fills blk with nibbles so that value v appears count[v] times. */
static void nibbles(const uint16_t count[16])
{
	uint16_t left[16];
	unsigned pos = 0, v = 0;

	memcpy(left, count, sizeof(left));
	memset(blk, 0, sizeof(blk));
	while (pos < 2 * FIPS_BLOCK_BYTES) {
		if (left[v]) {
			left[v]--;
			blk[pos / 2] |= (uint8_t)(pos % 2 ? v : v << 4);
			pos++;
		}
		v = (v + 1) % 16;
	}
}

static void test_poker_bounds(void **state)
{
	(void)state;
	/*
	 * Nibble counts (sum 5000) with a given sum of squares, found by a
	 * python search. The sum of squares is even (it has the parity of 5000),
	 * so the neighbours of the bounds are +-2. Pass: 1563176 .. 1576928.
	 */
	static const struct { uint16_t c[16]; uint32_t sum; bool fail; } cases[] = {
		{ { 289, 327, 351, 343, 308, 334, 308, 361, 357, 318, 284, 257, 300, 290, 302, 271 },
		  1576928, false },
		{ { 358, 325, 299, 308, 288, 301, 342, 363, 326, 272, 275, 348, 320, 266, 327, 282 },
		  1576930, true },
		{ { 313, 320, 315, 322, 312, 311, 316, 320, 304, 309, 315, 308, 299, 322, 309, 305 },
		  1563176, false },
		{ { 322, 305, 315, 313, 316, 320, 315, 315, 305, 303, 320, 320, 309, 303, 304, 315 },
		  1563174, true },
	};
	struct fips_block_stats st;
	unsigned i;

	for (i = 0; i < 4; i++) {
		nibbles(cases[i].c);
		assert_int_equal(!!(test_block(false, &st) & FIPS_FAIL(FIPS_POKER)), cases[i].fail);
		assert_int_equal(st.poker_sum, cases[i].sum);
		assert_int_equal(!!(test_block(true, &st) & FIPS_FAIL(FIPS_POKER)), cases[i].fail);
	}
}

/*
 * The sum of squares always has the parity of 5000 (even), so a bound moved
 * by one to the odd side (HI + 1, LO - 1) changes no verdict on any block:
 * no block can catch it. The constants are therefore checked against FIPS
 * 140-2 4.9.1 itself: X = (16 / 5000) * sum - 5000 must satisfy
 * 2.16 < X < 46.17, i.e. 500216 * 5000 / 1600 < sum < 504617 * 5000 / 1600.
 */
static void test_poker_constants(void **state)
{
	const uint64_t lo_excl = 500216ull * 5000;   /* sum * 1600 must exceed this */
	const uint64_t hi_excl = 504617ull * 5000;   /* ... and stay below this */
	(void)state;
	assert_true((uint64_t)FIPS_POKER_LO * 1600 > lo_excl);
	assert_true((uint64_t)(FIPS_POKER_LO - 1) * 1600 <= lo_excl);   /* the smallest passing sum */
	assert_true((uint64_t)FIPS_POKER_HI * 1600 < hi_excl);
	assert_true((uint64_t)(FIPS_POKER_HI + 1) * 1600 >= hi_excl);   /* the largest passing sum */
}

/*
 * A block of alternating runs, zeros first, with n[k] runs of length
 * class k (1..5, 6+) of each colour; class-6 runs are 6 bits plus an even
 * share of the bits left to reach 20,000 (at most 25 bits: no long run).
 * Each colour's last run has length 3, so rngtest's tally shift (the block's
 * last run under its own bit) only moves class-3 counts: tally 0 gets
 * n[2] - 1 there, tally 1 n[2] + 1.
 */
static void runs_block(const unsigned n[6])
{
	unsigned len[2][6000], cnt = 0, k, i, extra, bits = 0, pos = 0, c;

	for (k = 0; k < 6; k++)
		bits += 2 * (k + 1) * n[k];
	assert_true(bits <= FIPS_BLOCK_BITS && n[2] > 0);
	extra = (FIPS_BLOCK_BITS - bits) / 2;   /* per colour */
	assert_true(n[5] > 0 && extra <= 19 * n[5] && (FIPS_BLOCK_BITS - bits) % 2 == 0);
	for (k = 0; k < 6; k++) {
		unsigned m = k == 2 ? n[k] - 1 : n[k];

		for (i = 0; i < m; i++) {
			unsigned l = k + 1;

			if (k == 5) {
				l = 6 + extra / n[5] + (i < extra % n[5]);
			}
			len[0][cnt] = len[1][cnt] = l;
			cnt++;
		}
	}
	len[0][cnt] = len[1][cnt] = 3;
	cnt++;
	for (i = 0; i < cnt; i++)
		for (c = 0; c < 2; c++)
			for (k = 0; k < len[c][i]; k++)
				put_bit(pos++, c);
	assert_int_equal(pos, FIPS_BLOCK_BITS);
}

static void test_runs_bounds(void **state)
{
	(void)state;
	/* FIPS 140-2 4.9.1 runs intervals: 1: 2315-2685, 2: 1114-1386, 3: 527-723,
	 * 4: 240-384, 5: 103-209, 6+: 103-209 */
	static const struct { unsigned n[6]; bool fail; } cases[] = {
		{ { 2500, 1250, 625, 312, 156, 156 }, false },
		{ { 2315, 1250, 625, 312, 156, 156 }, false },
		{ { 2314, 1250, 625, 312, 156, 156 }, true },
		{ { 2685, 1200, 625, 312, 156, 156 }, false },
		{ { 2686, 1200, 625, 312, 156, 156 }, true },
		{ { 2500, 1250, 625, 312, 156, 103 }, false },
		{ { 2500, 1250, 625, 312, 156, 102 }, true },
		{ { 2400, 1200, 625, 312, 156, 209 }, false },
		{ { 2400, 1200, 625, 312, 156, 210 }, true },
		{ { 2500, 1250, 625, 312, 103, 156 }, false },
		{ { 2500, 1250, 625, 312, 102, 156 }, true },
		{ { 2500, 1250, 625, 240, 156, 156 }, false },
		{ { 2500, 1250, 625, 239, 156, 156 }, true },
	};
	struct fips_block_stats st;
	unsigned i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		runs_block(cases[i].n);
		assert_int_equal(!!(test_block(true, &st) & FIPS_FAIL(FIPS_RUNS)), cases[i].fail);
		for (k = 0; k < 6; k++) {
			assert_int_equal(st.runs[0][k], cases[i].n[k]);   /* strict: by colour */
			assert_int_equal(st.runs[1][k], cases[i].n[k]);
		}
		assert_int_equal(!!(test_block(false, &st) & FIPS_FAIL(FIPS_RUNS)), cases[i].fail);
		assert_int_equal(st.runs[0][2], cases[i].n[2] - 1);   /* rngtest's tallies */
		assert_int_equal(st.runs[1][2], cases[i].n[2] + 1);
		assert_int_equal(st.runs[0][0], cases[i].n[0]);
		assert_int_equal(!!(test_block(false, &st) & FIPS_FAIL(FIPS_LONG_RUN)), false);
	}
}

/* Alternating bits with a run of `len` ones starting at bit `at` (zeros around it). */
static void run_at(unsigned at, unsigned len)
{
	unsigned i;

	alternating();
	if (at > 0)
		put_bit(at - 1, 0);
	for (i = 0; i < len; i++)
		put_bit(at + i, 1);
	if (at + len < FIPS_BLOCK_BITS)
		put_bit(at + len, 0);
}

static void test_long_run_bounds(void **state)
{
	(void)state;
	struct fips_block_stats st;
	struct fips_carry c = { 0, 0, false };

	run_at(1000, 25);
	assert_false(test_block(false, &st) & FIPS_FAIL(FIPS_LONG_RUN));
	assert_int_equal(st.longest_run, 25);
	run_at(1000, 26);
	assert_true(test_block(false, &st) & FIPS_FAIL(FIPS_LONG_RUN));
	assert_int_equal(st.longest_run, 26);
	/* the block's last run is checked too */
	run_at(FIPS_BLOCK_BITS - 26, 26);
	assert_true(test_block(false, &st) & FIPS_FAIL(FIPS_LONG_RUN));
	run_at(FIPS_BLOCK_BITS - 25, 25);
	assert_false(test_block(false, &st) & FIPS_FAIL(FIPS_LONG_RUN));
	/* a run of 30 across a block boundary (20 + 10) is cut: neither block fails */
	run_at(FIPS_BLOCK_BITS - 20, 20);
	c.last_bit = 1;
	assert_false(fips_block(blk, &c, &st) & FIPS_FAIL(FIPS_LONG_RUN));
	assert_int_equal(c.last_bit, 1);
	run_at(0, 10);
	assert_false(fips_block(blk, &c, &st) & FIPS_FAIL(FIPS_LONG_RUN));
	assert_int_equal(st.longest_run, 10);
}

static void test_continuous(void **state)
{
	(void)state;
	struct rngtest_stream s;
	uint8_t seed[4] = { 0xaa, 0x55, 0xaa, 0x55 };
	unsigned i;

	rngtest_init(&s);
	rngtest_feed(&s, seed, 4);
	/* block 1 starts with the seed word: fails; block 2 starts with block 1's last word */
	alternating();
	for (i = 0; i < FIPS_BLOCK_BYTES; i++)
		blk[i] = (uint8_t)(i * 7 + (i >> 8));
	memcpy(blk, seed, 4);
	rngtest_feed(&s, blk, sizeof(blk));
	assert_int_equal(s.fail[FIPS_CONTINUOUS], 1);
	memcpy(blk, blk + FIPS_BLOCK_BYTES - 4, 4);
	rngtest_feed(&s, blk, sizeof(blk));
	assert_int_equal(s.fail[FIPS_CONTINUOUS], 2);
	blk[0] ^= 1;
	rngtest_feed(&s, blk, sizeof(blk));
	assert_int_equal(s.fail[FIPS_CONTINUOUS], 2);
	assert_int_equal(rngtest_blocks(&s), 3);
}

/* rngtest's extra count at a block start, and its absence in strict mode. */
static void test_rngtest_quirks(void **state)
{
	(void)state;
	struct fips_block_stats a, b;
	struct fips_carry c;
	unsigned i;

	for (i = 0; i < FIPS_BLOCK_BYTES; i++)
		blk[i] = (uint8_t)(i * 37 + 11);
	put_bit(0, 0);
	c = (struct fips_carry){ 0, 1, false };
	fips_block(blk, &c, &a);
	c = (struct fips_carry){ 0, 1, true };
	fips_block(blk, &c, &b);
	assert_int_equal(a.poker[15], b.poker[15] + 1);   /* rngtest's runs[-1] is poker[15] */
	for (i = 0; i < 15; i++)
		assert_int_equal(a.poker[i], b.poker[i]);

	put_bit(0, 1);
	c = (struct fips_carry){ 0, 0, false };
	fips_block(blk, &c, &a);
	c = (struct fips_carry){ 0, 0, true };
	fips_block(blk, &c, &b);
	assert_int_equal(a.poker[15], b.poker[15]);
	/* an extra 6+ count in tally 0, plus the tally shift of the ended runs */
	assert_int_equal(a.runs[0][5] + a.runs[1][5], b.runs[0][5] + b.runs[1][5] + 1);
	assert_int_equal(c.last_bit, blk[FIPS_BLOCK_BYTES - 1] & 1);
}

/* Pieces of any size, the seed word and the short tail, as rngtest reads them. */
static void test_stream_pieces(void **state)
{
	(void)state;
	static uint8_t data[4 + 3 * FIPS_BLOCK_BYTES + 17];
	struct rngtest_stream a, b;
	size_t i, step;
	uint32_t x = 1;

	for (i = 0; i < sizeof(data); i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (uint8_t)(x >> 23);
	}
	rngtest_init(&a);
	rngtest_feed(&a, data, sizeof(data));
	assert_int_equal(a.bytes, sizeof(data));
	assert_int_equal(rngtest_blocks(&a), 3);
	for (step = 1; step < 3000; step = step * 3 + 1) {
		rngtest_init(&b);
		for (i = 0; i < sizeof(data); i += step)
			rngtest_feed(&b, data + i, sizeof(data) - i < step ? sizeof(data) - i : step);
		assert_int_equal(b.successes, a.successes);
		assert_int_equal(b.failures, a.failures);
		assert_memory_equal(b.fail, a.fail, sizeof(a.fail));
	}
	/* fewer than 4 bytes: no block, nothing counted but the bytes */
	rngtest_init(&b);
	rngtest_feed(&b, data, 3);
	assert_int_equal(rngtest_blocks(&b), 0);
	assert_int_equal(b.bytes, 3);
}

/* ---- fixed point ---- */

static void test_fixmath(void **state)
{
	(void)state;
	struct fx128 q, r;
	unsigned k;

	assert_int_equal(fx_log2(1), 0);
	for (k = 0; k < 64; k++)
		assert_true(fx_log2((uint64_t)1 << k) == (uint64_t)k << FX_LOG2_FRAC);
	/* floor(log2(3) * 2^48), floor(log2(10^6) * 2^48): mpmath, 60 digits; error < 2^-47 */
	assert_true(446127282977750ull - fx_log2(3) <= 2);
	assert_true(5610237798857365ull - fx_log2(1000000) <= 2);
	assert_true(fx_log2(3) < fx_log2(4) && fx_log2(0xffffffffffffffffull) < (64ull << 48));

	assert_true(fx128_isqrt(fx128_shl(fx128_from(1), 126)) == (uint64_t)1 << 63);
	assert_true(fx128_isqrt(fx128_sub(fx128_mul(1000000007, 1000000007), fx128_from(1))) ==
		    1000000006);
	/* half to even */
	assert_true(fx128_div_round(fx128_from(5), fx128_from(2)) == 2);
	assert_true(fx128_div_round(fx128_from(7), fx128_from(2)) == 4);
	assert_true(fx128_div_round(fx128_from(8), fx128_from(3)) == 3);
	q = fx128_divmod(fx128_shl(fx128_from(3), 100), fx128_from(7), &r);
	assert_true(fx128_cmp(fx128_add(fx128_mul128(q, 7), r), fx128_shl(fx128_from(3), 100)) == 0);

	/* floor(2^-0.5 * 2^64), floor(2^-6.5 * 2^64): mpmath; documented error < 2^-38 relative */
	assert_true(13043817825332782212ull - fx_exp2_neg_micro(500000) < (1ull << 26));
	assert_true(203809653520824722ull - fx_exp2_neg_micro(6500000) < (1ull << 22));
	assert_true(fx_exp2_neg_micro(1000000) == 1ull << 63);
	assert_true(fx_exp2_neg_micro(8000000) == 1ull << 56);
}

static void test_critbinom(void **state)
{
	(void)state;
	/* exact, python fractions: smallest k with P(X <= k) >= 1 - 2^-beta */
	assert_int_equal(fx_critbinom(10, 1ull << 63, 3), 7);
	assert_int_equal(fx_critbinom(1000, 1ull << 54, 20), 8);
	assert_int_equal(fx_critbinom(20, 1ull << 54, 20), 3);
	assert_int_equal(fx_critbinom(1000, 1ull << 51, 20), 4);
	assert_int_equal(fx_critbinom(1000, 1ull << 42, 20), 1);
	/* Linux crypto/jitterentropy.c: APT cutoffs 325 and 355 for W = 512, H = 1,
	 * alpha = 2^-30 and 2^-60 */
	assert_int_equal(1 + fx_critbinom(512, 1ull << 63, 30), 325);
	assert_int_equal(1 + fx_critbinom(512, 1ull << 63, 60), 355);
}

static void test_90b_cutoffs(void **state)
{
	(void)state;
	/*
	 * RCT: 1 + ceil(20 / H). APT: 1 + CRITBINOM(W, 2^-H, 1 - 2^-20), W = 512
	 * for 8-bit samples, 1024 for bits. python3: exact Fractions for integer
	 * H, Decimal at 80 digits (p = 2^-H) otherwise.
	 */
	static const struct { uint32_t h; uint32_t rct, apt8, apt1; } t[] = {
		{ 1000000, 21, 311, 589 }, { 500000, 41, 410, 793 }, { 100000, 201, 502, 991 },
		{ 300000, 68, 456, 890 },  { 2000000, 11, 177, 0 },  { 1500000, 15, 234, 0 },
		{ 4000000, 6, 62, 0 },     { 6500000, 5, 21, 0 },    { 7000000, 4, 18, 0 },
		{ 8000000, 4, 13, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(sp90b_rct_cutoff(t[i].h, 20), t[i].rct);
		assert_int_equal(sp90b_apt_cutoff(t[i].h, 8, 20), t[i].apt8);
		if (t[i].apt1)
			assert_int_equal(sp90b_apt_cutoff(t[i].h, 1, 20), t[i].apt1);
	}
	assert_int_equal(sp90b_apt_window(1), 1024);
	assert_int_equal(sp90b_apt_window(8), 512);
}

static void test_90b_health(void **state)
{
	(void)state;
	struct sp90b_health h;
	uint8_t buf[512];
	unsigned i;

	/* H = 8: RCT cutoff 4. Three equal bytes: no alarm; four: one alarm. */
	sp90b_health_init(&h, 8, 8000000);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	buf[10] = buf[11] = buf[9];
	sp90b_health_feed(&h, buf, sizeof(buf));
	assert_int_equal(h.rct_alarms, 0);
	assert_int_equal(h.rct_longest, 3);
	buf[12] = buf[9];
	sp90b_health_init(&h, 8, 8000000);
	sp90b_health_feed(&h, buf, sizeof(buf));
	assert_int_equal(h.rct_alarms, 1);
	assert_int_equal(h.rct_longest, 4);

	/* APT cutoff 13 (H = 8, W = 512): the first value 12 times, then 13 times */
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(1 + i % 200);
	for (i = 1; i < 12; i++)
		buf[i * 40] = buf[0];
	sp90b_health_init(&h, 8, 8000000);
	sp90b_health_feed(&h, buf, sizeof(buf));
	assert_int_equal(h.apt_max, 12);
	assert_int_equal(h.apt_alarms, 0);
	assert_int_equal(h.apt_windows, 1);
	buf[500] = buf[0];
	sp90b_health_init(&h, 8, 8000000);
	sp90b_health_feed(&h, buf, sizeof(buf));
	assert_int_equal(h.apt_max, 13);
	assert_int_equal(h.apt_alarms, 1);

	/* bits: 0xff bytes give one run; H = 1: cutoff 21 */
	memset(buf, 0xff, 4);
	sp90b_health_init(&h, 1, 1000000);
	sp90b_health_feed(&h, buf, 4);
	assert_int_equal(h.rct_cutoff, 21);
	assert_int_equal(h.rct_longest, 32);
	assert_int_equal(h.rct_alarms, 1);
}

static void test_90b_estimates(void **state)
{
	(void)state;
	/*
	 * d1[i] = (i*i*37 + i*11) >> 3 (low byte), 4096 bytes; d2 from the LCG
	 * x = x * 1103515245 + 12345 mod 2^31 (x0 = 12345), byte = (x >> 16) |
	 * ((x >> 8) & 0x81), 8192 bytes. Expected: python3 doubles with the
	 * formulas of 6.3.1 and of NIST's markov_test.h, rounded to micro-bits:
	 * d1: MCV 7.283826 (byte 0x00, 16 times), Markov 0.999913 per bit;
	 * d2: MCV 6.121003 (byte 0xe7, 93 times), Markov 0.807273 per bit.
	 */
	static uint8_t d[8192];
	struct sp90b_counts c;
	struct sp90b_mcv m;
	uint32_t i, x = 12345;

	for (i = 0; i < 4096; i++)
		d[i] = (uint8_t)((i * i * 37 + i * 11) >> 3);
	sp90b_counts_init(&c);
	sp90b_counts_feed(&c, d, 4096);
	sp90b_mcv(&c, &m);
	assert_int_equal(m.h_micro, 7283826);
	assert_int_equal(m.mode, 0);
	assert_int_equal(m.mode_count, 16);
	assert_int_equal(sp90b_markov(&c), 999913);

	for (i = 0; i < 8192; i++) {
		x = (x * 1103515245u + 12345u) & 0x7fffffffu;
		d[i] = (uint8_t)(((x >> 16) & 0xff) | ((x >> 8) & 0x81));
	}
	sp90b_counts_init(&c);
	for (i = 0; i < 8192; i += 1000)   /* in pieces: the bit pairs across pieces count */
		sp90b_counts_feed(&c, d + i, 8192 - i < 1000 ? 8192 - i : 1000);
	sp90b_mcv(&c, &m);
	assert_int_equal(m.h_micro, 6121003);
	assert_int_equal(m.mode, 0xe7);
	assert_int_equal(m.mode_count, 93);
	assert_int_equal(sp90b_markov(&c), 807273);

	/* constant data: no entropy either way */
	memset(d, 0x5a, 100);
	sp90b_counts_init(&c);
	sp90b_counts_feed(&c, d, 100);
	sp90b_mcv(&c, &m);
	assert_int_equal(m.h_micro, 0);
	/* 0x5a = 01011010 repeated: Markov 0.417802 per bit (python3, as above) */
	assert_int_equal(sp90b_markov(&c), 417802);
}

/* ---- ent ---- */

static struct ent_result ent_of(const void *data, size_t len, bool bits)
{
	struct ent_ctx c;
	struct ent_result r;

	ent_init(&c, bits);
	ent_feed(&c, data, len);
	ent_finish(&c, &r);
	return r;
}

static void check_fig(const struct ent_result *r, enum ent_figure f, unsigned dec, const char *want)
{
	char buf[64];

	ent_fmt(r, f, dec, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_ent(void **state)
{
	(void)state;
	/* Expected strings: Debian ent 1.2debian-3 (normal and -t output) on the same bytes. */
	static uint8_t d[25600];
	struct ent_result r;
	unsigned i;

	r = ent_of("abcde", 5, false);
	check_fig(&r, ENT_ENTROPY, 6, "2.321928");
	check_fig(&r, ENT_CHISQ, 2, "251.00");
	check_fig(&r, ENT_MEAN, 4, "99.0000");
	check_fig(&r, ENT_PI, 9, "-nan");
	check_fig(&r, ENT_SCC, 6, "0.000000");
	check_fig(&r, ENT_COMPRESSION, 0, "70");
	r = ent_of("abcde", 5, true);
	check_fig(&r, ENT_ENTROPY, 6, "0.983708");
	check_fig(&r, ENT_CHISQ, 6, "0.900000");
	check_fig(&r, ENT_MEAN, 6, "0.425000");
	check_fig(&r, ENT_SCC, 6, "-0.125320");

	memset(d, 0, 25600);
	r = ent_of(d, 25600, false);
	check_fig(&r, ENT_CHISQ, 2, "6528000.00");
	check_fig(&r, ENT_PI, 9, "4.000000000");
	check_fig(&r, ENT_PI_ERROR, 2, "27.32");
	check_fig(&r, ENT_COMPRESSION, 0, "100");
	assert_false(r.scc_defined);

	for (i = 0; i < 25600; i++)
		d[i] = (uint8_t)i;
	r = ent_of(d, 25600, false);
	check_fig(&r, ENT_ENTROPY, 6, "8.000000");
	check_fig(&r, ENT_CHISQ, 2, "0.00");
	check_fig(&r, ENT_MEAN, 4, "127.5000");
	check_fig(&r, ENT_PI, 9, "2.843881857");
	check_fig(&r, ENT_PI_ERROR, 2, "9.48");
	check_fig(&r, ENT_SCC, 6, "0.976654");
	assert_int_equal(ent_micro(&r, ENT_SCC), 976654);

	/*
	 * Exact decimal ties in the mean: 127 + 1/32 = 127.03125 is a double,
	 * printf rounds it to even: 127.0312. 127 + 3/160 = 127.01875 is not:
	 * the nearest double is below, and ent prints 127.0187 (not 127.0188).
	 */
	memset(d, 127, 160);
	d[31] = 128;
	r = ent_of(d, 32, false);
	check_fig(&r, ENT_MEAN, 4, "127.0312");
	d[31] = 127;
	d[159] = 130;
	r = ent_of(d, 160, false);
	check_fig(&r, ENT_MEAN, 4, "127.0187");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monobit_bounds),
		cmocka_unit_test(test_poker_bounds),
		cmocka_unit_test(test_poker_constants),
		cmocka_unit_test(test_runs_bounds),
		cmocka_unit_test(test_long_run_bounds),
		cmocka_unit_test(test_continuous),
		cmocka_unit_test(test_rngtest_quirks),
		cmocka_unit_test(test_stream_pieces),
		cmocka_unit_test(test_fixmath),
		cmocka_unit_test(test_critbinom),
		cmocka_unit_test(test_90b_cutoffs),
		cmocka_unit_test(test_90b_health),
		cmocka_unit_test(test_90b_estimates),
		cmocka_unit_test(test_ent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
