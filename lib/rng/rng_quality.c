/* rng_quality: all RNG statistics over one stream. See rng_quality.h. */
#include "lib/rng/rng_quality.h"

#include <string.h>

void rngq_init(struct rngq *q, uint32_t claim_h_micro)
{
	if (claim_h_micro == 0 || claim_h_micro > RNGQ_CLAIM_FULL)
		claim_h_micro = RNGQ_CLAIM_FULL;
	q->claim_h_micro = claim_h_micro;
	rngtest_init(&q->fips);
	sp90b_health_init(&q->health, 8, claim_h_micro);
	sp90b_counts_init(&q->counts);
	ent_init(&q->ent, false);
	rng_repeat_init(&q->repeat);
	rng_lincomp_init(&q->lincomp);
}

void rngq_feed(struct rngq *q, const uint8_t *buf, size_t len)
{
	rngtest_feed(&q->fips, buf, len);
	sp90b_health_feed(&q->health, buf, len);
	sp90b_counts_feed(&q->counts, buf, len);
	ent_feed(&q->ent, buf, len);
	rng_repeat_feed(&q->repeat, buf, len);
	rng_lincomp_feed(&q->lincomp, buf, len);
}

int rngq_feed_source(struct rngq *q, const struct rng_source *src, uint64_t bytes,
		     uint8_t *buf, size_t buf_len, uint64_t *got)
{
	uint64_t done = 0;
	int err = 0;

	while (done < bytes) {
		size_t want = bytes - done < buf_len ? (size_t)(bytes - done) : buf_len;
		size_t n = 0;

		err = src->read(src, buf, want, &n);
		if (n > want)
			n = want;
		rngq_feed(q, buf, n);
		done += n;
		if (err)
			break;
		if (n == 0) {
			err = ENGINE_EHW;   /* a source that delivers nothing and says nothing */
			break;
		}
	}
	if (got)
		*got = done;
	return err;
}

void rngq_result(const struct rngq *q, struct rngq_result *r)
{
	unsigned t;

	memset(r, 0, sizeof(*r));
	r->claim_h_micro = q->claim_h_micro;
	r->bytes = q->counts.bytes;

	r->fips_blocks = rngtest_blocks(&q->fips);
	r->fips_successes = q->fips.successes;
	for (t = 0; t < FIPS_TESTS; t++)
		r->fips_fail[t] = q->fips.fail[t];

	r->rct_cutoff = q->health.rct_cutoff;
	r->rct_alarms = q->health.rct_alarms;
	r->rct_longest = q->health.rct_longest;
	r->apt_window = q->health.apt_window;
	r->apt_cutoff = q->health.apt_cutoff;
	r->apt_max = q->health.apt_max;
	r->apt_windows = q->health.apt_windows;
	r->apt_alarms = q->health.apt_alarms;

	sp90b_mcv(&q->counts, &r->mcv);
	r->markov_micro = sp90b_markov(&q->counts);
	r->bits = q->counts.bits;

	ent_finish(&q->ent, &r->ent);

	r->repeat_hits = q->repeat.hits;
	r->repeat_first = q->repeat.first_hit;
	r->repeat_dist = q->repeat.first_dist;

	r->lc_tested = q->lincomp.tested;
	r->lc_failed = q->lincomp.failed;
	r->lc_first_fail = q->lincomp.first_fail;
	r->lc_min = q->lincomp.tested ? q->lincomp.min_l : 0;
}
