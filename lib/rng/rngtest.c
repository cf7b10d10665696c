/* rngtest: FIPS 140-2 block tests counted as rng-tools' rngtest counts. See rngtest.h. */
#include "lib/rng/rngtest.h"

#include <string.h>

#include "lib/util/bytes.h"

/* FIPS 140-2 section 4.9.1 (change notice 2001-10-10), runs test intervals. */
const uint16_t fips_runs_lo[FIPS_RUN_CLASSES] = { 2315, 1114, 527, 240, 103, 103 };
const uint16_t fips_runs_hi[FIPS_RUN_CLASSES] = { 2685, 1386, 723, 384, 209, 209 };

static const char *const test_names[FIPS_TESTS] = {
	"Monobit", "Poker", "Runs", "Long run", "Continuous run",
};

const char *fips_test_name(enum fips_test t)
{
	return (unsigned)t < FIPS_TESTS ? test_names[t] : "?";
}

static unsigned run_class(uint32_t len)
{
	return len >= FIPS_RUN_CLASSES ? FIPS_RUN_CLASSES - 1 : len - 1;
}

unsigned fips_block(const uint8_t *block, struct fips_carry *carry, struct fips_block_stats *out)
{
	struct fips_block_stats st;
	unsigned fail = 0, i, c;
	unsigned prev = carry->last_bit;
	uint32_t len = 0;

	memset(&st, 0, sizeof(st));

	for (i = 0; i < FIPS_BLOCK_BYTES; i += 4) {
		uint32_t w = le32_get(block + i);

		if (w == carry->last32)
			st.repeated_word = true;
		carry->last32 = w;
	}

	for (i = 0; i < FIPS_BLOCK_BYTES; i++) {
		uint8_t byte = block[i];
		int j;

		st.poker[byte >> 4]++;
		st.poker[byte & 15]++;
		for (j = 7; j >= 0; j--) {
			unsigned b = (byte >> j) & 1;

			st.ones += b;
			if (len == 0) {
				/* first bit of the block: rngtest's extra count, see rngtest.h */
				if (b != prev && !carry->strict) {
					if (b)
						st.runs[0][FIPS_RUN_CLASSES - 1]++;
					else
						st.poker[15]++;
				}
				len = 1;
			} else if (b == prev) {
				len++;
			} else {
				/* rngtest tallies it under the bit ending it */
				st.runs[carry->strict ? prev : b][run_class(len)]++;
				if (len > st.longest_run)
					st.longest_run = len;
				len = 1;
			}
			prev = b;
		}
	}
	st.runs[prev][run_class(len)]++;               /* the last run, under its own bit */
	if (len > st.longest_run)
		st.longest_run = len;
	carry->last_bit = (uint8_t)prev;

	for (i = 0; i < 16; i++)
		st.poker_sum += st.poker[i] * st.poker[i];

	if (st.ones <= FIPS_MONOBIT_LO || st.ones >= FIPS_MONOBIT_HI)
		fail |= FIPS_FAIL(FIPS_MONOBIT);
	if (st.poker_sum < FIPS_POKER_LO || st.poker_sum > FIPS_POKER_HI)
		fail |= FIPS_FAIL(FIPS_POKER);
	for (c = 0; c < 2 * FIPS_RUN_CLASSES; c++) {
		uint32_t n = st.runs[c / FIPS_RUN_CLASSES][c % FIPS_RUN_CLASSES];

		if (n < fips_runs_lo[c % FIPS_RUN_CLASSES] || n > fips_runs_hi[c % FIPS_RUN_CLASSES])
			fail |= FIPS_FAIL(FIPS_RUNS);
	}
	if (st.longest_run >= FIPS_LONGRUN)
		fail |= FIPS_FAIL(FIPS_LONG_RUN);
	if (st.repeated_word)
		fail |= FIPS_FAIL(FIPS_CONTINUOUS);

	if (out)
		*out = st;
	return fail;
}

void rngtest_init(struct rngtest_stream *s)
{
	memset(s, 0, sizeof(*s));
}

static void count_block(struct rngtest_stream *s)
{
	unsigned fail = fips_block(s->buf, &s->carry, 0);
	unsigned t;

	if (!fail) {
		s->successes++;
		return;
	}
	s->failures++;
	for (t = 0; t < FIPS_TESTS; t++)
		if (fail & FIPS_FAIL(t))
			s->fail[t]++;
}

void rngtest_feed(struct rngtest_stream *s, const uint8_t *buf, size_t len)
{
	s->bytes += len;
	while (len) {
		size_t want = (s->seeded ? FIPS_BLOCK_BYTES : FIPS_SEED_BYTES) - s->fill;
		size_t n = len < want ? len : want;

		memcpy(s->buf + s->fill, buf, n);
		s->fill += n;
		buf += n;
		len -= n;
		if (!s->seeded && s->fill == FIPS_SEED_BYTES) {
			s->carry.last32 = le32_get(s->buf);
			s->seeded = true;
			s->fill = 0;
		} else if (s->fill == FIPS_BLOCK_BYTES) {
			count_block(s);
			s->fill = 0;
		}
	}
}
