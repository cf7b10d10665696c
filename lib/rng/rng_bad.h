/*
 * rng_bad: deliberately bad RNG sources (struct rng_source, known_bad =
 * true) for the self-check that runs once per boot: it shows the tests can
 * fail. A bad source that passes a test it is built to fail means the test
 * (or the build) is broken, and the self-check says `not ok`.
 *
 * Source (name)       what it models                      built to fail
 * bad-zero            a stuck-at-0 source                 every test
 * bad-pattern32       a fixed word 0xa5c35a3c, 16 of 32   FIPS continuous, 90B APT and
 *                     bits set (so monobit alone passes)  MCV, chi-square, repeat,
 *                                                         linear complexity
 * bad-biased55        independent bits, P(1) = 0.55       FIPS monobit and poker, 90B MCV
 *                                                         and Markov, chi-square
 * bad-lfsr16          a 16-bit maximal LFSR (period       repeat (period 65535 bytes),
 *                     2^16 - 1 bits): a hardware test     linear complexity (L = 16)
 *                     mode; passes FIPS and ent
 * bad-repeat2k        one random 2 KiB block, replayed    repeat
 *                     (each copy is statistically fine)
 *
 * The sources are deterministic: rng_bad_reset() restarts them all.
 */
#ifndef CQ_LIB_RNG_BAD_H
#define CQ_LIB_RNG_BAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/engine/engine.h"
#include "lib/rng/rng_quality.h"

#define RNG_BAD_COUNT		5
#define RNG_SELFCHECK_BYTES	(128 * 1024)	/* per bad source: 52 FIPS blocks, 2 LFSR periods */

struct rng_bad {
	const struct rng_source *src;
	unsigned must_fail;		/* RNGQ_BIT() set of tests it must fail */
	const char *detects;		/* TAP wording: "detects stuck source" */
};

/* The i-th bad source, i < RNG_BAD_COUNT. */
const struct rng_bad *rng_bad(unsigned i);

/* Restarts every bad source from its seed. */
void rng_bad_reset(void);

/*
 * The self-check of one bad source: resets it, feeds RNG_SELFCHECK_BYTES
 * of it into q (through buf, buf_len bytes at a time), applies the verdicts
 * with a full-entropy claim, and checks that every test in b->must_fail
 * failed. Returns true for `ok`; msg (msg_len bytes) gets one line naming
 * the tests that wrongly passed, or the tests that failed.
 */
bool rng_selfcheck(const struct rng_bad *b, struct rngq *q, uint8_t *buf, size_t buf_len,
		   char *msg, size_t msg_len);

#endif
