/*
 * cavp_mct: the Monte Carlo tests.
 *
 * AES, AESAVS 6.4.1 (ECB) and 6.4.2 (CBC, OFB, CFB128). For record i, from
 * its Key[i], IV[i] and input X[0] (PLAINTEXT to encrypt, CIPHERTEXT to
 * decrypt), with Y[j] the output of one block through the mode (the IV
 * chaining on from block to block as in one long message):
 *     for j = 0 .. 999:
 *         Y[j] = AES(Key[i], X[j])     (the first block with IV[i])
 *         ECB:    X[j+1] = Y[j]
 *         others: X[j+1] = IV[i] if j = 0, else Y[j-1]
 *     the record's output is Y[999];
 *     Key[i+1] = Key[i] xor Y[999]                         (128-bit keys)
 *              = Key[i] xor (last 64 bits of Y[998] || Y[999])  (192)
 *              = Key[i] xor (Y[998] || Y[999])             (256)
 *     IV[i+1] = Y[999];  X[0] of i+1 = Y[999] (ECB) or Y[998] (others).
 * Each record is checked from its own inputs; when the previous record of
 * the same section passed, the inputs must also be the ones the update
 * rules give, so the chain itself is checked.
 *
 * SHA, SHAVS 6.4. From a Seed, each checkpoint j = 0 .. 99:
 *     MD[0] = MD[1] = MD[2] = Seed
 *     for i = 3 .. 1002: MD[i] = SHA(MD[i-3] || MD[i-2] || MD[i-1])
 *     MD_j = MD[1002], and Seed = MD_j for the next checkpoint.
 * The next seed is taken from the file's MD_j, so every checkpoint is
 * checked on its own.
 */
#include "lib/host/cavp_rsp.h"

#include <string.h>

#include "lib/host/cavp_rsp_int.h"
#include "lib/util/hex.h"

#define MCT_INNER	1000	/* AESAVS 6.4: j = 0 .. 999 */
#define MONTE_FIRST	3	/* SHAVS 6.4: i = 3 .. 1002 */
#define MONTE_LAST	1002

/* Key[i+1] from Key[i], Y[998] (prev) and Y[999] (last). */
static void mct_next_key(uint8_t *key, unsigned key_bits, const uint8_t *prev,
			 const uint8_t *last)
{
	unsigned i, lead = key_bits / 8 - AES_BLOCK_BYTES;	/* 0, 8 or 16 bytes */

	for (i = 0; i < lead; i++)
		key[i] ^= prev[AES_BLOCK_BYTES - lead + i];
	for (i = 0; i < AES_BLOCK_BYTES; i++)
		key[lead + i] ^= last[i];
}

/* Whether rec's inputs follow from the previous record (see above). */
static bool mct_chain_ok(struct cavp_run *r, const struct cavp_record *rec, const uint8_t *in)
{
	char where[64], exp_hex[65], got_hex[65];
	const char *what = NULL;
	const uint8_t *want = NULL, *got = NULL;
	size_t n = AES_BLOCK_BYTES;

	if (!r->chain || r->chain_dir != rec->dir || rec->count != r->chain_count + 1)
		return true;
	if (memcmp(rec->key, r->next_key, r->kind->key_bits / 8) != 0) {
		what = "KEY", want = r->next_key, got = rec->key, n = r->kind->key_bits / 8;
	} else if (r->kind->mode != AES_MODE_ECB && memcmp(rec->iv, r->next_iv, n) != 0) {
		what = "IV", want = r->next_iv, got = rec->iv;
	} else if (memcmp(in, r->next_in, n) != 0) {
		what = rec->dir == AES_DIR_ENCRYPT ? "PLAINTEXT" : "CIPHERTEXT";
		want = r->next_in, got = in;
	}
	if (!what)
		return true;
	cavp_where(r, rec, where, sizeof(where));
	kat_note(r->note, r->note_ctx, "%s: %s does not follow from COUNT = %u: expected %s got %s",
		 where, what, (unsigned)r->chain_count, hex_encode(want, n, exp_hex, sizeof(exp_hex)),
		 hex_encode(got, n, got_hex, sizeof(got_hex)));
	return false;
}

int cavp_aes_mct(struct cavp_run *r, const struct cavp_record *rec)
{
	const struct aes_engine *e = r->aes;
	enum aes_mode mode = r->kind->mode;
	bool enc = rec->dir == AES_DIR_ENCRYPT;
	const uint8_t *in0 = enc ? rec->pt : rec->ct, *want = enc ? rec->ct : rec->pt;
	uint8_t x[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t y[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t prev[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t iv[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	uint8_t *ivp = mode == AES_MODE_ECB ? NULL : iv;
	bool chained = mct_chain_ok(r, rec, in0), ok;
	unsigned j;
	int rc;

	r->chain = false;
	memcpy(x, in0, sizeof(x));
	memcpy(iv, rec->iv, sizeof(iv));
	memset(y, 0, sizeof(y));
	memset(r->session, 0, sizeof(*r->session));
	r->session->engine = e;
	r->session->key_bits = r->kind->key_bits;
	rc = e->set_key(r->session, rec->key, r->kind->key_bits);
	if (rc != ENGINE_OK) {
		cavp_engine_error(r, rec, "set_key", rc);
		e->release(r->session);
		return 0;
	}
	for (j = 0; j < MCT_INNER; j++) {
		memcpy(prev, y, sizeof(prev));
		rc = e->crypt(r->session, mode, rec->dir, ivp, x, y, AES_BLOCK_BYTES);
		if (rc != ENGINE_OK)
			break;
		if (mode == AES_MODE_ECB)
			memcpy(x, y, sizeof(x));
		else
			memcpy(x, j == 0 ? rec->iv : prev, sizeof(x));
	}
	e->release(r->session);
	if (rc != ENGINE_OK) {
		cavp_engine_error(r, rec, "crypt", rc);
		return 0;
	}
	ok = cavp_compare(r, rec, enc ? "CIPHERTEXT" : "PLAINTEXT", want, y, AES_BLOCK_BYTES,
			  AES_BLOCK_BYTES);
	if (ok) {
		memcpy(r->next_key, rec->key, r->kind->key_bits / 8);
		mct_next_key(r->next_key, r->kind->key_bits, prev, y);
		memcpy(r->next_iv, y, sizeof(r->next_iv));
		memcpy(r->next_in, mode == AES_MODE_ECB ? y : prev, sizeof(r->next_in));
		r->chain = true;
		r->chain_count = rec->count;
		r->chain_dir = rec->dir;
	}
	return ok && chained;
}

int cavp_sha_monte(struct cavp_run *r, const struct cavp_record *rec)
{
	const struct hash_engine *h = r->hash;
	size_t d = hash_digest_bytes(h->alg);
	uint8_t m[3 * 32], md[32];
	unsigned i;
	int rc, ok;

	memcpy(m, r->seed, d);
	memcpy(m + d, r->seed, d);
	memcpy(m + 2 * d, r->seed, d);
	for (i = MONTE_FIRST; i <= MONTE_LAST; i++) {
		rc = h->digest(h, m, 3 * d, md);
		if (rc != ENGINE_OK) {
			cavp_engine_error(r, rec, "digest", rc);
			memcpy(r->seed, rec->md, d);
			return 0;
		}
		memmove(m, m + d, 2 * d);
		memcpy(m + 2 * d, md, d);
	}
	ok = cavp_compare(r, rec, "MD", rec->md, md, d, d);
	memcpy(r->seed, rec->md, d);
	return ok;
}
