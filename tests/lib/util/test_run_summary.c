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

/* The row and column are the caller's: the name is never read for them. */
static void classify(void **state)
{
	(void)state;
	rsum_init(&s);
	/* A name that says kat and geode-sb counts where the caller says. */
	rsum_result(&s, 1, false, false, "kat: geode-sb aes-128-ecb encrypt", "padlock", RSUM_RNG);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.e[0].name, "padlock");
	assert_int_equal(s.e[0].c[RSUM_RNG].not_ok, 1);
	assert_int_equal(s.e[0].c[RSUM_KAT].not_ok, 0);
	/* A source's "/variant" is cut: one row per engine. */
	rsum_result(&s, 2, true, false, "x", "geode-trng/tsel0", RSUM_RNG);
	rsum_result(&s, 3, true, false, "y", "geode-trng/tsel2", RSUM_PROBE);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.e[1].name, "geode-trng");
	assert_int_equal(s.e[1].c[RSUM_RNG].ok, 1);
	assert_int_equal(s.e[1].c[RSUM_PROBE].ok, 1);
	/* No engine: the platform's row; a column out of range: the probe column. */
	rsum_result(&s, 4, true, true, "geode-sb: probe", NULL, RSUM_XCHECK);
	rsum_result(&s, 5, true, false, "z", "", (enum rsum_col)99);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.e[2].name, "platform");
	assert_int_equal(s.e[2].c[RSUM_XCHECK].skip, 1);
	assert_int_equal(s.e[2].c[RSUM_PROBE].ok, 1);
	/* Hostile: an endless engine name is cut, never overflows. */
	rsum_result(&s, 6, true, false, "w", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", RSUM_KAT);
	assert_int_equal(strlen(s.e[3].name), RSUM_NAME - 1);
}

static void rows_failures_and_bound(void **state)
{
	unsigned i, n;
	char name[64];
	(void)state;
	rsum_init(&s);
	rsum_result(&s, 1, true, false, "cpu: CPUID identity decoded", NULL, RSUM_PROBE);
	rsum_result(&s, 2, true, true, "kat: aesni (AES-NI engine)", "aesni", RSUM_KAT);
	rsum_result(&s, 3, true, false, "kat: geode-sb aes-128-ecb encrypt", "geode-sb", RSUM_KAT);
	rsum_result(&s, 4, false, false, "geode-sb: DMA engine timeout", "geode-sb", RSUM_PROBE);
	rsum_result(&s, 5, false, false, "geode-sb: a very long name that goes on and on past the end of the screen line", "geode-sb",
		    RSUM_PROBE);
	rsum_speed(&s, "software", 18000000, 18000000, false, false);
	rsum_speed(&s, "geode-sb", 15300000, 18000000, false, true);
	rsum_stage(&s, "kat", 31);
	n = format();
	assert_int_equal(n, nout);
	assert_non_null(find("summary: geode-sb       0/2    1/1"));
	/* openssl speed's k (1000 bytes/s), '*' for a device model's figure */
	assert_non_null(strstr(find("summary: geode-sb "), "15300.00k*  0.85x FAIL"));
	assert_non_null(strstr(find("summary: software "), "18000.00k   ref   skip"));
	assert_non_null(find("summary: * measured on an emulated device model"));
	assert_non_null(find("summary: k@8KiB: 1000s of bytes/s, as openssl speed: aes-128-cbc"));
	assert_non_null(find("summary: absent or skipped: aesni"));
	/* The first failure: its line has one ": ", so it is its own reason. */
	assert_non_null(find("summary: first failure: geode-sb: DMA engine timeout"));
	assert_non_null(find("summary:   in not ok 4 - geode-sb: DMA engine timeout (row geode-sb)"));
	assert_non_null(find("summary: next: docs/troubleshooting.md, row `geode-sb:`, then run again"));
	assert_non_null(find("summary: run 52.3 s; kat 3.1"));
	assert_string_equal(out[nout - 1], "summary: 6 tests: 1 ok, 2 not ok, 3 skipped");
	assert_non_null(find("summary: not ok 5 - geode-sb: a very long name that goes on and on past th..."));

	/* Many engines and many failures: still at most RSUM_MAX_LINES lines. */
	for (i = 0; i < 40; i++) {
		char engine[16];
		snprintf(name, sizeof(name), "kat: engine%u aes-128-ecb encrypt", i);
		snprintf(engine, sizeof(engine), "engine%u", i);
		rsum_result(&s, 10 + i, false, false, name, engine, RSUM_KAT);
		rsum_stage(&s, "a-long-stage-name", 12345);
	}
	n = format();
	assert_true(n <= RSUM_MAX_LINES);
	assert_non_null(find("summary: ... and "));
	assert_non_null(strstr(find("summary: ... and "), "more engines"));
	assert_non_null(find("summary: ... and 38 more not ok"));	/* 42 failures, 4 named */
}

/* The box line, the reason first and wrapped, a row for every present engine. */
static void box_reason_rows(void **state)
{
	static const char *const engines[] = { "padlock-ace", "padlock-phe", "padlock-xstore", "padlock-pmm",
					       "software" };
	static const char *const absent[] = { "geode-sb", "geode-trng", "aesni", "rdrand", "rdseed" };
	unsigned i;
	(void)state;
	rsum_init(&s);
	rsum_box(&s, "SN-0042", "VIA EPIA", "4.6.4", "v1.2");
	rsum_result(&s, 1, true, false, "cpu: CPUID identity decoded", NULL, RSUM_PROBE);
	/* Absent engines first: on a C7 they must not push PHE or xstore into "other". */
	for (i = 0; i < 5; i++)
		rsum_result(&s, 2 + i, true, true, absent[i], absent[i], RSUM_PROBE);
	for (i = 0; i < 5; i++)
		rsum_result(&s, 10 + i, true, false, engines[i], engines[i], RSUM_KAT);
	rsum_result(&s, 20, false, false,
		    "padlock-xstore: xstore divisor 3 delivers 250000 bytes: the byte count in EAX stayed 0 for "
		    "4096 stores in a row (MSR 0x110B=0x00000040), the source has stopped delivering",
		    "padlock-xstore", RSUM_RNG);
	format();
	assert_string_equal(out[0], "summary: box SN-0042 (VIA EPIA; BIOS 4.6.4; image v1.2)");
	for (i = 0; i < 5; i++) {
		char p[40];
		snprintf(p, sizeof(p), "summary: %-14s ", engines[i]);
		assert_non_null(find(p));
	}
	assert_null(find("summary: other "));
	/* Reason first (after the test's name), wrapped over lines, not cut before the cause. */
	assert_non_null(find("summary: first failure: the byte count in EAX stayed 0 for 4096"));
	assert_non_null(find("summary:   "));
	{
		char all[3 * RSUM_LINE] = "";
		for (i = 0; i < nout; i++)
			if (strncmp(out[i], "summary: first failure: ", 24) == 0 ||
			    (strncmp(out[i], "summary:   ", 11) == 0 && strncmp(out[i], "summary:   in ", 14) != 0))
				strcat(all, out[i]);
		assert_non_null(strstr(all, "has stopped delivering"));
	}
	assert_non_null(find("summary:   in not ok 20 - padlock-xstore: xstore divisor 3"));
	assert_non_null(find("summary: next: docs/troubleshooting.md, row `padlock-xstore:`"));
	assert_true(nout <= RSUM_MAX_LINES);
}

/*
 * A failing test whose name carries no reason (a KAT): its first detail line
 * is the reason on the last screen, and its test line is wrapped, not cut.
 * Only the first detail right after the first failure counts.
 */
static void failure_detail(void **state)
{
	unsigned i;
	char all[4 * RSUM_LINE] = "";
	(void)state;
	rsum_init(&s);
	rsum_detail(&s, "before any failure: not kept");
	rsum_result(&s, 1, true, false, "cpu: CPUID identity decoded", NULL, RSUM_PROBE);
	rsum_detail(&s, "after an ok: not kept");
	rsum_result(&s, 64, false, false, "kat: padlock-ace aes-128-ecb encrypt", "padlock-ace", RSUM_KAT);
	rsum_detail(&s, "vector C.1 block 1: expected 69c4e0d86a7b0430d8cdb78070b4c55a got "
		    "69c4e0d86a7b0430d8cdb78070b4c55b");
	rsum_detail(&s, "vector F.1.1 block 4: the second detail is not the reason");
	rsum_result(&s, 65, false, false, "kat: padlock-ace aes-128-ecb decrypt", "padlock-ace", RSUM_KAT);
	rsum_detail(&s, "a detail of the second failure");
	format();
	assert_non_null(find("summary: first failure: vector C.1 block 1: expected"));
	for (i = 0; i < nout; i++) {
		assert_null(strstr(out[i], "not kept"));
		assert_null(strstr(out[i], "second detail"));
		assert_null(strstr(out[i], "of the second failure"));
		/* The reason and the test line, joined as one text: nothing cut. */
		if (strncmp(out[i], "summary:   ", 11) == 0 || strncmp(out[i], "summary: first failure: ", 24) == 0) {
			strcat(all, " ");
			strcat(all, out[i] + (out[i][9] == 'f' ? 24 : 11));
			assert_null(strstr(out[i], "..."));
		}
	}
	assert_non_null(strstr(all, "got 69c4e0d86a7b0430d8cdb78070b4c55b"));
	assert_non_null(find("summary:   in not ok 64 - kat: padlock-ace aes-128-ecb encrypt"));
	assert_non_null(strstr(all, "(row padlock-ace)"));
	assert_non_null(find("summary: not ok 65 - kat: padlock-ace aes-128-ecb decrypt"));
	assert_true(nout <= RSUM_MAX_LINES);

	/* A name with its own reason keeps it; the detail is not used. */
	rsum_init(&s);
	rsum_result(&s, 4, false, false, "geode-sb: AES through DMA: DMA engine timeout", "geode-sb", RSUM_PROBE);
	rsum_detail(&s, "a detail line");
	format();
	assert_non_null(find("summary: first failure: DMA engine timeout"));
	/* Its test line names the test without repeating the reason just shown. */
	assert_non_null(find("summary:   in not ok 4 - geode-sb: AES through DMA (row geode-sb)"));
	for (i = 0; i < nout; i++)
		assert_null(strstr(out[i], "a detail line"));
}

/* The soak line: every pass's verdict in runs, the worst first, on one screen line. */
static void soak_passes(void **state)
{
	unsigned p;
	(void)state;
	rsum_init(&s);
	rsum_result(&s, 1, true, false, "cpu: CPUID identity decoded", NULL, RSUM_PROBE);
	format();
	assert_null(find("summary: soak "));	/* no soak, no line */
	for (p = 1; p <= 3; p++)
		rsum_soak(&s, p, 0);
	format();
	assert_non_null(find("summary: soak 3 passes, every pass passed: 1-3 pass"));
	rsum_init(&s);
	for (p = 1; p <= 40; p++)
		rsum_soak(&s, p, p == 18 ? 2 : p == 30 ? 1 : 0);
	format();
	assert_non_null(find("summary: soak 40 passes, worst 18 (2 not ok): 1-17 pass, 18 FAIL, 19-29 p"));
	assert_non_null(strstr(find("summary: soak "), "..."));
	rsum_init(&s);
	for (p = 1; p <= 40; p++)
		rsum_soak(&s, p, p == 18 ? 2 : 0);
	format();
	assert_non_null(find("summary: soak 40 passes, worst 18 (2 not ok): 1-17 pass, 18 FAIL, 19-40 pass"));
	/* Alternating verdicts: the list is cut at the screen's width, the worst stays. */
	rsum_init(&s);
	for (p = 1; p <= RSUM_SOAK_KEPT + 5; p++)
		rsum_soak(&s, p, p % 2);
	format();
	assert_non_null(find("summary: soak 261 passes, worst 1 (1 not ok): 1 FAIL, 2 pass, 3 FAIL"));
	assert_non_null(strstr(find("summary: soak "), "..."));
	assert_true(nout <= RSUM_MAX_LINES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify),
		cmocka_unit_test(failure_detail),
		cmocka_unit_test(rows_failures_and_bound),
		cmocka_unit_test(box_reason_rows),
		cmocka_unit_test(soak_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
