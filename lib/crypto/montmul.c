/* montmul: software Montgomery multiplication. See montmul.h. */
#include "lib/crypto/montmul.h"

#include <string.h>

uint32_t montmul_n0(uint32_t m0)
{
	/* Newton's iteration x <- x (2 - m0 x) doubles the correct low bits;
	 * x = m0 is right to 3 bits for odd m0, five steps give 32+. */
	uint32_t x = m0;
	unsigned i;
	for (i = 0; i < 5; i++)
		x *= 2u - m0 * x;
	return 0u - x;
}

void montmul_raw(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
		 uint32_t n0, unsigned n)
{
	unsigned i, j;
	uint64_t s;
	uint32_t c, q;

	memset(t, 0, (size_t)(n + 2) * sizeof(*t));
	for (i = 0; i < n; i++) {
		/* t += a * b[i] */
		c = 0;
		for (j = 0; j < n; j++) {
			s = (uint64_t)a[j] * b[i] + t[j] + c;
			t[j] = (uint32_t)s;
			c = (uint32_t)(s >> 32);
		}
		s = (uint64_t)t[n] + c;
		t[n] = (uint32_t)s;
		t[n + 1] = (uint32_t)(s >> 32);
		/* t = (t + q * m) / 2^32 with q making the low word vanish */
		q = t[0] * n0;
		s = (uint64_t)q * m[0] + t[0];
		c = (uint32_t)(s >> 32);
		for (j = 1; j < n; j++) {
			s = (uint64_t)q * m[j] + t[j] + c;
			t[j - 1] = (uint32_t)s;
			c = (uint32_t)(s >> 32);
		}
		s = (uint64_t)t[n] + c;
		t[n - 1] = (uint32_t)s;
		t[n] = t[n + 1] + (uint32_t)(s >> 32);
		t[n + 1] = 0;
	}
}

bool montmul_final_sub(uint32_t *r, const uint32_t *t, const uint32_t *m, unsigned n)
{
	unsigned i;
	uint32_t borrow = 0, top = t[n];
	bool ge;

	/* Compare t (n + 1 words) with m (n words), most significant first. */
	ge = top != 0;
	if (!ge) {
		ge = true;	/* equal counts as >= */
		for (i = n; i-- > 0;) {
			if (t[i] != m[i]) {
				ge = t[i] > m[i];
				break;
			}
		}
	}
	if (!ge) {
		if (r != t)
			memmove(r, t, (size_t)n * sizeof(*r));
		return false;
	}
	for (i = 0; i < n; i++) {
		uint64_t d = (uint64_t)t[i] - m[i] - borrow;
		r[i] = (uint32_t)d;
		borrow = (uint32_t)(d >> 63);
	}
	return true;
}

void montmul(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
	     unsigned n, uint32_t *tmp)
{
	montmul_raw(tmp, a, b, m, montmul_n0(m[0]), n);
	montmul_final_sub(r, tmp, m, n);
}
