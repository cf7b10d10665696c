/* sp800_90b: SP 800-90B health tests and MCV / Markov estimates. See sp800_90b.h. */
#include "lib/rng/sp800_90b.h"

#include <string.h>

#include "lib/measure/fixmath.h"

uint32_t sp90b_rct_cutoff(uint32_t h_micro, unsigned alpha_log2)
{
	uint64_t num = (uint64_t)alpha_log2 * SP90B_MICRO;

	if (h_micro == 0)
		return UINT32_MAX;
	return 1 + (uint32_t)((num + h_micro - 1) / h_micro);
}

uint32_t sp90b_apt_window(unsigned sample_bits)
{
	return sample_bits == 1 ? SP90B_APT_WINDOW_BINARY : SP90B_APT_WINDOW;
}

uint32_t sp90b_apt_cutoff(uint32_t h_micro, unsigned sample_bits, unsigned alpha_log2)
{
	uint32_t w = sp90b_apt_window(sample_bits);

	if (h_micro == 0)
		return w + 1;   /* nothing can reach it: no claim, no test */
	return 1 + fx_critbinom(w, fx_exp2_neg_micro(h_micro), alpha_log2);
}

void sp90b_health_init(struct sp90b_health *h, unsigned sample_bits, uint32_t h_micro)
{
	memset(h, 0, sizeof(*h));
	h->sample_bits = sample_bits == 1 ? 1 : 8;
	h->h_micro = h_micro;
	h->rct_cutoff = sp90b_rct_cutoff(h_micro, SP90B_ALPHA_LOG2);
	h->apt_window = sp90b_apt_window(h->sample_bits);
	h->apt_cutoff = sp90b_apt_cutoff(h_micro, h->sample_bits, SP90B_ALPHA_LOG2);
}

static void health_sample(struct sp90b_health *h, unsigned s)
{
	/* 4.4.1 */
	if (h->samples > 0 && s == h->rct_a) {
		if (++h->rct_b == h->rct_cutoff)
			h->rct_alarms++;
	} else {
		h->rct_a = s;
		h->rct_b = 1;
	}
	if (h->rct_b > h->rct_longest)
		h->rct_longest = h->rct_b;

	/* 4.4.2 */
	if (h->apt_i == 0) {
		h->apt_a = s;
		h->apt_b = 1;
	} else if (s == h->apt_a) {
		if (++h->apt_b == h->apt_cutoff)
			h->apt_alarms++;
	}
	if (h->apt_b > h->apt_max)
		h->apt_max = h->apt_b;
	if (++h->apt_i == h->apt_window) {
		h->apt_i = 0;
		h->apt_windows++;
	}
	h->samples++;
}

void sp90b_health_feed(struct sp90b_health *h, const uint8_t *buf, size_t len)
{
	size_t i;
	int j;

	for (i = 0; i < len; i++) {
		if (h->sample_bits == 8) {
			health_sample(h, buf[i]);
			continue;
		}
		for (j = 7; j >= 0; j--)
			health_sample(h, (buf[i] >> j) & 1);
	}
}

void sp90b_counts_init(struct sp90b_counts *c)
{
	memset(c, 0, sizeof(*c));
}

static unsigned popcount8(unsigned v)
{
	v = v - ((v >> 1) & 0x55);
	v = (v & 0x33) + ((v >> 2) & 0x33);
	return (v + (v >> 4)) & 0x0f;
}

/*
 * A byte at a time: with x = last bit : byte (9 bits), the 8 pairs
 * (s_i, s_i+1) are the bits of hi = x >> 1 against lo = x & 0xff.
 */
void sp90b_counts_feed(struct sp90b_counts *c, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned lo = buf[i], hi = ((unsigned)c->last_bit << 7) | (lo >> 1);
		unsigned pairs = 0xff;

		if (c->bits == 0)
			pairs = 0x7f;   /* the stream's first bit has no predecessor */
		c->count[lo]++;
		c->bytes++;
		c->c0 += popcount8(~hi & pairs);
		c->c00 += popcount8(~hi & ~lo & pairs);
		c->c10 += popcount8(hi & ~lo & pairs);
		c->zeros += 8 - popcount8(lo);
		c->last_bit = lo & 1;
		c->bits += 8;
	}
}

/* x * 2^48 (Q48) to micro-units, rounded. */
static uint32_t q48_to_micro(uint64_t x)
{
	struct fx128 n = fx128_mul(x, SP90B_MICRO), d = { 0, FX_LOG2_ONE };

	return (uint32_t)fx128_div_round_ref(&n, &d);
}

void sp90b_mcv(const struct sp90b_counts *c, struct sp90b_mcv *out)
{
	uint64_t l = c->bytes, p, sd;
	struct fx128 t, d, pu;
	unsigned v;

	memset(out, 0, sizeof(*out));
	for (v = 0; v < 256; v++)
		if (c->count[v] > out->mode_count) {
			out->mode_count = c->count[v];
			out->mode = v;
		}
	out->p_u_frac = ~(uint64_t)0;
	if (l < 2 || out->mode_count == l)
		return;
	/* p_hat * 2^64 */
	t.hi = out->mode_count;
	t.lo = 0;
	d = fx128_from(l);
	p = fx128_divmod_ref(&t, &d, 0).lo;
	/* sqrt(p (1 - p) / (L - 1)) * 2^64 = sqrt(p*2^64 * (1-p)*2^64 / (L - 1)) */
	t = fx128_mul(p, 0 - p);
	d = fx128_from(l - 1);
	t = fx128_divmod_ref(&t, &d, 0);
	sd = fx128_isqrt_ref(&t);
	t = fx128_mul(sd, SP90B_MCV_Z_MILLI);
	d = fx128_from(1000);
	pu = fx128_from(p);
	t = fx128_divmod_ref(&t, &d, 0);
	fx128_add_to(&pu, &t);
	if (pu.hi)
		return;                      /* p_u >= 1: no entropy */
	out->p_u_frac = pu.lo;
	/* -log2(p_u) = 64 - log2(p_u * 2^64) */
	out->h_micro = q48_to_micro(((uint64_t)64 << FX_LOG2_FRAC) - fx_log2(pu.lo));
}

/*
 * The six candidate sequences of 6.3.3 step 3, each -log2 of its
 * probability: first + k1 * pair1 + k2 * pair2 (indices into the
 * -log2 probabilities of markov_p), a candidate only when both of its
 * transitions were seen.
 */
enum { MK_P0, MK_P1, MK_P00, MK_P01, MK_P10, MK_P11, MK_PROBS };

static const struct {
	uint8_t first, pair1, pair2, k1, k2;
} markov_seq[6] = {
	{ MK_P0, MK_P00, MK_P00, SP90B_MARKOV_LEN - 1, 0 },			/* 00...0 */
	{ MK_P0, MK_P01, MK_P10, SP90B_MARKOV_LEN / 2, SP90B_MARKOV_LEN / 2 - 1 }, /* 0101...01 */
	{ MK_P0, MK_P01, MK_P11, 1, SP90B_MARKOV_LEN - 2 },			/* 011...1 */
	{ MK_P1, MK_P10, MK_P00, 1, SP90B_MARKOV_LEN - 2 },			/* 100...0 */
	{ MK_P1, MK_P10, MK_P01, SP90B_MARKOV_LEN / 2, SP90B_MARKOV_LEN / 2 - 1 }, /* 1010...10 */
	{ MK_P1, MK_P11, MK_P11, SP90B_MARKOV_LEN - 1, 0 },			/* 11...1 */
};

uint32_t sp90b_markov(const struct sp90b_counts *c)
{
	/* P(0) = zeros / bits, P(00) = c00 / c0, P(10) = c10 / c1; the others their complements */
	uint64_t den[3] = { c->bits, c->c0, c->bits - 1 - c->c0 };   /* c1: ones among s_0 .. s_(L-2) */
	uint64_t part[3] = { c->zeros, c->c00, c->c10 };
	uint64_t num[MK_PROBS], p[MK_PROBS];
	uint64_t best = (uint64_t)SP90B_MARKOV_LEN << FX_LOG2_FRAC;   /* 128 bits */
	uint64_t h;
	unsigned i;

	if (c->bits < 2)
		return 0;
	/* -log2 of each probability (only used when the probability is > 0) */
	for (i = 0; i < MK_PROBS; i++) {
		num[i] = i & 1 ? den[i / 2] - part[i / 2] : part[i / 2];
		p[i] = num[i] ? fx_log2(den[i / 2]) - fx_log2(num[i]) : 0;
	}
	for (i = 0; i < 6; i++) {
		if (!num[markov_seq[i].pair1] || !num[markov_seq[i].pair2])
			continue;
		h = p[markov_seq[i].first] + markov_seq[i].k1 * p[markov_seq[i].pair1] +
		    markov_seq[i].k2 * p[markov_seq[i].pair2];
		if (h < best)
			best = h;
	}
	h = q48_to_micro(best / SP90B_MARKOV_LEN);
	return h > SP90B_MICRO ? SP90B_MICRO : (uint32_t)h;
}
