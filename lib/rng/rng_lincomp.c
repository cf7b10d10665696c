/* rng_lincomp: Berlekamp-Massey linear complexity of stream segments. See rng_lincomp.h. */
#include "lib/rng/rng_lincomp.h"

#include <string.h>

#define WORDS	(RNG_LC_BITS / 32 + 2)	/* polynomials of degree <= n, plus a spare word */

static unsigned parity32(uint32_t v)
{
	v ^= v >> 16;
	v ^= v >> 8;
	v ^= v >> 4;
	v ^= v >> 2;
	v ^= v >> 1;
	return v & 1;
}

/* 32 bits of a little-endian bit array starting at bit o. */
static uint32_t bits_at(const uint32_t *a, unsigned o)
{
	unsigned w = o / 32, s = o % 32;

	if (s == 0)
		return a[w];
	return (a[w] >> s) | (a[w + 1] << (32 - s));
}

/* c ^= b * x^m, over the first WORDS words. */
static void xor_shifted(uint32_t *c, const uint32_t *b, unsigned m)
{
	unsigned ws = m / 32, bs = m % 32;
	int i;

	for (i = WORDS - 1; i >= (int)ws; i--) {
		uint32_t v = b[i - ws] << bs;

		if (bs && i - (int)ws - 1 >= 0)
			v |= b[i - ws - 1] >> (32 - bs);
		c[i] ^= v;
	}
}

/*
 * Massey 1969. rev holds the bits reversed (rev bit j = s_(n-1-j)), so the
 * discrepancy sum_i c_i s_(N-i) is a word-wise AND of c with rev read from
 * bit n-1-N.
 */
uint32_t rng_lc_complexity(const uint8_t *bits, unsigned nbits)
{
	uint32_t rev[WORDS + 1], c[WORDS], b[WORDS], t[WORDS];
	unsigned l = 0, m = 1, n, i;

	if (nbits > RNG_LC_BITS)
		nbits = RNG_LC_BITS;
	memset(rev, 0, sizeof(rev));
	for (i = 0; i < nbits; i++) {
		unsigned s = (bits[i / 8] >> (7 - i % 8)) & 1, j = nbits - 1 - i;

		rev[j / 32] |= (uint32_t)s << (j % 32);
	}
	memset(c, 0, sizeof(c));
	memset(b, 0, sizeof(b));
	c[0] = b[0] = 1;

	for (n = 0; n < nbits; n++) {
		unsigned o = nbits - 1 - n, d = 0, w;

		for (w = 0; w <= l / 32; w++) {
			uint32_t cw = c[w];

			if (w == l / 32 && (l % 32) != 31)
				cw &= ((uint32_t)2 << (l % 32)) - 1;   /* coefficients 0..l only */
			d ^= parity32(cw & bits_at(rev, o + 32 * w));
		}
		if (!d) {
			m++;
		} else if (2 * l <= n) {
			memcpy(t, c, sizeof(t));
			xor_shifted(c, b, m);
			l = n + 1 - l;
			memcpy(b, t, sizeof(b));
			m = 1;
		} else {
			xor_shifted(c, b, m);
			m++;
		}
	}
	return l;
}

void rng_lincomp_init(struct rng_lincomp *c)
{
	memset(c, 0, sizeof(*c));
	c->min_l = UINT32_MAX;
}

static void test_segment(struct rng_lincomp *c)
{
	uint32_t l = rng_lc_complexity(c->seg, RNG_LC_BITS);

	c->tested++;
	if (l < c->min_l)
		c->min_l = l;
	if (l < RNG_LC_BITS / 2 - RNG_LC_MARGIN) {
		if (c->failed++ == 0)
			c->first_fail = c->segments * RNG_LC_BYTES;
	}
}

void rng_lincomp_feed(struct rng_lincomp *c, const uint8_t *buf, size_t len)
{
	while (len) {
		size_t n = RNG_LC_BYTES - c->fill;

		if (n > len)
			n = len;
		if (c->segments % RNG_LC_STRIDE == 0)
			memcpy(c->seg + c->fill, buf, n);
		c->fill += (unsigned)n;
		buf += n;
		len -= n;
		if (c->fill == RNG_LC_BYTES) {
			if (c->segments % RNG_LC_STRIDE == 0)
				test_segment(c);
			c->segments++;
			c->fill = 0;
		}
	}
}
