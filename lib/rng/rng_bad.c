/* rng_bad: deliberately bad RNG sources and the self-check. See rng_bad.h. */
#include "lib/rng/rng_bad.h"

#include <string.h>

#include "lib/util/fmt.h"
#include "lib/util/splitmix64.h"
#include "lib/rng/rng_verdict.h"

#define PATTERN32	0xa5c35a3cu	/* 16 ones; bytes 3c 5a c3 a5 in the stream */
#define BIAS_THRESHOLD	2362232013u	/* ceil(0.55 * 2^32): P(u32 < it) = 0.55 */
#define LFSR16_TAPS	0xb400u		/* x^16 + x^14 + x^13 + x^11 + 1, maximal (Galois form) */
#define LFSR16_SEED	0xace1u
#define REPEAT_BLOCK	2048
#define SEED_BIASED	0x853c49e6748fea9bull
#define SEED_REPEAT	0xda3e39cb94b95bdbull

struct bad_state {
	uint64_t prng;		/* splitmix64 state */
	uint16_t lfsr;
	uint32_t pos;		/* byte position (pattern, repeated block) */
	uint8_t block[REPEAT_BLOCK];
};

static struct bad_state st_zero, st_pattern, st_biased, st_lfsr, st_repeat;


static int read_zero(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	(void)r;
	memset(buf, 0, len);
	*got = len;
	return 0;
}

static int read_pattern(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct bad_state *s = r->ctx;
	size_t i;

	for (i = 0; i < len; i++, s->pos++)
		buf[i] = (uint8_t)(PATTERN32 >> (8 * (s->pos % 4)));   /* little-endian words */
	*got = len;
	return 0;
}

static int read_biased(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct bad_state *s = r->ctx;
	size_t i;
	int j;

	for (i = 0; i < len; i++) {
		uint8_t v = 0;

		for (j = 0; j < 8; j++) {
			uint64_t u = splitmix64_next(&s->prng);

			v = (uint8_t)(v << 1 | ((uint32_t)(u >> 32) < BIAS_THRESHOLD));
		}
		buf[i] = v;
	}
	*got = len;
	return 0;
}

static int read_lfsr(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct bad_state *s = r->ctx;
	size_t i;
	int j;

	for (i = 0; i < len; i++) {
		uint8_t v = 0;

		for (j = 0; j < 8; j++) {
			unsigned out = s->lfsr & 1;

			s->lfsr = (uint16_t)((s->lfsr >> 1) ^ (out ? LFSR16_TAPS : 0));
			v = (uint8_t)(v << 1 | out);
		}
		buf[i] = v;
	}
	*got = len;
	return 0;
}

static int read_repeat(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct bad_state *s = r->ctx;
	size_t i;

	for (i = 0; i < len; i++, s->pos++)
		buf[i] = s->block[s->pos % REPEAT_BLOCK];
	*got = len;
	return 0;
}

static const struct rng_source src_zero = {
	"bad-zero", "self-check: stuck at zero", true, &st_zero, read_zero, RNG_CLAIM_FULL, 0, NULL,
};
static const struct rng_source src_pattern = {
	"bad-pattern32", "self-check: the word 0xa5c35a3c repeated", true, &st_pattern,
	read_pattern, RNG_CLAIM_FULL, 0, NULL,
};
static const struct rng_source src_biased = {
	"bad-biased55", "self-check: independent bits, 55% ones", true, &st_biased,
	read_biased, RNG_CLAIM_FULL, 0, NULL,
};
static const struct rng_source src_lfsr = {
	"bad-lfsr16", "self-check: 16-bit LFSR, period 65535 bits", true, &st_lfsr, read_lfsr,
	RNG_CLAIM_FULL, 0, NULL,
};
static const struct rng_source src_repeat = {
	"bad-repeat2k", "self-check: one 2 KiB random block replayed", true, &st_repeat,
	read_repeat, RNG_CLAIM_FULL, 0, NULL,
};

static const struct rng_bad bad[RNG_BAD_COUNT] = {
	{ &src_zero, RNGQ_ALL, "detects stuck source" },
	{ &src_pattern,
	  RNGQ_BIT(RNGQ_CONTINUOUS) | RNGQ_BIT(RNGQ_APT) | RNGQ_BIT(RNGQ_MCV) | RNGQ_BIT(RNGQ_CHISQ) |
		  RNGQ_BIT(RNGQ_REPEAT) | RNGQ_BIT(RNGQ_LINCOMP),
	  "detects repeated word" },
	{ &src_biased,
	  RNGQ_BIT(RNGQ_MONOBIT) | RNGQ_BIT(RNGQ_POKER) | RNGQ_BIT(RNGQ_MCV) | RNGQ_BIT(RNGQ_MARKOV) |
		  RNGQ_BIT(RNGQ_CHISQ),
	  "detects biased source" },
	{ &src_lfsr, RNGQ_BIT(RNGQ_REPEAT) | RNGQ_BIT(RNGQ_LINCOMP), "detects short LFSR" },
	{ &src_repeat, RNGQ_BIT(RNGQ_REPEAT), "detects replayed block" },
};

const struct rng_bad *rng_bad(unsigned i)
{
	return i < RNG_BAD_COUNT ? &bad[i] : 0;
}

void rng_bad_reset(void)
{
	uint64_t seed = SEED_REPEAT, v = 0;
	unsigned i;

	memset(&st_zero, 0, sizeof(st_zero));
	memset(&st_pattern, 0, sizeof(st_pattern));
	memset(&st_biased, 0, sizeof(st_biased));
	st_biased.prng = SEED_BIASED;
	memset(&st_lfsr, 0, sizeof(st_lfsr));
	st_lfsr.lfsr = LFSR16_SEED;
	memset(&st_repeat, 0, sizeof(st_repeat));
	for (i = 0; i < REPEAT_BLOCK; i++) {
		if (i % 8 == 0)
			v = splitmix64_next(&seed);
		st_repeat.block[i] = (uint8_t)(v >> (8 * (i % 8)));
	}
}

/* Appends " name" for each test in set to buf. */
static void list_tests(char *buf, size_t n, unsigned set)
{
	size_t len = strlen(buf);
	unsigned t;

	for (t = 0; t < RNGQ_TESTS && len < n; t++)
		if (set & RNGQ_BIT(t))
			len += fmt_snprintf(buf + len, n - len, " %s", rngq_test_name(t));
}

bool rng_selfcheck(const struct rng_bad *b, struct rngq *q, uint8_t *buf, size_t buf_len,
		   char *msg, size_t msg_len)
{
	struct rngq_result res;
	struct rngq_verdict v[RNGQ_TESTS];
	unsigned failed, missed;
	uint64_t got = 0;
	int err;

	rng_bad_reset();
	rngq_init(q, RNGQ_CLAIM_FULL);
	err = rngq_feed_source(q, b->src, RNG_SELFCHECK_BYTES, buf, buf_len, &got);
	if (err) {
		fmt_snprintf(msg, msg_len, "%s: read failed after %llu bytes: %s", b->src->name,
			     (unsigned long long)got, engine_strerror(err));
		return false;
	}
	rngq_result(q, &res);
	failed = rngq_verdicts(&res, v);
	missed = b->must_fail & ~failed;
	if (missed) {
		fmt_snprintf(msg, msg_len, "%s: passed what it must fail:", b->src->name);
		list_tests(msg, msg_len, missed);
		return false;
	}
	fmt_snprintf(msg, msg_len, "%s: %s; failed:", b->src->name, b->detects);
	list_tests(msg, msg_len, failed);
	return true;
}
