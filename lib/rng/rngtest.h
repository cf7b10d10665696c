/*
 * rngtest: the FIPS 140-2 RNG tests on 20,000-bit blocks (monobit, poker,
 * runs, long run) and the continuous test, counted exactly as rng-tools'
 * `rngtest` (rng-tools 5, fips.c and rngtest.c) counts them, so that the
 * same bytes give the same numbers here, in the kernel, and in Debian's
 * rngtest.
 *
 * Bounds: FIPS 140-2 section 4.9.1 as changed by the change notice of
 * 2001-10-10 (rngtest's "FIPS 140-2(2001-10-10)"); continuous test: FIPS
 * 140-2 section 4.9.2 on 32-bit words. A block passes a test when:
 *   monobit     9725 < ones < 10275
 *   poker       1563176 <= sum of the 16 squared nibble counts <= 1576928
 *               (X = 16/5000 * sum - 5000 within 2.16 .. 46.17)
 *   runs        every run-length tally inside its interval (FIPS_RUNS_LO/HI)
 *   long run    no run of 26 or more equal bits
 *   continuous  no 32-bit word (little-endian) equal to the word before it
 *
 * How rngtest walks a stream, reproduced here:
 *  - the first 4 bytes are not tested: they only seed the continuous test;
 *    then every complete 2500-byte block is tested; a short tail is counted
 *    in "bits received" only;
 *  - bits are taken most significant first; a run that crosses a block
 *    boundary is cut there;
 *  - a run that ends inside the block is tallied under the bit that ends it
 *    (its opposite), the block's last run under its own bit; the intervals
 *    are the same for zeros and ones, so only the tallies' names differ;
 *  - when a block's first bit differs from the previous block's last bit
 *    (the stream "starts" with last bit 0), rngtest counts one extra run:
 *    a 6+ run in tally 0 when the new bit is 1, and when it is 0 an extra
 *    count of nibble 15 (its runs[-1] is poker[15] in struct fips_ctx);
 *  - a block counts once as a failure however many tests it fails, and once
 *    in each failed test's count.
 */
#ifndef CQ_LIB_RNGTEST_H
#define CQ_LIB_RNGTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FIPS_BLOCK_BYTES	2500	/* 20,000 bits */
#define FIPS_BLOCK_BITS		20000
#define FIPS_SEED_BYTES		4	/* rngtest's bootstrap word for the continuous test */

#define FIPS_MONOBIT_LO		9725	/* fail at or below */
#define FIPS_MONOBIT_HI		10275	/* fail at or above */
#define FIPS_POKER_LO		1563176	/* fail below (X = 2.1632) */
#define FIPS_POKER_HI		1576928	/* fail above (X = 46.1696) */
#define FIPS_LONGRUN		26	/* a run this long fails */
#define FIPS_RUN_CLASSES	6	/* run lengths 1, 2, 3, 4, 5, 6+ */

extern const uint16_t fips_runs_lo[FIPS_RUN_CLASSES];   /* 2315 1114 527 240 103 103 */
extern const uint16_t fips_runs_hi[FIPS_RUN_CLASSES];   /* 2685 1386 723 384 209 209 */

enum fips_test {
	FIPS_MONOBIT,
	FIPS_POKER,
	FIPS_RUNS,
	FIPS_LONG_RUN,
	FIPS_CONTINUOUS,
	FIPS_TESTS
};
#define FIPS_FAIL(t)	(1u << (t))

/* rngtest's names: "Monobit", "Poker", "Runs", "Long run", "Continuous run". */
const char *fips_test_name(enum fips_test t);

/*
 * What one block passes to the next (rngtest's fips_ctx fields), and the
 * counting mode: strict = false counts as rngtest (the default, and what
 * the kernel reports); strict = true tallies every run under its own bit
 * and adds no extra count at block starts, as FIPS 140-2 describes the
 * test (used to show that the difference is real, see the host tool's
 * --gen fips-edge).
 */
struct fips_carry {
	uint32_t last32;	/* previous 32-bit word, little-endian */
	uint8_t last_bit;	/* previous block's last bit; 0 before the first block */
	bool strict;
};

/* The figures of one block, for reports and unit tests. */
struct fips_block_stats {
	uint32_t ones;
	uint32_t poker[16];		/* nibble counts (with rngtest's extra nibble-15 count) */
	uint32_t poker_sum;		/* sum of the squared counts */
	uint32_t runs[2][FIPS_RUN_CLASSES];	/* rngtest's two tallies, lengths 1..5, 6+ */
	uint32_t longest_run;
	bool repeated_word;
};

/*
 * Tests one block of FIPS_BLOCK_BYTES bytes. carry is read and updated (so
 * consecutive calls walk a stream); st may be NULL. Returns the set of
 * failed tests, FIPS_FAIL(t) bits (0 = the block passed).
 */
unsigned fips_block(const uint8_t *block, struct fips_carry *carry, struct fips_block_stats *st);

/* A stream as rngtest reads it: fed in any pieces, counted per block. */
struct rngtest_stream {
	struct fips_carry carry;
	uint8_t buf[FIPS_BLOCK_BYTES];
	size_t fill;		/* bytes waiting in buf (or seed bytes before the first block) */
	bool seeded;		/* the 4 seed bytes were read */
	uint64_t bytes;		/* bytes received, as rngtest's "bits received" / 8 */
	uint64_t successes;	/* blocks that passed every test */
	uint64_t failures;	/* blocks that failed at least one */
	uint64_t fail[FIPS_TESTS];	/* blocks that failed each test */
};

void rngtest_init(struct rngtest_stream *s);
void rngtest_feed(struct rngtest_stream *s, const uint8_t *buf, size_t len);
static inline uint64_t rngtest_blocks(const struct rngtest_stream *s)
{
	return s->successes + s->failures;
}

#endif
