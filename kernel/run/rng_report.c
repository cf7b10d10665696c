/* RNG self-check and per-source statistics. See rng_report.h. */
#include "kernel/run/rng_report.h"

#include <stdbool.h>
#include <stddef.h>

#include "lib/measure/bench_stats.h"
#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "lib/rng/rng_bad.h"
#include "lib/rng/rng_quality.h"
#include "lib/rng/rng_verdict.h"
#include "kernel/platform/exceptions.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/memmap.h"
#include "kernel/run/report.h"
#include "kernel/platform/timer.h"

#define RNG_BUF_BYTES 4096
#define RNG_TICK_BYTES (16u * RNG_BUF_BYTES)   /* bytes between heartbeat checks */

#define ROW_BYTES 200

static struct rngq q;   /* about 72 KB: not on the stack */
static uint8_t *buf;
static char rows[ENGINE_MAX_RNG][ROW_BYTES];   /* the table, printed after the tests */
static unsigned nrows;
static bool verbose;		/* every statistic of a characterised source on its own line */

struct selfcheck_ctx {
	const struct rng_bad *b;
	char msg[256];
};

static bool selfcheck_one(void *p)
{
	struct selfcheck_ctx *c = p;
	return rng_selfcheck(c->b, &q, buf, RNG_BUF_BYTES, c->msg, sizeof(c->msg));
}

static void run_selfcheck(void)
{
	unsigned i;
	char name[160];
	for (i = 0; i < RNG_BAD_COUNT; i++) {
		struct selfcheck_ctx c;
		c.b = rng_bad(i);
		c.msg[0] = '\0';
		fmt_snprintf(name, sizeof(name), "rng self-check: %s %s", c.b->src->name, c.b->detects);
		tap_run(name, selfcheck_one, &c);
		if (c.msg[0])
			tap_diag("  %s", c.msg);
	}
}

struct collect_ctx {
	const struct rng_source *src;
	uint64_t want, got;
	uint64_t cycles;
	int rc;
};

/* The min-entropy per byte a source's statistics are computed at (engine.h). */
static uint32_t claim_of(const struct rng_source *src)
{
	if (src->claim != RNG_CLAIM_CHARACTERISE)
		return RNGQ_CLAIM_FULL;
	return src->claim_h_micro ? src->claim_h_micro : SP90B_MICRO;
}

static bool collect(void *p)
{
	struct collect_ctx *c = p;
	uint64_t t0;
	rngq_init(&q, claim_of(c->src));
	t0 = hw_rdtsc();
	c->got = 0;
	c->rc = 0;
	/* In pieces, so that a slow source still gets a heartbeat line every 10 s. */
	while (c->rc == 0 && c->got < c->want) {
		uint64_t part = c->want - c->got, got = 0;
		if (part > RNG_TICK_BYTES)
			part = RNG_TICK_BYTES;
		c->rc = rngq_feed_source(&q, c->src, part, buf, RNG_BUF_BYTES, &got);
		c->got += got;
		report_tick();
	}
	c->cycles = hw_rdtsc() - t0;
	if (c->rc != 0)
		tap_diag("rng: %s: %s after %llu of %llu bytes", c->src->name,
			 engine_strerror(c->rc), (unsigned long long)c->got,
			 (unsigned long long)c->want);
	return c->rc == 0;
}

static uint64_t bytes_per_s(uint64_t bytes, uint64_t cycles)
{
	if (cycles == 0 || tsc_hz() == 0)
		return 0;
	return bstat_per_second(bytes, cycles, tsc_hz());
}

static void add_row(const struct rng_source *src, const struct rngq_result *r, uint64_t rate,
		    unsigned failed, bool info)
{
	char label[48];

	if (nrows >= ENGINE_MAX_RNG)
		return;
	fmt_snprintf(label, sizeof(label), "%s%s", src->name, engine_emulated(src->name) ? "(emulated)" : "");
	rngq_format_table_row(rows[nrows++], ROW_BYTES, label, r, rate, failed, info);
}

static void collect_guarded(void *p)
{
	collect(p);
}

/* "d.dd" from micro-units, rounded down. */
static void bits_str(char *b, size_t n, uint64_t micro)
{
	fmt_snprintf(b, n, "%llu.%02llu", (unsigned long long)(micro / SP90B_MICRO),
		     (unsigned long long)(micro % SP90B_MICRO / 10000));
}

/*
 * A source without a documented entropy claim (docs/rng-verdict.md): one
 * `#` line naming the statistics outside the bounds of a full-entropy
 * source (verbose: every statistic on its own line, marked information),
 * one `ok` line that says so with the estimates. Only a fault (an
 * exception) is a `not ok`.
 */
static void characterise_source(const struct rng_source *src, uint32_t want)
{
	struct collect_ctx c = { src, want, 0, 0, 0 };
	struct fault_info fi;
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];
	char line[RNGQ_RECORD_MAX], claim[16], mcv[16], mkv[16], name[96], note[200];
	unsigned t, failed;
	uint64_t rate;
	bool supported;

	fmt_snprintf(name, sizeof(name), "rng: %s characterised", src->name);
	bits_str(claim, sizeof(claim), claim_of(src));
	tap_diag("rng: %s: information only, no pass/fail rule: %s; statistics at an assessment claim of %s bits/byte",
		 src->name, src->claim_why ? src->claim_why : "no documented entropy claim", claim);
	if (!report_selected(name)) {
		tap_skip("not selected by only=", "%s", name);
		return;
	}
	if (!guard_run(name, collect_guarded, &c, &fi)) {
		tap_result(false, "%s # fault: %s at EIP %08x", name, exc_mnemonic(fi.vector), fi.eip);
		return;
	}
	rngq_result(&q, &r);
	failed = rngq_verdicts(&r, v);
	rate = bytes_per_s(c.got, c.cycles);
	if (verbose) {
		for (t = 0; t < RNGQ_TESTS; t++) {
			const char *test = rngq_test_name((enum rngq_test)t);
			if (v[t].status == RNGQ_FAIL)
				tap_diag("rng: %s %s: outside its bound (%s) [information]", src->name, test,
					 v[t].reason);
			else if (v[t].status == RNGQ_SKIP)
				tap_diag("rng: %s %s: skip (%s) [information]", src->name, test, v[t].reason);
			else
				tap_diag("rng: %s %s: within its bound (%s) [information]", src->name, test,
					 v[t].reason);
		}
	} else {
		rngq_failed_names(line, sizeof(line), failed, " ");
		tap_diag("rng: %s: outside the bounds of a full-entropy source (information): %s",
			 src->name, line[0] ? line : "none");
	}
	bits_str(mcv, sizeof(mcv), r.mcv.h_micro);
	bits_str(mkv, sizeof(mkv), (uint64_t)r.markov_micro * 8);
	supported = r.bytes >= 2 && r.mcv.h_micro >= claim_of(src);
	/* The note, one whole clause at a time. */
	fmt_snprintf(note, sizeof(note), "information only: %llu of %u bytes", (unsigned long long)c.got,
		     (unsigned)want);
	if (c.rc)
		fmt_append(note, sizeof(note), ", stopped: %s", engine_strerror(c.rc));
	fmt_append(note, sizeof(note), ", %llu bytes/s, min-entropy H_mcv=%s H_markov=%s bits/byte",
		   (unsigned long long)rate, mcv, mkv);
	if (supported)
		fmt_append(note, sizeof(note), ", supports the %s-bit assessment claim", claim);
	else
		fmt_append(note, sizeof(note), ", does not support the %s-bit assessment claim", claim);
	if (engine_emulated(src->name))
		fmt_append(note, sizeof(note), ", emulated");
	tap_result(true, "%s (%s)", name, note);
	add_row(src, &r, rate, failed, true);
	rngq_format_record(line, sizeof(line), src->name, &r, rate, failed, true,
			   engine_emulated(src->name));
	tap_diag("%s", line);
}

static void judge_source(const struct rng_source *src, uint32_t want)
{
	struct collect_ctx c = { src, want, 0, 0, 0 };
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];
	char line[RNGQ_RECORD_MAX];
	unsigned t, failed;
	uint64_t rate;

	if (engine_emulated(src->name))
		fmt_snprintf(line, sizeof(line), "rng: %s delivers %u bytes (emulated)", src->name,
			     (unsigned)want);
	else
		fmt_snprintf(line, sizeof(line), "rng: %s delivers %u bytes", src->name, (unsigned)want);
	if (!tap_run(line, collect, &c))
		return;
	rngq_result(&q, &r);
	failed = rngq_verdicts(&r, v);
	rate = bytes_per_s(c.got, c.cycles);
	for (t = 0; t < RNGQ_TESTS; t++) {
		bool is_fail = v[t].status == RNGQ_FAIL;
		if (src->known_bad) {
			/* A test mode: each result is informational, the verdict below counts. */
			tap_diag("rng: %s %s: %s (%s)", src->name, rngq_test_name((enum rngq_test)t),
				 is_fail ? "fail" : v[t].status == RNGQ_SKIP ? "skip" : "pass",
				 v[t].reason);
			continue;
		}
		if (v[t].status == RNGQ_SKIP)
			tap_skip(v[t].reason, "rng: %s %s", src->name, rngq_test_name((enum rngq_test)t));
		else if (is_fail)
			tap_result(false, "rng: %s %s (%s)", src->name,
				   rngq_test_name((enum rngq_test)t), v[t].reason);
		else	/* the figures are in the @rng record below */
			tap_result(true, "rng: %s %s", src->name, rngq_test_name((enum rngq_test)t));
	}
	if (src->known_bad)
		tap_result(failed > 0, "rng: %s is a known-bad test mode and the statistics flag it (%u tests fail)",
			   src->name, failed);
	if (failed && !src->known_bad)		/* the source, its claim and every statistic outside it */
		tap_diag("rng: %s fails its full-entropy claim (8 bits/byte) on: %s", src->name,
			 rngq_failed_names(line, sizeof(line), failed, ", "));
	add_row(src, &r, rate, failed, false);
	rngq_format_record(line, sizeof(line), src->name, &r, rate, failed, false,
			   engine_emulated(src->name));
	tap_diag("%s", line);
}

void rng_report_run(uint32_t rng_bytes, bool v)
{
	unsigned i;
	char line[320];
	uint32_t want = rng_bytes ? rng_bytes : RNG_DEFAULT_BYTES;

	verbose = v;

	buf = mem_alloc(RNG_BUF_BYTES, 16);
	if (!buf) {
		report_subject(NULL, RSUM_RNG);
		tap_result(false, "rng: buffer of %u bytes allocated", RNG_BUF_BYTES);
		report_subject(NULL, RSUM_PROBE);
		return;
	}
	run_selfcheck();
	if (engine_rng_count() == 0) {
		report_subject(NULL, RSUM_RNG);
		tap_skip("no RNG source registered on this machine", "rng: statistics");
		report_subject(NULL, RSUM_PROBE);
		return;
	}
	tap_diag("rng: %u bytes per source; sources with a full-entropy claim (8 bits per byte) are judged, the others characterised (information); rules in docs/rng-verdict.md",
		 (unsigned)want);
	nrows = 0;
	for (i = 0; i < engine_rng_count(); i++) {
		report_subject(engine_rng(i)->name, RSUM_RNG);
		if (engine_rng(i)->claim == RNG_CLAIM_CHARACTERISE)
			characterise_source(engine_rng(i), want);
		else
			judge_source(engine_rng(i), want);
		report_subject(NULL, RSUM_PROBE);
	}
	tap_diag("rng: summary (bytes/s elapsed; FIPS 140-2 blocks passed per test; min-entropy per byte):");
	rngq_format_table_header(line, sizeof(line));
	tap_diag("%s", line);
	for (i = 0; i < nrows; i++)
		tap_diag("%s", rows[i]);
}
