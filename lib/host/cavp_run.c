/*
 * cavp_run: checks each parsed CAVP record with an engine. KAT and MMT
 * records are one encryption or decryption; MCT and Monte records are
 * handed to cavp_mct.c.
 */
#include "lib/host/cavp_rsp.h"

#include <string.h>

#include "lib/host/cavp_rsp_int.h"

int cavp_run_init(struct cavp_run *r, const struct cavp_kind *k,
		  const struct aes_engine *aes, const struct hash_engine *hash,
		  struct aes_session *session, uint8_t *work, size_t work_cap,
		  kat_note_fn note, void *note_ctx)
{
	memset(r, 0, sizeof(*r));
	r->kind = k;
	r->aes = aes;
	r->hash = hash;
	r->session = session;
	r->work = work;
	r->work_cap = work_cap;
	r->note = note;
	r->note_ctx = note_ctx;
	if (k->aes ? (!aes || !session) : (!hash || hash->alg != k->alg))
		return CAVP_EENGINE;
	return 0;
}

/* One KAT or MMT record: a single encryption or decryption. */
static bool aes_record(struct cavp_run *r, const struct cavp_record *rec)
{
	const struct aes_engine *e = r->aes;
	bool enc = rec->dir == AES_DIR_ENCRYPT;
	const uint8_t *in = enc ? rec->pt : rec->ct, *want = enc ? rec->ct : rec->pt;
	uint8_t iv[AES_BLOCK_BYTES] __attribute__((aligned(16)));
	int rc;

	if (rec->pt_len > r->work_cap) {
		cavp_engine_error(r, rec, "the work buffer", ENGINE_ENOMEM);
		return false;
	}
	memcpy(iv, rec->iv, sizeof(iv));
	memset(r->session, 0, sizeof(*r->session));
	r->session->engine = e;
	r->session->key_bits = r->kind->key_bits;
	rc = e->set_key(r->session, rec->key, r->kind->key_bits);
	if (rc == ENGINE_OK) {
		rc = e->crypt(r->session, r->kind->mode, rec->dir,
			      r->kind->mode == AES_MODE_ECB ? NULL : iv, in, r->work, rec->pt_len);
		if (rc != ENGINE_OK)
			cavp_engine_error(r, rec, "crypt", rc);
	} else {
		cavp_engine_error(r, rec, "set_key", rc);
	}
	e->release(r->session);
	if (rc != ENGINE_OK)
		return false;
	return cavp_compare(r, rec, enc ? "CIPHERTEXT" : "PLAINTEXT", want, r->work, rec->pt_len,
			    AES_BLOCK_BYTES);
}

/* One ShortMsg/LongMsg record. Returns 1 passed, 0 failed, -1 skipped. */
static int sha_record(struct cavp_run *r, const struct cavp_record *rec)
{
	const struct hash_engine *h = r->hash;
	uint8_t got[32];
	int rc;

	if (h->max_len && rec->msg_len > h->max_len)
		return -1;
	memset(got, 0, sizeof(got));
	rc = h->digest(h, rec->msg, rec->msg_len, got);
	if (rc != ENGINE_OK) {
		cavp_engine_error(r, rec, "digest", rc);
		return 0;
	}
	return cavp_compare(r, rec, "MD", rec->md, got, hash_digest_bytes(h->alg), 32);
}

int cavp_run_record(struct cavp_parser *p, const struct cavp_record *rec)
{
	struct cavp_run *r = p->ctx;
	int ok;

	if (r->kind->aes && !aes_engine_supports(r->aes, r->kind->key_bits, r->kind->mode, rec->dir))
		return cavp_set_error(p, CAVP_EUNCLAIMED, 0, "engine %s does not claim aes-%u-%s %s",
				      r->aes->name, r->kind->key_bits, aes_mode_name(r->kind->mode),
				      aes_dir_name(rec->dir));
	switch (r->kind->test) {
	case CAVP_AES_KAT:
	case CAVP_AES_MMT:
		ok = aes_record(r, rec);
		break;
	case CAVP_AES_MCT:
		ok = cavp_aes_mct(r, rec);
		break;
	case CAVP_SHA_MSG:
		ok = sha_record(r, rec);
		break;
	case CAVP_SHA_MONTE:
		if (rec->fields == CAVP_F_SEED) {
			memcpy(r->seed, rec->seed, sizeof(r->seed));
			r->have_seed = true;
			return 0;
		}
		if (!r->have_seed)
			return cavp_set_error(p, CAVP_ESYNTAX, rec->line, "COUNT record before any Seed");
		ok = cavp_sha_monte(r, rec);
		break;
	default:
		return cavp_set_error(p, CAVP_ESYNTAX, rec->line, "unknown test kind");
	}
	if (ok > 0)
		r->passed++;
	else if (ok == 0)
		r->failed++;
	else
		r->skipped++;
	return 0;
}
