/* rng_verdict: per-test verdicts and report lines for RNG sources. See rng_verdict.h. */
#include "lib/rng/rng_verdict.h"

#include <stdarg.h>

#include "lib/measure/fixmath.h"
#include "lib/util/fmt.h"

typedef unsigned long long ull;

static const char *const names[RNGQ_TESTS] = {
	"fips-monobit", "fips-poker", "fips-runs", "fips-long-run", "fips-continuous",
	"90b-rct", "90b-apt", "90b-mcv", "90b-markov",
	"ent-chi-square", "ent-serial-correlation", "repeat", "linear-complexity",
};

const char *rngq_test_name(enum rngq_test t)
{
	return (unsigned)t < RNGQ_TESTS ? names[t] : "?";
}

char *rngq_failed_names(char *buf, size_t n, unsigned failed, const char *sep)
{
	size_t k = 0;
	unsigned t;

	if (n)
		buf[0] = '\0';
	for (t = 0; t < RNGQ_TESTS; t++)
		if (failed & RNGQ_BIT(t) && k < n)
			k += fmt_snprintf(buf + k, n - k, "%s%s", k ? sep : "", names[t]);
	return buf;
}

/* "d.dddddd" from micro-units. */
static void micro_str(char *buf, size_t n, uint64_t micro)
{
	fmt_snprintf(buf, n, "%llu.%06llu", (ull)(micro / SP90B_MICRO), (ull)(micro % SP90B_MICRO));
}

/* 2^-log2 as a 64-bit binary fraction. */
static uint64_t pow2_neg(unsigned log2)
{
	return (uint64_t)1 << (64 - log2);
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static unsigned ceil_log2(uint64_t v)
{
	unsigned n = 0;

	if (v <= 1)
		return 0;
	v--;
	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/*
 * The failures a good source exceeds with P <= 2^-RNGQ_BETA_LOG2 among n
 * trials that each fail with P = 2^-p_log2.
 */
static uint32_t allowed_failures(uint64_t n, unsigned p_log2)
{
	return fx_critbinom(clamp32(n), pow2_neg(p_log2), RNGQ_BETA_LOG2);
}

static void set(struct rngq_verdict *v, enum rngq_status s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set(struct rngq_verdict *v, enum rngq_status s, const char *fmt, ...)
{
	va_list ap;

	v->status = s;
	va_start(ap, fmt);
	fmt_vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

static const unsigned fips_p_log2[FIPS_TESTS] = {
	RNGQ_P_MONOBIT_LOG2, RNGQ_P_POKER_LOG2, RNGQ_P_RUNS_LOG2, RNGQ_P_LONG_RUN_LOG2,
	RNGQ_P_CONTINUOUS_LOG2,
};

static void fips_rule(const struct rngq_result *r, unsigned t, struct rngq_verdict *v)
{
	uint32_t allowed;

	if (r->fips_blocks < RNGQ_MIN_BLOCKS) {
		set(v, RNGQ_SKIP, "%llu FIPS blocks, need %u", (ull)r->fips_blocks, RNGQ_MIN_BLOCKS);
		return;
	}
	allowed = allowed_failures(r->fips_blocks, fips_p_log2[t]);
	set(v, r->fips_fail[t] > allowed ? RNGQ_FAIL : RNGQ_PASS,
	    "%llu of %llu blocks failed (allowed %u)", (ull)r->fips_fail[t], (ull)r->fips_blocks,
	    allowed);
}

static void rct_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	uint32_t limit, allowed;

	if (r->bytes < 2) {
		set(v, RNGQ_SKIP, "%llu samples", (ull)r->bytes);
		return;
	}
	/* the RCT cutoff for alpha = 2^-20 / N: no run that long in the whole sample */
	limit = sp90b_rct_cutoff(r->claim_h_micro, RNGQ_BETA_LOG2 + ceil_log2(r->bytes));
	allowed = allowed_failures(r->bytes, SP90B_ALPHA_LOG2);
	set(v, r->rct_longest >= limit || r->rct_alarms > allowed ? RNGQ_FAIL : RNGQ_PASS,
	    "longest run %llu (limit %u), %llu alarms at cutoff %u (allowed %u)",
	    (ull)r->rct_longest, limit, (ull)r->rct_alarms, r->rct_cutoff, allowed);
}

static void apt_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	uint32_t allowed;

	if (r->apt_windows == 0) {
		set(v, RNGQ_SKIP, "no complete window of %u samples", r->apt_window);
		return;
	}
	allowed = allowed_failures(r->apt_windows, SP90B_ALPHA_LOG2);
	set(v, r->apt_alarms > allowed ? RNGQ_FAIL : RNGQ_PASS,
	    "%llu of %llu windows reached %u (allowed %u), largest count %u",
	    (ull)r->apt_alarms, (ull)r->apt_windows, r->apt_cutoff, allowed, r->apt_max);
}

static void mcv_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	char h[16], claim[16];
	uint32_t limit;

	if (r->bytes < 2) {
		set(v, RNGQ_SKIP, "%llu samples", (ull)r->bytes);
		return;
	}
	/* P(some byte value exceeds it) <= 256 * 2^-28 = 2^-20 when every p <= 2^-H */
	limit = fx_critbinom(clamp32(r->bytes), fx_exp2_neg_micro(r->claim_h_micro),
			     RNGQ_BETA_LOG2 + 8);
	micro_str(h, sizeof(h), r->mcv.h_micro);
	micro_str(claim, sizeof(claim), r->claim_h_micro);
	set(v, r->mcv.mode_count > limit ? RNGQ_FAIL : RNGQ_PASS,
	    "H=%s bits/byte, byte 0x%02x seen %llu times (limit %u for H=%s)", h, r->mcv.mode,
	    (ull)r->mcv.mode_count, limit, claim);
}

static void markov_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	char h[16], lim[16];
	uint64_t claim = r->claim_h_micro / 8, root, tol, limit;
	struct fx128 bits = fx128_from(r->bits);

	if (r->bits < 2) {
		set(v, RNGQ_SKIP, "%llu bits", (ull)r->bits);
		return;
	}
	if (claim > SP90B_MICRO)
		claim = SP90B_MICRO;
	root = fx128_isqrt_ref(&bits);
	tol = (RNGQ_MARKOV_TOL_MICRO + root - 1) / root;
	limit = claim > tol ? claim - tol : 0;
	micro_str(h, sizeof(h), r->markov_micro);
	micro_str(lim, sizeof(lim), limit);
	set(v, r->markov_micro < limit ? RNGQ_FAIL : RNGQ_PASS, "H=%s bits/bit (limit %s)", h,
	    lim);
}

static void chisq_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	char x[32];
	int64_t c;

	if (r->bytes < RNGQ_MIN_CHISQ_BYTES) {
		set(v, RNGQ_SKIP, "%llu bytes, need %u", (ull)r->bytes, RNGQ_MIN_CHISQ_BYTES);
		return;
	}
	c = ent_micro(&r->ent, ENT_CHISQ);
	ent_fmt(&r->ent, ENT_CHISQ, 2, x, sizeof(x));
	set(v, c < RNGQ_CHISQ_LO_MICRO || c > RNGQ_CHISQ_HI_MICRO ? RNGQ_FAIL : RNGQ_PASS,
	    "chi-square %s (255 degrees of freedom, bounds 159.22 .. 381.40)", x);
}

static void scc_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	char x[32];
	int64_t s;
	uint64_t a;
	struct fx128 sq;

	if (r->bytes < RNGQ_MIN_CHISQ_BYTES) {
		set(v, RNGQ_SKIP, "%llu bytes, need %u", (ull)r->bytes, RNGQ_MIN_CHISQ_BYTES);
		return;
	}
	if (!r->ent.scc_defined) {
		set(v, RNGQ_FAIL, "undefined: all %llu bytes are equal", (ull)r->bytes);
		return;
	}
	s = ent_micro(&r->ent, ENT_SCC);
	a = s < 0 ? (uint64_t)-s : (uint64_t)s;
	ent_fmt(&r->ent, ENT_SCC, 6, x, sizeof(x));
	/* |scc| > z / sqrt(n)  <=>  scc^2 n > z^2 (in micro-units: * 10^12) */
	_Static_assert(RNGQ_SCC_Z <= 4000, "z^2 * 10^12 must fit 64 bits");
	sq = fx128_mul(a, a);
	fx128_mul128_ref(&sq, &sq, r->bytes);
	set(v, fx128_cmp(sq, fx128_from((uint64_t)RNGQ_SCC_Z * RNGQ_SCC_Z * 1000000000000ull)) > 0 ?
		       RNGQ_FAIL : RNGQ_PASS,
	    "serial correlation %s over %llu bytes (limit %u / sqrt(n))", x, (ull)r->bytes,
	    RNGQ_SCC_Z);
}

static void repeat_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	if (r->bytes < 2 * RNG_REPEAT_WINDOW) {
		set(v, RNGQ_SKIP, "%llu bytes, need %u", (ull)r->bytes, 2 * RNG_REPEAT_WINDOW);
		return;
	}
	if (r->repeat_hits < RNG_REPEAT_MIN_HITS) {
		set(v, RNGQ_PASS, "%llu repeated %u-byte windows", (ull)r->repeat_hits,
		    RNG_REPEAT_WINDOW);
		return;
	}
	set(v, RNGQ_FAIL, "%llu repeated %u-byte windows, first at byte %llu, %llu bytes after its copy",
	    (ull)r->repeat_hits, RNG_REPEAT_WINDOW, (ull)r->repeat_first, (ull)r->repeat_dist);
}

static void lincomp_rule(const struct rngq_result *r, struct rngq_verdict *v)
{
	if (r->lc_tested == 0) {
		set(v, RNGQ_SKIP, "no complete %u-bit segment", RNG_LC_BITS);
		return;
	}
	set(v, r->lc_failed ? RNGQ_FAIL : RNGQ_PASS,
	    "%llu of %llu segments below %u (lowest complexity %u of %u bits)",
	    (ull)r->lc_failed, (ull)r->lc_tested, RNG_LC_BITS / 2 - RNG_LC_MARGIN, r->lc_min,
	    RNG_LC_BITS);
}

unsigned rngq_verdicts(const struct rngq_result *r, struct rngq_verdict v[RNGQ_TESTS])
{
	unsigned t, failed = 0;

	for (t = 0; t < FIPS_TESTS; t++)
		fips_rule(r, t, &v[RNGQ_MONOBIT + t]);
	rct_rule(r, &v[RNGQ_RCT]);
	apt_rule(r, &v[RNGQ_APT]);
	mcv_rule(r, &v[RNGQ_MCV]);
	markov_rule(r, &v[RNGQ_MARKOV]);
	chisq_rule(r, &v[RNGQ_CHISQ]);
	scc_rule(r, &v[RNGQ_SCC]);
	repeat_rule(r, &v[RNGQ_REPEAT]);
	lincomp_rule(r, &v[RNGQ_LINCOMP]);
	for (t = 0; t < RNGQ_TESTS; t++)
		if (v[t].status == RNGQ_FAIL)
			failed |= RNGQ_BIT(t);
	return failed;
}

/* ---- report lines ---- */

/* micro-units to `decimals` places (<= 6), rounded half up */
static void micro_dec(char *buf, size_t n, uint64_t micro, unsigned decimals)
{
	static const uint32_t scale[7] = { 1000000, 100000, 10000, 1000, 100, 10, 1 };
	uint64_t v = (micro + scale[decimals] / 2) / scale[decimals];
	uint32_t p = SP90B_MICRO / scale[decimals];

	if (decimals == 0)
		fmt_snprintf(buf, n, "%llu", (ull)v);
	else
		fmt_snprintf(buf, n, "%llu.%0*llu", (ull)(v / p), (int)decimals, (ull)(v % p));
}

/* ent's chi-square with 2 decimals, or "undefined" for a source that delivered no bytes (ent prints -nan). */
static void chisq_text(const struct rngq_result *r, char *buf, size_t n)
{
	if (r->ent.n == 0)
		fmt_snprintf(buf, n, "undefined");
	else
		ent_fmt(&r->ent, ENT_CHISQ, 2, buf, n);
}

size_t rngq_format_record(char *buf, size_t n, const char *source, const struct rngq_result *r,
			  uint64_t bytes_per_s, unsigned failed, bool info, bool emulated)
{
	char mcv[16], markov[16], shannon[16], chisq[32], scc[32], outside[RNGQ_TESTS * 24];

	micro_dec(mcv, sizeof(mcv), r->mcv.h_micro, 4);
	micro_dec(markov, sizeof(markov), (uint64_t)r->markov_micro * 8, 4);
	ent_fmt(&r->ent, ENT_ENTROPY, 4, shannon, sizeof(shannon));
	chisq_text(r, chisq, sizeof(chisq));
	if (r->ent.scc_defined)
		ent_fmt(&r->ent, ENT_SCC, 6, scc, sizeof(scc));
	else
		fmt_snprintf(scc, sizeof(scc), "undefined");
	rngq_failed_names(outside, sizeof(outside), failed, ",");
	return fmt_snprintf(buf, n,
			    "@rng source=%s bytes=%llu bytes_per_s=%llu fips_blocks=%llu "
			    "monobit_fail=%llu poker_fail=%llu runs_fail=%llu longrun_fail=%llu "
			    "continuous_fail=%llu mcv_h=%s markov_h=%s shannon_h=%s chi_square=%s "
			    "rct_longest=%llu rct_alarms=%llu apt_max=%u apt_alarms=%llu "
			    "serial_corr=%s repeats=%llu lc_below=%llu lc_min=%u outside=%s "
			    "claim=%s verdict=%s emulated=%d",
			    source, (ull)r->bytes, (ull)bytes_per_s, (ull)r->fips_blocks,
			    (ull)r->fips_fail[FIPS_MONOBIT], (ull)r->fips_fail[FIPS_POKER],
			    (ull)r->fips_fail[FIPS_RUNS], (ull)r->fips_fail[FIPS_LONG_RUN],
			    (ull)r->fips_fail[FIPS_CONTINUOUS], mcv, markov, shannon, chisq,
			    (ull)r->rct_longest, (ull)r->rct_alarms, r->apt_max, (ull)r->apt_alarms,
			    scc, (ull)r->repeat_hits, (ull)r->lc_failed, r->lc_min,
			    outside[0] ? outside : "none",
			    info ? "characterise" : "full", info ? "info" : failed ? "fail" : "pass",
			    emulated ? 1 : 0);
}

#define ROW_FMT	"%-24s %10s %6s %6s %6s %6s %6s %6s %7s %7s %8s %10s %s"

size_t rngq_format_table_header(char *buf, size_t n)
{
	return fmt_snprintf(buf, n, ROW_FMT, "source", "bytes/s", "blocks", "mono", "poker",
			    "runs", "long", "cont", "H_mcv", "H_mkv", "shannon", "chi2", "verdict");
}

size_t rngq_format_table_row(char *buf, size_t n, const char *source, const struct rngq_result *r,
			     uint64_t bytes_per_s, unsigned failed, bool info)
{
	char bps[24], blocks[24], pass[FIPS_TESTS][24], mcv[16], markov[16], shannon[16], chisq[32];
	unsigned t;

	fmt_snprintf(bps, sizeof(bps), "%llu", (ull)bytes_per_s);
	fmt_snprintf(blocks, sizeof(blocks), "%llu", (ull)r->fips_blocks);
	for (t = 0; t < FIPS_TESTS; t++)   /* blocks that passed each test */
		fmt_snprintf(pass[t], sizeof(pass[t]), "%llu", (ull)(r->fips_blocks - r->fips_fail[t]));
	micro_dec(mcv, sizeof(mcv), r->mcv.h_micro, 4);
	micro_dec(markov, sizeof(markov), (uint64_t)r->markov_micro * 8, 4);
	ent_fmt(&r->ent, ENT_ENTROPY, 4, shannon, sizeof(shannon));
	chisq_text(r, chisq, sizeof(chisq));
	return fmt_snprintf(buf, n, ROW_FMT, source, bps, blocks, pass[0], pass[1], pass[2],
			    pass[3], pass[4], mcv, markov, shannon, chisq,
			    info ? "info" : failed ? "fail" : "pass");
}
