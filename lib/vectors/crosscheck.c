/*
 * crosscheck: hardware engines against the software engine on
 * pseudo-random keys, IVs and messages. See kat.h.
 */
#include "lib/vectors/kat.h"

#include <string.h>

#include "lib/util/hex.h"
#include "lib/util/splitmix64.h"

const size_t xc_aes_lengths[XC_AES_LENGTHS] = { 16, 32, 48, 64, 256, 1008, 4096, 16384 };
/* Around the SHA padding boundaries (55/56 bytes: the length field still
 * fits in the block or not; 63/64/65: one block and a byte either side). */
const size_t xc_hash_lengths[XC_HASH_LENGTHS] = { 0, 1, 55, 56, 63, 64, 65, 1000, 16384 };


void xc_rng_seed(struct xc_rng *g, uint64_t seed)
{
	g->state = seed;
}

uint64_t xc_rng_next(struct xc_rng *g)
{
	return splitmix64_next(&g->state);
}

void xc_rng_fill(struct xc_rng *g, uint8_t *p, size_t n)
{
	while (n) {
		uint64_t x = xc_rng_next(g);
		unsigned i;
		for (i = 0; i < 8 && n; i++, n--, x >>= 8)
			*p++ = (uint8_t)x;
	}
}

static bool misaligned(const void *p, unsigned align)
{
	return align > 1 && ((uintptr_t)p & (align - 1)) != 0;
}

/*
 * Notes the first differing 16-byte block of two len-byte buffers: of the
 * output (iv false) or of the IV the call leaves (iv true).
 */
static bool compare(bool iv, size_t len, const uint8_t *want, const uint8_t *got,
		    kat_note_fn note, void *ctx)
{
	char exp_hex[2 * AES_BLOCK_BYTES + 1], got_hex[2 * AES_BLOCK_BYTES + 1];
	size_t off, blk, n;

	for (off = 0; off < len && want[off] == got[off]; off++)
		;
	if (off == len)
		return true;
	blk = off - off % AES_BLOCK_BYTES;
	n = len - blk < AES_BLOCK_BYTES ? len - blk : AES_BLOCK_BYTES;
	hex_encode(want + blk, n, exp_hex, sizeof(exp_hex));
	hex_encode(got + blk, n, got_hex, sizeof(got_hex));
	if (iv)
		kat_note(note, ctx, "length %u: IV after the call differs at offset %u (block %u): expected %s got %s",
			 (unsigned)len, (unsigned)off, (unsigned)(blk / AES_BLOCK_BYTES) + 1, exp_hex,
			 got_hex);
	else
		kat_note(note, ctx, "length %u: first mismatch at offset %u (block %u): expected %s got %s",
			 (unsigned)len, (unsigned)off, (unsigned)(blk / AES_BLOCK_BYTES) + 1, exp_hex,
			 got_hex);
	return false;
}

/* Runs e on len bytes of b->in into b->out in pieces of at most max_len. */
static int crypt_pieces(const struct aes_engine *e, struct aes_session *s,
			enum aes_mode mode, enum aes_dir dir, uint8_t *iv,
			const uint8_t *in, uint8_t *out, size_t len)
{
	size_t piece = e->max_len ? e->max_len - e->max_len % AES_BLOCK_BYTES : len;
	size_t off;
	int rc;

	if (piece == 0)
		return ENGINE_ELEN;
	for (off = 0; off < len; off += piece) {
		size_t n = len - off < piece ? len - off : piece;
		rc = e->crypt(s, mode, dir, iv, in + off, out + off, n);
		if (rc != ENGINE_OK)
			return rc;
	}
	return ENGINE_OK;
}

/* One length. Returns whether e and ref agree. */
static bool aes_one_length(const struct aes_engine *e, const struct aes_engine *ref,
			   unsigned key_bits, enum aes_mode mode, enum aes_dir dir,
			   struct xc_rng *g, size_t len, const struct kat_buffers *b,
			   kat_note_fn note, void *ctx)
{
	uint8_t key[32], iv0[AES_BLOCK_BYTES];
	uint8_t iv[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t ref_iv[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t *ivp = mode == AES_MODE_ECB ? NULL : iv;
	uint8_t *ref_ivp = mode == AES_MODE_ECB ? NULL : ref_iv;
	int rc;
	bool ok;

	xc_rng_fill(g, key, key_bits / 8);
	xc_rng_fill(g, iv0, sizeof(iv0));
	xc_rng_fill(g, b->in, len);

	memset(b->ref, 0, sizeof(*b->ref));
	b->ref->engine = ref;
	b->ref->key_bits = key_bits;
	memcpy(ref_iv, iv0, sizeof(ref_iv));
	rc = ref->set_key(b->ref, key, key_bits);
	if (rc == ENGINE_OK)
		rc = ref->crypt(b->ref, mode, dir, ref_ivp, b->in, b->ref_out, len);
	ref->release(b->ref);
	if (rc != ENGINE_OK) {
		kat_note(note, ctx, "length %u: the reference engine %s returned %d (%s)",
			 (unsigned)len, ref->name, rc, engine_strerror(rc));
		return false;
	}

	memset(b->session, 0, sizeof(*b->session));
	b->session->engine = e;
	b->session->key_bits = key_bits;
	memcpy(iv, iv0, sizeof(iv));
	memset(b->out, 0, len);
	rc = e->set_key(b->session, key, key_bits);
	if (rc != ENGINE_OK) {
		kat_note(note, ctx, "length %u: set_key returned %d (%s)", (unsigned)len, rc,
			 engine_strerror(rc));
		e->release(b->session);
		return false;
	}
	rc = crypt_pieces(e, b->session, mode, dir, ivp, b->in, b->out, len);
	e->release(b->session);
	if (rc != ENGINE_OK) {
		kat_note(note, ctx, "length %u: crypt returned %d (%s)", (unsigned)len, rc,
			 engine_strerror(rc));
		return false;
	}
	ok = compare(false, len, b->ref_out, b->out, note, ctx);
	if (ok && ivp)
		ok = compare(true, AES_BLOCK_BYTES, ref_iv, iv, note, ctx);
	return ok;
}

/* The stream of one test: depends on the seed and the triple only. */
static uint64_t triple_seed(uint32_t seed, unsigned key_bits, unsigned mode, unsigned dir)
{
	return (uint64_t)seed << 32 | key_bits << 8 | mode << 4 | dir;
}

void xc_aes_run(const struct aes_engine *e, const struct aes_engine *ref,
		unsigned key_bits, enum aes_mode mode, enum aes_dir dir, uint32_t seed,
		const struct kat_buffers *b, kat_note_fn note, void *ctx,
		struct kat_result *r)
{
	struct xc_rng g;
	unsigned i;

	memset(r, 0, sizeof(*r));
	if (!aes_engine_supports(e, key_bits, mode, dir) ||
	    !aes_engine_supports(ref, key_bits, mode, dir)) {
		kat_note(note, ctx, "%s or the reference does not claim aes-%u-%s %s",
			 e ? e->name : "(null)", key_bits, aes_mode_name(mode), aes_dir_name(dir));
		r->failed = 1;
		return;
	}
	if (!b || !b->session || !b->ref || b->cap < AES_BLOCK_BYTES ||
	    misaligned(b->in, e->align) || misaligned(b->out, e->align)) {
		kat_note(note, ctx, "buffers missing or not aligned to %u bytes", e->align);
		r->failed = 1;
		return;
	}
	xc_rng_seed(&g, triple_seed(seed, key_bits, mode, dir));
	for (i = 0; i < XC_AES_LENGTHS; i++) {
		size_t len = xc_aes_lengths[i];
		if (len > b->cap) {
			kat_note(note, ctx, "length %u skipped: over the buffer of %u bytes",
				 (unsigned)len, (unsigned)b->cap);
			r->skipped++;
			continue;
		}
		r->run++;
		if (!aes_one_length(e, ref, key_bits, mode, dir, &g, len, b, note, ctx))
			r->failed++;
	}
}

void xc_hash_run(const struct hash_engine *h, const struct hash_engine *ref,
		 uint32_t seed, uint8_t *buf, size_t cap, kat_note_fn note, void *ctx,
		 struct kat_result *r)
{
	uint8_t want[32], got[32];
	char exp_hex[65], got_hex[65];
	struct xc_rng g;
	unsigned i;

	memset(r, 0, sizeof(*r));
	if (!h || !ref || h->alg != ref->alg || hash_digest_bytes(h->alg) > sizeof(want)) {
		kat_note(note, ctx, "no reference engine for this algorithm");
		r->failed = 1;
		return;
	}
	xc_rng_seed(&g, (uint64_t)seed << 32 | 0x100u | h->alg);
	for (i = 0; i < XC_HASH_LENGTHS; i++) {
		size_t len = xc_hash_lengths[i], dlen = hash_digest_bytes(h->alg);
		int rc;

		xc_rng_fill(&g, buf, len <= cap ? len : 0);
		if (len > cap || (h->max_len && len > h->max_len)) {
			kat_note(note, ctx, "length %u skipped: over the %s of %u bytes",
				 (unsigned)len, len > cap ? "buffer" : "max_len",
				 (unsigned)(len > cap ? cap : h->max_len));
			r->skipped++;
			continue;
		}
		r->run++;
		rc = ref->digest(ref, buf, len, want);
		if (rc != ENGINE_OK) {
			kat_note(note, ctx, "length %u: the reference returned %d (%s)",
				 (unsigned)len, rc, engine_strerror(rc));
			r->failed++;
			continue;
		}
		memset(got, 0, sizeof(got));
		rc = h->digest(h, buf, len, got);
		if (rc != ENGINE_OK) {
			kat_note(note, ctx, "length %u: digest returned %d (%s)", (unsigned)len, rc,
				 engine_strerror(rc));
			r->failed++;
		} else if (memcmp(want, got, dlen) != 0) {
			kat_note(note, ctx, "length %u: expected %s got %s", (unsigned)len,
				 hex_encode(want, dlen, exp_hex, sizeof(exp_hex)),
				 hex_encode(got, dlen, got_hex, sizeof(got_hex)));
			r->failed++;
		}
	}
}
