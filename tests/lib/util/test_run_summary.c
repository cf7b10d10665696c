/* Unit tests for lib/util/run_summary.c: the last screen of the report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/util/run_summary.h"

static struct rsum s;
static char out[40][RSUM_LINE];
static unsigned nout;

static void collect(void *ctx, const char *text)
{
	(void)ctx;
	assert_true(strlen(text) < RSUM_LINE);
	assert_true(strlen(text) <= 77);	/* with "# ": one 80-column screen line */
	assert_null(strchr(text, '\n'));
	assert_true(nout < 40);
	strcpy(out[nout++], text);
}

static unsigned format(void)
{
	nout = 0;
	return rsum_format(&s, "52.3", 1, 2, 3, collect, NULL);
}

static const char *find(const char *prefix)
{
	unsigned i;
	for (i = 0; i < nout; i++)
		if (strncmp(out[i], prefix, strlen(prefix)) == 0)
			return out[i];
	return NULL;
}

static void classify(void **state)
{
	char e[RSUM_NAME];
	enum rsum_col c;
	(void)state;
	rsum_classify("kat: geode-sb aes-128-ecb encrypt (FIPS-197 C.1)", e, sizeof(e), &c);
	assert_string_equal(e, "geode-sb");
	assert_int_equal(c, RSUM_KAT);
	rsum_classify("crosscheck: padlock aes-128-cbc decrypt vs software", e, sizeof(e), &c);
	assert_string_equal(e, "padlock");
	assert_int_equal(c, RSUM_XCHECK);
	rsum_classify("rng: geode-trng/tsel0 fips-monobit (0 of 99)", e, sizeof(e), &c);
	assert_string_equal(e, "geode-trng");
	assert_int_equal(c, RSUM_RNG);
	rsum_classify("geode-sb: DMA guard bytes intact", e, sizeof(e), &c);
	assert_string_equal(e, "geode-sb");
	assert_int_equal(c, RSUM_PROBE);
	rsum_classify("geode-trng/tsel2: throughput", e, sizeof(e), &c);
	assert_string_equal(e, "geode-trng");
	rsum_classify("pci: configuration mechanism \\#1 answers", e, sizeof(e), &c);
	assert_string_equal(e, "platform");
	rsum_classify("rng self-check: bad-zero detects stuck source", e, sizeof(e), &c);
	assert_string_equal(e, "platform");
	rsum_classify("crosscheck: hardware AES engines vs software", e, sizeof(e), &c);
	assert_string_equal(e, "platform");
	rsum_classify("no colon at all", e, sizeof(e), &c);
	assert_string_equal(e, "platform");
	/* Hostile: an endless engine word is cut, never overflows. */
	rsum_classify("kat: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x", e, sizeof(e), &c);
	assert_int_equal(strlen(e), RSUM_NAME - 1);
	rsum_classify(": x", e, sizeof(e), &c);
	assert_string_equal(e, "platform");
}

static void rows_failures_and_bound(void **state)
{
	unsigned i, n;
	char name[64];
	(void)state;
	rsum_init(&s);
	rsum_result(&s, 1, true, false, "cpu: CPUID identity decoded");
	rsum_result(&s, 2, true, true, "kat: aesni (AES-NI engine)");
	rsum_result(&s, 3, true, false, "kat: geode-sb aes-128-ecb encrypt");
	rsum_result(&s, 4, false, false, "geode-sb: DMA engine timeout");
	rsum_result(&s, 5, false, false, "geode-sb: a very long name that goes on and on past the end of the screen line");
	rsum_speed(&s, "software", 18000000, 18000000, false);
	rsum_speed(&s, "geode-sb", 15300000, 18000000, false);
	rsum_stage(&s, "kat", 31);
	n = format();
	assert_int_equal(n, nout);
	assert_non_null(find("summary: geode-sb    0/2     1/1"));
	assert_non_null(strstr(find("summary: geode-sb "), "15300000  0.85x FAIL"));
	assert_non_null(find("summary: absent or skipped: aesni"));
	assert_non_null(find("summary: not ok 4 - geode-sb: DMA engine timeout"));
	assert_non_null(find("summary: run 52.3 s; kat 3.1"));
	assert_string_equal(out[nout - 1], "summary: 6 tests: 1 ok, 2 not ok, 3 skipped");
	assert_non_null(find("summary: not ok 5 - geode-sb: a very long name that goes on and on past th..."));

	/* Many engines and many failures: still at most RSUM_MAX_LINES lines. */
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "kat: engine%u aes-128-ecb encrypt", i);
		rsum_result(&s, 10 + i, false, false, name);
		rsum_stage(&s, "a-long-stage-name", 12345);
	}
	n = format();
	assert_true(n <= RSUM_MAX_LINES);
	assert_non_null(find("summary: other "));
	assert_non_null(find("summary: ... and 35 more not ok"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify),
		cmocka_unit_test(rows_failures_and_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
