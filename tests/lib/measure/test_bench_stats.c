/*
 * Unit tests for lib/measure/bench_stats.c: exact values of every statistic, the
 * rounding rules, 128-bit intermediate products (cycle counts of 2^40 and
 * more), the least-squares fit and the break-even cases, and the
 * openssl-speed table layout. The weighted fit is also fed synthetic cells
 * of known cost and noise (repetitions drawn the way a timed cell makes
 * them) and must recover the cost within the uncertainty it states.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/measure/bench_stats.h"
#include "lib/vectors/kat.h"

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

	/* Cycles per operation near BSTAT_MAX_Y: fixed 2^33, 2^20 cycles per byte. */
	for (i = 0; i < 6; i++)
		y[i] = 100 * ((1ull << 33) + (1ull << 20) * x[i]);
	assert_true(y[5] <= BSTAT_MAX_Y);
	assert_true(bstat_fit_line(x, y, 6, &f));
	assert_int_equal(f.fixed_x100, 100 * (1ll << 33));
	assert_int_equal(f.per_byte_x100, 100 * (1ll << 20));
	/* An exact line has no scatter: its uncertainty is the sigmas' alone (1 centicycle). */
	assert_true(f.fixed_err_x100 <= 2);
	assert_true(f.per_byte_err_x100 <= 1);
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
	struct bstat_fit f = { true, 5, 5, 5, 5 };

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
	struct bstat_fit f = { true, fixed_x100, per_byte_x100, 0, 0 };
	return f;
}

/* Break-even over the benchmark's sizes, 16 .. 16384 bytes, unless lo, hi say otherwise. */
static void expect_be_in(struct bstat_fit e, struct bstat_fit r, uint32_t lo, uint32_t hi,
			 enum bstat_breakeven_kind kind, uint64_t bytes, const char *text)
{
	struct bstat_breakeven be = bstat_breakeven(&e, &r, lo, hi);
	char buf[32];

	if (be.kind != kind || be.bytes != bytes)
		print_message("engine %lld + %lld x, ref %lld + %lld x over %u..%u: kind %d bytes %llu\n",
			      (long long)e.fixed_x100, (long long)e.per_byte_x100,
			      (long long)r.fixed_x100, (long long)r.per_byte_x100, (unsigned)lo,
			      (unsigned)hi, (int)be.kind, (unsigned long long)be.bytes);

	assert_int_equal(be.kind, kind);
	assert_int_equal(be.bytes, bytes);
	assert_int_equal(bstat_format_breakeven(buf, sizeof(buf), &be), strlen(text));
	assert_string_equal(buf, text);
	if (kind == BSTAT_BE_FROM || kind == BSTAT_BE_BELOW)
		assert_true(be.bytes > lo && be.bytes <= hi);
}

static void expect_be(struct bstat_fit e, struct bstat_fit r, enum bstat_breakeven_kind kind,
		      uint64_t bytes, const char *text)
{
	expect_be_in(e, r, 16, 16384, kind, bytes, text);
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
	/*
	 * Crossings at or below the smallest measured size are `always` (the
	 * engine wins at 16 bytes) or `never`: no figure of 16 bytes or less.
	 * 501 + 19 x crosses at 1 byte; 580 + 15 x at exactly 16 (equal, not
	 * faster, at 16; faster from 17).
	 */
	expect_be(line(50100, 1900), sw, BSTAT_BE_ALWAYS, 0, "always");
	expect_be(line(58000, 1500), sw, BSTAT_BE_FROM, 17, "17");
	expect_be(line(57900, 1500), sw, BSTAT_BE_ALWAYS, 0, "always");
	/* Cheaper per operation by less than one byte's extra cost: dearer from 1 byte. */
	expect_be(line(49950, 2100), sw, BSTAT_BE_NEVER, 0, "never");
	/* A crossing beyond the largest measured size is not extrapolated: never. */
	expect_be(line(5000000, 1900), sw, BSTAT_BE_NEVER, 0, "never");
	expect_be_in(line(5000000, 1900), sw, 16, 65536, BSTAT_BE_FROM, 49501, "49501");
	/* ... nor one beyond it on the other side: faster throughout the range. */
	expect_be(line(0, 2001), sw, BSTAT_BE_ALWAYS, 0, "always");
	expect_be_in(line(0, 2001), sw, 16, 65536, BSTAT_BE_BELOW, 50000, "below_50000");
	/* Extreme coefficients do not overflow. */
	expect_be(line(1ll << 60, -(1ll << 60)), line(-(1ll << 60), 1ll << 60), BSTAT_BE_ALWAYS,
		  0, "always");
	expect_be(line(1ll << 60, 0), line(0, 1ll << 50), BSTAT_BE_FROM, 1025, "1025");
	expect_be_in(line(0, 1), line(1ll << 60, 0), 16, UINT32_MAX, BSTAT_BE_ALWAYS, 0, "always");
	/* An engine whose fit failed is never called faster; nor over an empty range. */
	bad.ok = false;
	expect_be(bad, sw, BSTAT_BE_NEVER, 0, "never");
	expect_be(line(0, 0), bad, BSTAT_BE_NEVER, 0, "never");
	expect_be_in(line(0, 0), sw, 0, 16, BSTAT_BE_NEVER, 0, "never");
	expect_be_in(line(0, 0), sw, 64, 16, BSTAT_BE_NEVER, 0, "never");
}

static void test_fit_precise(void **state)
{
	struct bstat_fit f = line(40000, 2211);

	(void)state;
	/* 400 cycles + 22.11/byte: the bound is max(100, 353.76) cycles. */
	f.fixed_err_x100 = 35376;
	assert_true(bstat_fit_precise(&f));
	f.fixed_err_x100 = 35377;
	assert_false(bstat_fit_precise(&f));
	/* A DMA engine's 18322 + 1/byte: a quarter of the fixed cost, 4580.5 cycles. */
	f = line(1832200, 100);
	f.fixed_err_x100 = 458050;
	assert_true(bstat_fit_precise(&f));
	f.fixed_err_x100 = 458051;
	assert_false(bstat_fit_precise(&f));
	/* Never a negative fixed cost, however precise; -0.49 rounds to 0. */
	f = line(-50, 2000);
	assert_false(bstat_fit_precise(&f));
	f = line(-49, 2000);
	assert_true(bstat_fit_precise(&f));
	/* Unknown uncertainty, or a failed fit. */
	f = line(40000, 2211);
	f.fixed_err_x100 = BSTAT_SATURATED;
	assert_false(bstat_fit_precise(&f));
	f = line(40000, 2211);
	f.ok = false;
	assert_false(bstat_fit_precise(&f));
}

static void test_cell_sigma(void **state)
{
	(void)state;
	/* 1e6 cycles per run of 1000 ops, 1.0 % spread: 10 cycles = 1000 centicycles. */
	assert_int_equal(bstat_cell_sigma_x100(1000000, 1000, 10), 1000);
	/* No spread: the 0.1 % floor, 1 cycle. */
	assert_int_equal(bstat_cell_sigma_x100(1000000, 1000, 0), 100);
	assert_int_equal(bstat_cell_sigma_x100(1000000, 1000, 1), 100);
	assert_int_equal(bstat_cell_sigma_x100(1000000, 1000, 3), 300);
	/* Never 0; ops 0 has no figure. */
	assert_int_equal(bstat_cell_sigma_x100(1, 1000, 0), 1);
	assert_int_equal(bstat_cell_sigma_x100(1000, 0, 5), BSTAT_SATURATED);
}

/* ---- Synthetic cells of known cost and noise ---- */

#define SYN_TRIALS	400
#define SYN_REPS	3
#define SYN_RUN_CYCLES	12000000.0	/* a 12 ms cell at 1 GHz */

/* A standard normal deviate: the sum of 12 uniforms on [0, 1) less 6 (Irwin-Hall). */
static double normal(struct xc_rng *g)
{
	double s = 0;
	int i;

	for (i = 0; i < 12; i++)
		s += (double)(xc_rng_next(g) >> 11) / 9007199254740992.0;
	return s - 6.0;
}

/*
 * Cells of cost fixed + per_byte x cycles per operation at the benchmark's
 * sizes, as bench_measure makes them: ops chosen for a run of about
 * SYN_RUN_CYCLES, SYN_REPS runs each stretched by a factor 1 + noise x a
 * normal deviate, the median and spread of the runs.
 */
static void synthetic_cells(struct xc_rng *g, double fixed, double per_byte, double noise,
			    uint64_t *y, uint64_t *sigma)
{
	static const uint32_t x[6] = { 16, 64, 256, 1024, 8192, 16384 };
	uint64_t runs[SYN_REPS], ops, med;
	unsigned i, r;

	for (i = 0; i < 6; i++) {
		double cost = fixed + per_byte * x[i];
		ops = (uint64_t)(SYN_RUN_CYCLES / cost);
		if (ops == 0)
			ops = 1;
		for (r = 0; r < SYN_REPS; r++)
			runs[r] = (uint64_t)(cost * (double)ops * (1.0 + noise * normal(g)) + 0.5);
		med = bstat_median(runs, SYN_REPS);
		y[i] = bstat_muldiv(med, 100, ops);
		sigma[i] = bstat_cell_sigma_x100(med, ops, bstat_spread_x10(runs, SYN_REPS));
	}
}

struct syn_result {
	unsigned fixed_within, per_byte_within;	/* trials within 2 stated uncertainties */
	unsigned precise;			/* trials bstat_fit_precise accepts */
	double fixed_err_mean;			/* mean stated uncertainty, cycles */
};

static struct syn_result synthetic_fits(double fixed, double per_byte, double noise)
{
	static const uint32_t x[6] = { 16, 64, 256, 1024, 8192, 16384 };
	struct syn_result res = { 0, 0, 0, 0 };
	uint64_t y[6], sigma[6];
	struct bstat_fit f;
	struct xc_rng g;
	unsigned t;

	xc_rng_seed(&g, 0x5eed);
	for (t = 0; t < SYN_TRIALS; t++) {
		double da, db;

		synthetic_cells(&g, fixed, per_byte, noise, y, sigma);
		assert_true(bstat_fit_weighted(x, y, sigma, 6, &f));
		assert_true(f.fixed_err_x100 != BSTAT_SATURATED);
		da = (double)f.fixed_x100 - 100.0 * fixed;
		db = (double)f.per_byte_x100 - 100.0 * per_byte;
		/* Within two uncertainties, and one centicycle of rounding. */
		res.fixed_within += (da < 0 ? -da : da) <= 2.0 * (double)f.fixed_err_x100 + 1.0;
		res.per_byte_within += (db < 0 ? -db : db) <= 2.0 * (double)f.per_byte_err_x100 + 1.0;
		res.precise += bstat_fit_precise(&f);
		res.fixed_err_mean += (double)f.fixed_err_x100 / 100.0 / SYN_TRIALS;
	}
	return res;
}

/*
 * Software AES as on a small box: 400 cycles per call + 22.11 per byte,
 * each run off by 0.5 % (one standard deviation). Unweighted, such noise
 * in the 16 KiB cell alone (about 1800 cycles) moves the intercept by
 * hundreds of cycles; weighted by each cell's spread the small cells set
 * it. The stated uncertainty must cover the true cost (within two of it
 * in at least 90 % of the trials: 95 % for a normal estimate, less the
 * doubt in a spread of three runs), be small (a mean under 40 cycles) and
 * let the fit count as precise in at least 95 % of the trials.
 */
static void test_fit_synthetic_software(void **state)
{
	struct syn_result r = synthetic_fits(400.0, 22.11, 0.005);

	(void)state;
	assert_true(r.fixed_within >= SYN_TRIALS * 9 / 10);
	assert_true(r.per_byte_within >= SYN_TRIALS * 9 / 10);
	assert_true(r.fixed_err_mean < 40.0);
	assert_true(r.precise >= SYN_TRIALS * 95 / 100);
}

/* A DMA engine: 18322 cycles per request + 1.2 per byte, 1 % noise per run. */
static void test_fit_synthetic_dma(void **state)
{
	struct syn_result r = synthetic_fits(18322.0, 1.2, 0.01);

	(void)state;
	assert_true(r.fixed_within >= SYN_TRIALS * 9 / 10);
	assert_true(r.per_byte_within >= SYN_TRIALS * 9 / 10);
	assert_true(r.fixed_err_mean < 400.0);
	assert_true(r.precise >= SYN_TRIALS * 95 / 100);
}

/*
 * Cells that are not one straight line (a cost per byte that rises by a
 * third from 8 KiB, no noise: every spread 0): the sigmas alone (0.1 %)
 * would claim a precise fixed cost; the scatter about the line must widen
 * the uncertainty so that the true intercept (0) is covered.
 */
static void test_fit_not_a_line(void **state)
{
	static const uint32_t x[6] = { 16, 64, 256, 1024, 8192, 16384 };
	uint64_t y[6], sigma[6];
	struct bstat_fit f;
	unsigned i;

	(void)state;
	for (i = 0; i < 6; i++) {
		y[i] = (x[i] >= 8192 ? 400ull : 300ull) * x[i];
		sigma[i] = bstat_cell_sigma_x100(y[i], 100, 0);
	}
	assert_true(bstat_fit_weighted(x, y, sigma, 6, &f));
	assert_true((uint64_t)(f.fixed_x100 < 0 ? -f.fixed_x100 : f.fixed_x100) <= 2 * f.fixed_err_x100);
	assert_true(f.fixed_err_x100 > 500);	/* the floor alone gives about 0.5 cycles */
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
		cmocka_unit_test(test_fit_precise),
		cmocka_unit_test(test_cell_sigma),
		cmocka_unit_test(test_fit_synthetic_software),
		cmocka_unit_test(test_fit_synthetic_dma),
		cmocka_unit_test(test_fit_not_a_line),
		cmocka_unit_test(test_format_kbps),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
