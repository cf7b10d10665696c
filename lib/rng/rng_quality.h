/*
 * rng_quality: every RNG statistic over one stream, for one source.
 *
 *   struct rngq *q = ...;            (about 72 KB: static or mem_alloc, not the stack)
 *   rngq_init(q, RNGQ_CLAIM_FULL);
 *   rngq_feed(q, buf, len);          (any number of times, any sizes)
 *   rngq_result(q, &res);            (the figures)
 *   rngq_verdicts(&res, v);          (pass/fail per test, rng_verdict.h)
 *
 * Collected together: the FIPS 140-2 block tests as rngtest counts them
 * (rngtest.h), the SP 800-90B health tests on 8-bit samples and the MCV
 * and Markov estimates (sp800_90b.h), ent's figures (ent.h), the repeated
 * data detector (rng_repeat.h) and the linear complexity test
 * (rng_lincomp.h). Nothing is kept of the data but what these need, so a
 * source can be tested with any amount through a small buffer.
 */
#ifndef CQ_LIB_RNG_QUALITY_H
#define CQ_LIB_RNG_QUALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/engine/engine.h"
#include "lib/rng/ent.h"
#include "lib/rng/rng_lincomp.h"
#include "lib/rng/rng_repeat.h"
#include "lib/rng/rngtest.h"
#include "lib/rng/sp800_90b.h"

/* A claim of full entropy: 8 bits of min-entropy per byte, in micro-bits. */
#define RNGQ_CLAIM_FULL		(8 * SP90B_MICRO)

struct rngq {
	uint32_t claim_h_micro;		/* claimed min-entropy per byte */
	struct rngtest_stream fips;
	struct sp90b_health health;	/* on 8-bit samples */
	struct sp90b_counts counts;
	struct ent_ctx ent;		/* byte mode */
	struct rng_repeat repeat;
	struct rng_lincomp lincomp;
};

/* claim_h_micro: claimed min-entropy per byte, 1 .. RNGQ_CLAIM_FULL. */
void rngq_init(struct rngq *q, uint32_t claim_h_micro);
void rngq_feed(struct rngq *q, const uint8_t *buf, size_t len);

/*
 * Reads `bytes` bytes from src through buf (buf_len bytes at a time) into
 * q. Returns 0, or the source's error code (ENGINE_E*, engine.h) when it
 * stopped early; *got (may be NULL) says how many bytes were fed.
 */
int rngq_feed_source(struct rngq *q, const struct rng_source *src, uint64_t bytes,
		     uint8_t *buf, size_t buf_len, uint64_t *got);

/* The figures of a stream: what the verdicts and the report use. */
struct rngq_result {
	uint32_t claim_h_micro;
	uint64_t bytes;
	/* FIPS 140-2, as rngtest */
	uint64_t fips_blocks, fips_successes, fips_fail[FIPS_TESTS];
	/* SP 800-90B health tests, 8-bit samples, alpha = 2^-20 */
	uint32_t rct_cutoff;
	uint64_t rct_alarms, rct_longest;
	uint32_t apt_window, apt_cutoff, apt_max;
	uint64_t apt_windows, apt_alarms;
	/* SP 800-90B estimates */
	struct sp90b_mcv mcv;		/* per byte */
	uint32_t markov_micro;		/* per bit (x 8 for a per-byte figure) */
	uint64_t bits;			/* bits the Markov estimate saw */
	/* ent */
	struct ent_result ent;
	/* repeated data */
	uint64_t repeat_hits, repeat_first, repeat_dist;
	/* linear complexity */
	uint64_t lc_tested, lc_failed, lc_first_fail;
	uint32_t lc_min;
};

void rngq_result(const struct rngq *q, struct rngq_result *r);

#endif
