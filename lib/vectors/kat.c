/*
 * kat: runs the known-answer vectors of kat_vectors.c through an AES or
 * hash engine and describes every failure in a note line. See kat.h.
 */
#include "lib/vectors/kat.h"

#include <stdarg.h>
#include <string.h>

#include "lib/util/fmt.h"
#include "lib/util/hex.h"

void kat_note(kat_note_fn note, void *ctx, const char *fmt, ...)
{
	char line[KAT_NOTE_MAX];
	va_list ap;

	if (!note)
		return;
	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	note(ctx, line);
}

static bool misaligned(const void *p, unsigned align)
{
	return align > 1 && ((uintptr_t)p & (align - 1)) != 0;
}

/*
 * Compares len bytes block by block; on the first wrong block, notes it
 * ("vector F.2.1 block 2<how>: expected .. got ..") and returns false.
 */
static bool compare_blocks(const struct kat_aes_vector *v, const uint8_t *got,
			   const char *how, kat_note_fn note, void *ctx)
{
	char exp_hex[2 * AES_BLOCK_BYTES + 1], got_hex[2 * AES_BLOCK_BYTES + 1];
	size_t off;

	for (off = 0; off < v->len; off += AES_BLOCK_BYTES) {
		if (memcmp(v->out + off, got + off, AES_BLOCK_BYTES) == 0)
			continue;
		kat_note(note, ctx, "vector %s block %u%s: expected %s got %s", v->name,
			 (unsigned)(off / AES_BLOCK_BYTES) + 1, how,
			 hex_encode(v->out + off, AES_BLOCK_BYTES, exp_hex, sizeof(exp_hex)),
			 hex_encode(got + off, AES_BLOCK_BYTES, got_hex, sizeof(got_hex)));
		return false;
	}
	return true;
}

/* Runs one vector both ways (see kat.h). Returns whether it passed. */
static bool aes_vector_run(const struct aes_engine *e, const struct kat_aes_vector *v,
			   const struct kat_buffers *b, kat_note_fn note, void *ctx)
{
	static const char one_block[] = " (in place, one block per call)";
	struct aes_session *s = b->session;
	uint8_t iv[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t *ivp = v->mode == AES_MODE_ECB ? NULL : iv;
	size_t off;
	bool ok;
	int rc;

	memset(s, 0, sizeof(*s));
	s->engine = e;
	s->key_bits = v->key_bits;
	rc = e->set_key(s, v->key, v->key_bits);
	if (rc != ENGINE_OK) {
		kat_note(note, ctx, "vector %s: set_key returned %d (%s)", v->name, rc,
			 engine_strerror(rc));
		e->release(s);
		return false;
	}

	/* The whole message in one call, out of place. */
	memcpy(iv, v->iv, sizeof(iv));
	memcpy(b->in, v->in, v->len);
	memset(b->out, 0, v->len);
	rc = e->crypt(s, v->mode, v->dir, ivp, b->in, b->out, v->len);
	if (rc != ENGINE_OK) {
		kat_note(note, ctx, "vector %s: crypt returned %d (%s)", v->name, rc,
			 engine_strerror(rc));
		ok = false;
	} else {
		ok = compare_blocks(v, b->out, "", note, ctx);
	}

	/* In place, one block per call: the IV must carry over. */
	memcpy(iv, v->iv, sizeof(iv));
	memcpy(b->out, v->in, v->len);
	for (off = 0; off < v->len; off += AES_BLOCK_BYTES) {
		rc = e->crypt(s, v->mode, v->dir, ivp, b->out + off, b->out + off,
			      AES_BLOCK_BYTES);
		if (rc != ENGINE_OK) {
			kat_note(note, ctx, "vector %s block %u%s: crypt returned %d (%s)",
				 v->name, (unsigned)(off / AES_BLOCK_BYTES) + 1, one_block, rc,
				 engine_strerror(rc));
			e->release(s);
			return false;
		}
	}
	if (!compare_blocks(v, b->out, one_block, note, ctx))
		ok = false;
	e->release(s);
	return ok;
}

void kat_aes_run(const struct aes_engine *e, unsigned key_bits, enum aes_mode mode,
		 enum aes_dir dir, const struct kat_buffers *b,
		 kat_note_fn note, void *ctx, struct kat_result *r)
{
	struct kat_aes_vector v[KAT_AES_PER_TRIPLE];
	unsigned i, n;

	memset(r, 0, sizeof(*r));
	if (!aes_engine_supports(e, key_bits, mode, dir)) {
		kat_note(note, ctx, "%s does not claim aes-%u-%s %s", e ? e->name : "(null)",
			 key_bits, aes_mode_name(mode), aes_dir_name(dir));
		r->failed = 1;
		return;
	}
	if (!b || !b->session || b->cap < KAT_AES_MAX_BYTES ||
	    misaligned(b->in, e->align) || misaligned(b->out, e->align)) {
		kat_note(note, ctx, "buffers missing, under %u bytes or not aligned to %u bytes",
			 KAT_AES_MAX_BYTES, e->align);
		r->failed = 1;
		return;
	}
	n = kat_aes_vectors(key_bits, mode, dir, v, KAT_AES_PER_TRIPLE);
	for (i = 0; i < n; i++) {
		if (e->max_len && v[i].len > e->max_len) {
			kat_note(note, ctx, "vector %s skipped: %u bytes, over max_len %u",
				 v[i].name, (unsigned)v[i].len, (unsigned)e->max_len);
			r->skipped++;
			continue;
		}
		r->run++;
		if (!aes_vector_run(e, &v[i], b, note, ctx))
			r->failed++;
	}
}

void kat_hash_run(const struct hash_engine *h, uint8_t *buf, size_t cap,
		  kat_note_fn note, void *ctx, struct kat_result *r)
{
	uint8_t want[32], got[32];
	char exp_hex[65], got_hex[65];
	const struct kat_hash_vector *v;
	unsigned i, n;

	memset(r, 0, sizeof(*r));
	v = h ? kat_hash_vectors(h->alg, &n) : NULL;
	if (!v) {
		kat_note(note, ctx, "no vectors for this engine");
		r->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		size_t mlen = strlen(v[i].msg), len = mlen * v[i].repeat, dlen, j;
		int rc;

		if (len > cap || (h->max_len && len > h->max_len)) {
			kat_note(note, ctx, "vector %s (%s) skipped: %u bytes, over the %s of %u",
				 v[i].name, v[i].what, (unsigned)len,
				 len > cap ? "buffer" : "max_len",
				 (unsigned)(len > cap ? cap : h->max_len));
			r->skipped++;
			continue;
		}
		for (j = 0; j < v[i].repeat; j++)
			memcpy(buf + j * mlen, v[i].msg, mlen);
		hex_decode(v[i].digest, strlen(v[i].digest), want, sizeof(want), &dlen, NULL);
		memset(got, 0, sizeof(got));
		r->run++;
		rc = h->digest(h, buf, len, got);
		if (rc != ENGINE_OK) {
			kat_note(note, ctx, "vector %s (%s): digest returned %d (%s)", v[i].name,
				 v[i].what, rc, engine_strerror(rc));
			r->failed++;
		} else if (memcmp(want, got, dlen) != 0) {
			kat_note(note, ctx, "vector %s (%s): expected %s got %s", v[i].name,
				 v[i].what, hex_encode(want, dlen, exp_hex, sizeof(exp_hex)),
				 hex_encode(got, dlen, got_hex, sizeof(got_hex)));
			r->failed++;
		}
	}
}
