/*
 * Unit tests for the RNG verdicts and self-check: lib/rng/rng_verdict.c,
 * lib/rng/rng_bad.c, lib/rng/rng_quality.c, lib/rng/rng_repeat.c, lib/rng/rng_lincomp.c.
 * A good generator must pass every rule; every deliberately bad source must
 * fail the rules it is built to fail; and the thresholds sit where
 * docs/rng-verdict.md says (binomial critical values: python3 fractions).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/rng/rng_bad.h"
#include "lib/rng/rng_lincomp.h"
#include "lib/rng/rng_quality.h"
#include "lib/rng/rng_repeat.h"
#include "lib/rng/rng_verdict.h"
#include "lib/util/splitmix64.h"

static struct rngq q;
static uint8_t buf[4096];

/* A good source: splitmix64 (passes BigCrush), for the "must pass" side. */
static uint64_t good_state;


static int read_good(const struct rng_source *r, uint8_t *out, size_t len, size_t *got)
{
	size_t i;
	uint64_t v = 0;

	(void)r;
	for (i = 0; i < len; i++) {
		if (i % 8 == 0)
			v = splitmix64_next(&good_state);
		out[i] = (uint8_t)(v >> (8 * (i % 8)));
	}
	*got = len;
	return 0;
}

static const struct rng_source good = { "good", "splitmix64", false, 0, read_good, RNG_CLAIM_FULL, 0, NULL };

static void test_good_source_passes(void **state)
{
	(void)state;
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];
	uint64_t got;
	unsigned t;

	good_state = 42;
	rngq_init(&q, RNGQ_CLAIM_FULL);
	assert_int_equal(rngq_feed_source(&q, &good, 256 * 1024, buf, sizeof(buf), &got), 0);
	assert_int_equal(got, 256 * 1024);
	rngq_result(&q, &r);
	assert_int_equal(rngq_verdicts(&r, v), 0);
	for (t = 0; t < RNGQ_TESTS; t++) {
		assert_int_equal(v[t].status, RNGQ_PASS);
		assert_true(strlen(v[t].reason) > 0);
	}
	assert_int_equal(r.fips_blocks, (256 * 1024 - 4) / 2500);
	assert_true(r.lc_tested > 0);
}

static void test_bad_sources_fail(void **state)
{
	(void)state;
	char msg[200];
	unsigned i;

	for (i = 0; i < RNG_BAD_COUNT; i++) {
		const struct rng_bad *b = rng_bad(i);

		assert_true(b->src->known_bad);
		assert_true(b->must_fail != 0);
		assert_true(rng_selfcheck(b, &q, buf, sizeof(buf), msg, sizeof(msg)));
		assert_non_null(strstr(msg, b->detects));
	}
	assert_null(rng_bad(RNG_BAD_COUNT));
	/* all-zero fails everything */
	assert_int_equal(rng_bad(0)->must_fail, RNGQ_ALL);
}

/* The self-check turns `not ok` when a bad source passes what it must fail. */
static void test_selfcheck_can_fail(void **state)
{
	(void)state;
	const struct rng_bad *lfsr = rng_bad(3);
	struct rng_bad wrong = *lfsr;
	char msg[200];

	assert_string_equal(lfsr->src->name, "bad-lfsr16");
	wrong.must_fail |= RNGQ_BIT(RNGQ_MONOBIT);   /* an m-sequence is balanced */
	assert_false(rng_selfcheck(&wrong, &q, buf, sizeof(buf), msg, sizeof(msg)));
	assert_non_null(strstr(msg, "fips-monobit"));
	assert_null(strstr(msg, "repeat"));
}

/* Bad sources are deterministic and restart on rng_bad_reset(). */
static void test_bad_reset(void **state)
{
	(void)state;
	const struct rng_source *s = rng_bad(2)->src;
	uint8_t a[64], b[64];
	size_t got;

	rng_bad_reset();
	s->read(s, a, sizeof(a), &got);
	s->read(s, b, sizeof(b), &got);
	assert_memory_not_equal(a, b, sizeof(a));
	rng_bad_reset();
	s->read(s, b, sizeof(b), &got);
	assert_memory_equal(a, b, sizeof(a));
}

static void zero_result(struct rngq_result *r, uint64_t bytes)
{
	memset(r, 0, sizeof(*r));
	r->claim_h_micro = RNGQ_CLAIM_FULL;
	r->bytes = bytes;
	r->bits = 8 * bytes;
}

static void test_fips_thresholds(void **state)
{
	(void)state;
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];

	/* python3 fractions: CRITBINOM(1000, 2^-13, 1 - 2^-20) = 4, (1000, 2^-11) = 6,
	 * (1000, 2^-22) = 1 */
	zero_result(&r, 4 + 1000 * 2500);
	r.fips_blocks = 1000;
	r.fips_fail[FIPS_MONOBIT] = 4;
	r.fips_fail[FIPS_RUNS] = 6;
	r.fips_fail[FIPS_CONTINUOUS] = 1;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_MONOBIT].status, RNGQ_PASS);
	assert_int_equal(v[RNGQ_RUNS].status, RNGQ_PASS);
	assert_int_equal(v[RNGQ_CONTINUOUS].status, RNGQ_PASS);
	r.fips_fail[FIPS_MONOBIT] = 5;
	r.fips_fail[FIPS_RUNS] = 7;
	r.fips_fail[FIPS_CONTINUOUS] = 2;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_MONOBIT].status, RNGQ_FAIL);
	assert_int_equal(v[RNGQ_RUNS].status, RNGQ_FAIL);
	assert_int_equal(v[RNGQ_CONTINUOUS].status, RNGQ_FAIL);
	assert_string_equal(v[RNGQ_MONOBIT].reason, "5 of 1000 blocks failed (allowed 4)");
	/* too few blocks: skip */
	r.fips_blocks = RNGQ_MIN_BLOCKS - 1;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_POKER].status, RNGQ_SKIP);
}

static void test_90b_thresholds(void **state)
{
	(void)state;
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];

	/* 2^20 bytes, H = 8: a run of 1 + ceil((20 + 20) / 8) = 6 equal bytes fails */
	zero_result(&r, 1 << 20);
	r.rct_cutoff = 4;
	r.rct_longest = 5;
	r.apt_window = 512;
	r.apt_windows = 100;
	r.apt_alarms = 1;             /* CRITBINOM(100, 2^-20, 1 - 2^-20) = 1 */
	r.markov_micro = 1000000;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_RCT].status, RNGQ_PASS);
	assert_int_equal(v[RNGQ_APT].status, RNGQ_PASS);
	r.rct_longest = 6;
	r.apt_alarms = 2;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_RCT].status, RNGQ_FAIL);
	assert_int_equal(v[RNGQ_APT].status, RNGQ_FAIL);

	/* Markov: claim 8 bits per byte = 1 per bit, tolerance ceil(12.5 / isqrt(2^23)) = 0.004317 */
	r.markov_micro = 995683;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_MARKOV].status, RNGQ_PASS);
	r.markov_micro = 995682;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_MARKOV].status, RNGQ_FAIL);
	/* a lower claim lowers the bar */
	r.claim_h_micro = 7000000;
	rngq_verdicts(&r, v);
	assert_int_equal(v[RNGQ_MARKOV].status, RNGQ_PASS);
}

/*
 * The MCV rule at its boundary: with H = 8 claimed, no byte value may be
 * seen more than CRITBINOM(n, 2^-8, 1 - 2^-28) times (2^-20 over the 256
 * values). Expected limits from python3's decimal module (60 digits),
 * summing the Binomial(n, 1/256) distribution: 1162 for n = 250000 (the
 * default sample), 134 for 20000, 33 for 2500.
 */
static void test_mcv_boundary(void **state)
{
	static const struct { uint64_t n; uint64_t limit; } b[] = { { 250000, 1162 }, { 20000, 134 }, { 2500, 33 } };
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];
	char want[128];
	unsigned i;
	(void)state;

	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		zero_result(&r, b[i].n);
		r.mcv.mode = 0x41;
		r.mcv.mode_count = b[i].limit;
		rngq_verdicts(&r, v);
		assert_int_equal(v[RNGQ_MCV].status, RNGQ_PASS);
		snprintf(want, sizeof(want), "byte 0x41 seen %llu times (limit %llu for H=8",
			 (unsigned long long)b[i].limit, (unsigned long long)b[i].limit);
		assert_non_null(strstr(v[RNGQ_MCV].reason, want));
		r.mcv.mode_count = b[i].limit + 1;
		rngq_verdicts(&r, v);
		assert_int_equal(v[RNGQ_MCV].status, RNGQ_FAIL);
	}
}

static void test_repeat_detector(void **state)
{
	(void)state;
	static uint8_t d[65536];
	struct rng_repeat rep;
	uint64_t s = 7;
	size_t i;

	for (i = 0; i < sizeof(d); i++)
		d[i] = (uint8_t)splitmix64_next(&s);
	rng_repeat_init(&rep);
	rng_repeat_feed(&rep, d, sizeof(d));
	assert_int_equal(rep.hits, 0);

	/* 300 bytes from offset 1000 again at 40007: the aligned windows at 1024
	 * and 1152 lie inside the copy, found 39007 bytes later */
	memcpy(d + 40007, d + 1000, 300);
	rng_repeat_init(&rep);
	for (i = 0; i < sizeof(d); i += 333)   /* in pieces */
		rng_repeat_feed(&rep, d + i, sizeof(d) - i < 333 ? sizeof(d) - i : 333);
	assert_int_equal(rep.hits, 2);
	assert_int_equal(rep.first_hit, 1024 + 39007);
	assert_int_equal(rep.first_dist, 39007);
}

static void test_linear_complexity(void **state)
{
	(void)state;
	uint8_t seg[RNG_LC_BYTES];
	uint64_t s = 99;
	uint16_t lfsr = 0xace1;
	unsigned i, j;

	memset(seg, 0, sizeof(seg));
	assert_int_equal(rng_lc_complexity(seg, RNG_LC_BITS), 0);
	seg[RNG_LC_BYTES - 1] = 1;            /* 0...01: only an LFSR of length n makes it */
	assert_int_equal(rng_lc_complexity(seg, RNG_LC_BITS), RNG_LC_BITS);
	for (i = 0; i < sizeof(seg); i++) {   /* x^16 + x^14 + x^13 + x^11 + 1, Galois form */
		uint8_t v = 0;

		for (j = 0; j < 8; j++) {
			unsigned out = lfsr & 1;

			lfsr = (uint16_t)((lfsr >> 1) ^ (out ? 0xb400u : 0));
			v = (uint8_t)(v << 1 | out);
		}
		seg[i] = v;
	}
	assert_int_equal(rng_lc_complexity(seg, RNG_LC_BITS), 16);
	for (i = 0; i < sizeof(seg); i++)
		seg[i] = (uint8_t)splitmix64_next(&s);
	j = rng_lc_complexity(seg, RNG_LC_BITS);
	assert_true(j >= RNG_LC_BITS / 2 - RNG_LC_MARGIN && j <= RNG_LC_BITS / 2 + RNG_LC_MARGIN);
}

static void test_failed_names(void **state)
{
	(void)state;
	char buf[64], small[20];

	assert_string_equal(rngq_failed_names(buf, sizeof(buf), 0, ","), "");
	assert_string_equal(rngq_failed_names(buf, sizeof(buf),
					      RNGQ_BIT(RNGQ_LINCOMP) | RNGQ_BIT(RNGQ_MONOBIT), ", "),
			    "fips-monobit, linear-complexity");
	/* Too small: cut short, still a string, never past the buffer. */
	memset(small, 'x', sizeof(small));
	rngq_failed_names(small, sizeof(small) - 4, RNGQ_ALL, ",");
	assert_int_equal(strlen(small), sizeof(small) - 5);
	assert_memory_equal(small + sizeof(small) - 4, "xxxx", 4);
}

static void test_report_lines(void **state)
{
	(void)state;
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];
	char line[RNGQ_RECORD_MAX];
	unsigned failed;

	rng_bad_reset();
	rngq_init(&q, RNGQ_CLAIM_FULL);
	rngq_feed_source(&q, rng_bad(0)->src, 50004, buf, sizeof(buf), 0);
	rngq_result(&q, &r);
	failed = rngq_verdicts(&r, v);
	rngq_format_record(line, sizeof(line), "bad-zero", &r, 1234, failed, false, false);
	assert_string_equal(line,
		"@rng source=bad-zero bytes=50004 bytes_per_s=1234 fips_blocks=20 monobit_fail=20 "
		"poker_fail=20 runs_fail=20 longrun_fail=20 continuous_fail=20 mcv_h=0.0000 "
		"markov_h=0.0000 shannon_h=0.0000 chi_square=12751020.00 rct_longest=50004 rct_alarms=1 "
		"apt_max=512 apt_alarms=98 serial_corr=undefined repeats=49876 lc_below=25 lc_min=0 "
		"outside=fips-monobit,fips-poker,fips-runs,fips-long-run,fips-continuous,90b-rct,90b-apt,"
		"90b-mcv,90b-markov,ent-chi-square,ent-serial-correlation,repeat,linear-complexity "
		"claim=full verdict=fail emulated=0");
	/* Every figure fits with a source name of 48 characters. */
	assert_true(rngq_format_record(line, sizeof(line), "0123456789012345678901234567890123456789012345678",
				       &r, 1234567890123ull, failed, false, false) < sizeof(line));
	rngq_format_record(line, sizeof(line), "bad-zero", &r, 1234, failed, true, true);
	assert_non_null(strstr(line, " claim=characterise verdict=info emulated=1"));
	rngq_format_table_header(line, sizeof(line));
	assert_non_null(strstr(line, "H_mcv"));
	rngq_format_table_row(line, sizeof(line), "bad-zero", &r, 1234, failed, false);
	assert_non_null(strstr(line, "fail"));
	rngq_format_table_row(line, sizeof(line), "bad-zero", &r, 1234, failed, true);
	assert_null(strstr(line, "fail"));
	assert_non_null(strstr(line, " info"));
	assert_string_equal(rngq_test_name(RNGQ_LINCOMP), "linear-complexity");
	assert_string_equal(rngq_test_name(RNGQ_TESTS), "?");
	/* A source that delivered nothing: chi-square is undefined, not ent's -nan. */
	rngq_init(&q, RNGQ_CLAIM_FULL);
	rngq_result(&q, &r);
	failed = rngq_verdicts(&r, v);
	rngq_format_record(line, sizeof(line), "dead", &r, 0, failed, true, true);
	assert_non_null(strstr(line, " chi_square=undefined "));
	assert_null(strstr(line, "nan"));
	rngq_format_table_row(line, sizeof(line), "dead", &r, 0, failed, true);
	assert_null(strstr(line, "nan"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_source_passes),
		cmocka_unit_test(test_bad_sources_fail),
		cmocka_unit_test(test_selfcheck_can_fail),
		cmocka_unit_test(test_bad_reset),
		cmocka_unit_test(test_fips_thresholds),
		cmocka_unit_test(test_90b_thresholds),
		cmocka_unit_test(test_mcv_boundary),
		cmocka_unit_test(test_repeat_detector),
		cmocka_unit_test(test_linear_complexity),
		cmocka_unit_test(test_failed_names),
		cmocka_unit_test(test_report_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
