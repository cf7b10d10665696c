/* rng_repeat: repeated-data detector by rolling fingerprints. See rng_repeat.h. */
#include "lib/rng/rng_repeat.h"

#include <string.h>

#include "lib/util/splitmix64.h"

#define RNG_REPEAT_BASE	0x100000001b3ull	/* odd: the FNV-1 64-bit prime */
#define FP_BITS		40
#define FP_MASK		((((uint64_t)1) << FP_BITS) - 1)
#define WIN_MASK	0xffffffull		/* 24 bits of window number + 1 */


static uint64_t base_pow_window(void)
{
	uint64_t p = 1;
	unsigned i;

	for (i = 0; i < RNG_REPEAT_WINDOW; i++)
		p *= RNG_REPEAT_BASE;
	return p;
}

void rng_repeat_init(struct rng_repeat *r)
{
	memset(r, 0, sizeof(*r));
}

/* The window ending at r->pos (start = pos - WINDOW) is complete: look it up. */
static void check_window(struct rng_repeat *r)
{
	uint64_t f = splitmix64_mix(r->hash), start = r->pos - RNG_REPEAT_WINDOW;
	uint64_t fp = f & FP_MASK;
	uint32_t i = (uint32_t)(f >> (64 - RNG_REPEAT_SLOT_BITS));

	for (;; i = (i + 1) & (RNG_REPEAT_SLOTS - 1)) {
		uint64_t e = r->slot[i];

		if (e == 0)
			break;
		if (e >> 24 == fp) {
			if (r->hits++ == 0) {
				r->first_hit = start;
				r->first_dist = start - ((e & WIN_MASK) - 1) * RNG_REPEAT_WINDOW;
			}
			return;
		}
	}
	if (start % RNG_REPEAT_WINDOW == 0 && r->stored < RNG_REPEAT_STORED) {
		r->slot[i] = fp << 24 | (start / RNG_REPEAT_WINDOW + 1);
		r->stored++;
	}
}

void rng_repeat_feed(struct rng_repeat *r, const uint8_t *buf, size_t len)
{
	uint64_t out_w = base_pow_window();   /* B^WINDOW: weight of the byte leaving */
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned k = (unsigned)(r->pos % RNG_REPEAT_WINDOW);
		uint8_t old = r->ring[k];   /* the byte WINDOW positions back (0 at the start) */

		r->ring[k] = buf[i];
		r->hash = r->hash * RNG_REPEAT_BASE + buf[i] - old * out_w;
		r->pos++;
		if (r->pos >= RNG_REPEAT_WINDOW)
			check_window(r);
	}
}
