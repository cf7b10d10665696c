/*
 * rng_lincomp: linear complexity of the bit stream (as in NIST SP 800-22
 * section 2.10), to catch a source that is, or has fallen back to, a linear
 * feedback shift register: a hardware test mode, or a short LFSR. Such
 * output passes the FIPS block tests (an m-sequence is balanced and has
 * the ideal run distribution) and the ent statistics, and an LFSR longer
 * than the repeat detector's reach never repeats within a sample.
 *
 * Method: the stream's bits (most significant first) are cut into segments
 * of RNG_LC_BITS bits; one segment in every RNG_LC_STRIDE is tested (so the
 * cost stays small on a Geode: about 40,000 word operations per segment).
 * The Berlekamp-Massey algorithm gives the length L of the shortest LFSR
 * that generates the segment. For random bits, P(L = n/2 - k) is about
 * 2^-(2k+1) (Rueppel, "Analysis and Design of Stream Ciphers", 1986: the
 * number of n-bit sequences with complexity L <= n/2 is 2^(2L-1)), so
 * P(L < n/2 - RNG_LC_MARGIN) < 2^-33 per segment. An LFSR of degree d gives
 * L <= d in every segment.
 */
#ifndef CQ_LIB_RNG_LINCOMP_H
#define CQ_LIB_RNG_LINCOMP_H

#include <stddef.h>
#include <stdint.h>

#define RNG_LC_BITS	1024	/* segment length n */
#define RNG_LC_BYTES	(RNG_LC_BITS / 8)
#define RNG_LC_STRIDE	16	/* test one segment in this many (one per 2 KiB) */
#define RNG_LC_MARGIN	16	/* a segment fails when L < n/2 - RNG_LC_MARGIN */

/*
 * Linear complexity of nbits bits (bit i = bit 7 - i % 8 of bits[i / 8]),
 * nbits <= RNG_LC_BITS: the degree of the shortest LFSR generating them.
 */
uint32_t rng_lc_complexity(const uint8_t *bits, unsigned nbits);

struct rng_lincomp {
	uint8_t seg[RNG_LC_BYTES];
	unsigned fill;
	uint64_t segments;	/* complete segments seen */
	uint64_t tested, failed;
	uint32_t min_l;		/* lowest complexity among tested segments */
	uint64_t first_fail;	/* byte offset of the first failing segment */
};

void rng_lincomp_init(struct rng_lincomp *c);
void rng_lincomp_feed(struct rng_lincomp *c, const uint8_t *buf, size_t len);

#endif
