/*
 * rng_verdict: pass or fail per test for one RNG source, from its
 * rngq_result. The rules, their thresholds and why they are what they are
 * are in docs/rng-verdict.md; in short, every rule is "a source that
 * delivers independent samples with the claimed min-entropy fails it with
 * probability at most about 2^-20", with the thresholds computed here from
 * the sample size (binomial critical values by fx_critbinom), except the
 * chi-square bounds, which are constants computed offline (see the doc).
 */
#ifndef CQ_LIB_RNG_VERDICT_H
#define CQ_LIB_RNG_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rng/rng_quality.h"

enum rngq_test {
	RNGQ_MONOBIT,		/* "fips-monobit" */
	RNGQ_POKER,		/* "fips-poker" */
	RNGQ_RUNS,		/* "fips-runs" */
	RNGQ_LONG_RUN,		/* "fips-long-run" */
	RNGQ_CONTINUOUS,	/* "fips-continuous" */
	RNGQ_RCT,		/* "90b-rct" */
	RNGQ_APT,		/* "90b-apt" */
	RNGQ_MCV,		/* "90b-mcv" */
	RNGQ_MARKOV,		/* "90b-markov" */
	RNGQ_CHISQ,		/* "ent-chi-square" */
	RNGQ_SCC,		/* "ent-serial-correlation" */
	RNGQ_REPEAT,		/* "repeat" */
	RNGQ_LINCOMP,		/* "linear-complexity" */
	RNGQ_TESTS
};
#define RNGQ_BIT(t)	(1u << (t))
#define RNGQ_ALL	(RNGQ_BIT(RNGQ_TESTS) - 1)
#define RNGQ_FIPS_ALL	(RNGQ_BIT(RNGQ_MONOBIT) | RNGQ_BIT(RNGQ_POKER) | RNGQ_BIT(RNGQ_RUNS) | \
			 RNGQ_BIT(RNGQ_LONG_RUN) | RNGQ_BIT(RNGQ_CONTINUOUS))

/* Rule parameters (docs/rng-verdict.md). */
#define RNGQ_BETA_LOG2		20	/* a good source fails a rule with P <= 2^-20 */
#define RNGQ_MIN_BLOCKS		20	/* FIPS verdicts need this many blocks */
#define RNGQ_MIN_CHISQ_BYTES	2560	/* 10 expected per bin */
/* Upper bounds of the per-block false-failure probability of each FIPS test, log2. */
#define RNGQ_P_MONOBIT_LOG2	13	/* exact: 1.035e-4 */
#define RNGQ_P_POKER_LOG2	13	/* chi-square(15) approximation: 0.997e-4 */
#define RNGQ_P_RUNS_LOG2	11	/* measured: 3.2e-4 */
#define RNGQ_P_LONG_RUN_LOG2	11	/* about 10^4 runs * 2^-25 = 3.0e-4 */
#define RNGQ_P_CONTINUOUS_LOG2	22	/* 625 * 2^-32 = 1.46e-7 */
/* chi-square(255) quantiles at 2^-21 and 1 - 2^-21, micro-units (mpmath, 50 digits) */
#define RNGQ_CHISQ_LO_MICRO	159218201
#define RNGQ_CHISQ_HI_MICRO	381401482
#define RNGQ_SCC_Z		5	/* |scc| * sqrt(n) above this fails (P = 5.7e-7) */
#define RNGQ_MARKOV_TOL_MICRO	12500000	/* tolerance * sqrt(bits), micro-bits */

enum rngq_status {
	RNGQ_PASS,
	RNGQ_FAIL,
	RNGQ_SKIP,	/* too little data for the rule */
};

#define RNGQ_REASON_LEN	112
struct rngq_verdict {
	enum rngq_status status;
	char reason[RNGQ_REASON_LEN];	/* one line: the figure, the bound, the sample size */
};

/* Short stable names, for TAP lines and records ("fips-monobit", "90b-rct", ...). */
const char *rngq_test_name(enum rngq_test t);

/*
 * The names of the tests in failed (RNGQ_BIT() set, as rngq_verdicts
 * returns) in test order, joined by sep, into buf (n bytes, cut short
 * when too small); "" when none. Returns buf.
 */
char *rngq_failed_names(char *buf, size_t n, unsigned failed, const char *sep);

/*
 * Applies every rule to r, filling v[RNGQ_TESTS]. Returns the set of failed
 * tests (RNGQ_BIT(t)); skipped tests are not in it.
 */
unsigned rngq_verdicts(const struct rngq_result *r, struct rngq_verdict v[RNGQ_TESTS]);

/*
 * The report's `@rng` record (docs/report-format.md), without the leading
 * "# ": "@rng source=NAME bytes=... (every statistic's figure)
 * outside=TEST,...|none claim=full|characterise verdict=pass|fail|info
 * emulated=0|1", under RNGQ_RECORD_MAX bytes with a source name of up
 * to 48. bytes_per_s is the collection
 * speed the caller measured; info: the source is characterised, not judged
 * (engine.h RNG_CLAIM_CHARACTERISE), so its verdict is "info" whatever
 * failed says. Returns the length (as snprintf).
 */
#define RNGQ_RECORD_MAX	768	/* an @rng record with every statistic outside its bound */
size_t rngq_format_record(char *buf, size_t n, const char *source, const struct rngq_result *r,
			  uint64_t bytes_per_s, unsigned failed, bool info, bool emulated);

/*
 * A table for humans: the header, and one row per source: bytes/s, FIPS
 * blocks passed per test (of N), min-entropy estimates (MCV per byte,
 * Markov x 8 per byte), Shannon entropy, chi-square, verdict ("info" for a
 * characterised source).
 */
size_t rngq_format_table_header(char *buf, size_t n);
size_t rngq_format_table_row(char *buf, size_t n, const char *source, const struct rngq_result *r,
			     uint64_t bytes_per_s, unsigned failed, bool info);

#endif
