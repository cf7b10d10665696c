/*
 * padlock-phe: SHA-1 and SHA-256 through rep xsha1 / rep xsha256 [PG][LSHA].
 *
 * The state buffer (PHE_STATE_BYTES, 16-byte aligned: the microcode uses
 * the space beyond the digest words) holds the hash words as native 32-bit
 * integers; the digest is their big-endian bytes (FIPS 180-4 5.3, 6.1.2,
 * 6.2.2). Two ways to drive the unit:
 *   - one-shot (C7): EAX = bytes already hashed (0), ECX = the whole
 *     length; the unit pads. The message must be passed at once. Never
 *     with ECX = 0: Zhaoxin documents that as no operation and VIA's
 *     behaviour is unknown, so the empty message is hashed in software
 *     (lib/crypto/sha) and the engine's description says so.
 *   - block mode (Nano and later, chosen from the CPU model like Linux):
 *     EAX = -1, ECX = whole 64-byte blocks, no padding; the driver runs the
 *     message's whole blocks in place, then pads the tail in its own buffer
 *     (FIPS 180-4 5.1.1: 0x80, zeros, the 64-bit big-endian bit length).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/engine/engine.h"
#include "lib/crypto/sha.h"
#include "lib/util/fmt.h"
#include "drivers/padlock/padlock_insn.h"
#include "drivers/padlock/padlock_int.h"
#include "drivers/padlock/padlock_reg.h"

static uint32_t phe_state[PHE_STATE_BYTES / 4] __attribute__((aligned(PADLOCK_ALIGN)));
static uint8_t phe_tail[2 * SHA_BLOCK_BYTES] __attribute__((aligned(PADLOCK_ALIGN)));

static int phe_digest(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out);

static struct hash_engine phe_sha1 = {
	.name = "padlock-phe",
	.alg = HASH_SHA1,
	.digest = phe_digest,
};

static struct hash_engine phe_sha256 = {
	.name = "padlock-phe",
	.alg = HASH_SHA256,
	.digest = phe_digest,
};

/* The engines' descriptions, written by padlock_phe_register() for the mode in use. */
static char phe_desc[2][120];

int padlock_phe_register(void)
{
	struct hash_engine *e[2] = { &phe_sha1, &phe_sha256 };
	unsigned i;
	int rc = 0;

	for (i = 0; i < 2 && rc == 0; i++) {
		fmt_snprintf(phe_desc[i], sizeof(phe_desc[i]), "VIA PadLock PHE rep xsha%s, %s",
			     i ? "256" : "1", padlock_dev.phe_block_mode ?
			     "block mode, software padding" :
			     "one-shot (hardware padding; the empty message in software: ECX = 0 is never issued)");
		e[i]->description = phe_desc[i];
		rc = engine_register_hash(e[i]);
	}
	return rc;
}

static void phe_run(enum hash_alg alg, const void *msg, uint32_t done, uint32_t count)
{
	if (alg == HASH_SHA1)
		padlock_xsha1(msg, phe_state, done, count);
	else
		padlock_xsha256(msg, phe_state, done, count);
}

/* Pads the last len % 64 bytes of a len-byte message into phe_tail; returns its blocks. */
static uint32_t phe_pad(const uint8_t *msg, size_t len)
{
	size_t rem = len % SHA_BLOCK_BYTES;
	uint32_t blocks = rem < SHA_BLOCK_BYTES - 8 ? 1 : 2;
	uint64_t bits = (uint64_t)len * 8;
	size_t end = (size_t)blocks * SHA_BLOCK_BYTES;
	unsigned i;

	memset(phe_tail, 0, sizeof(phe_tail));
	memcpy(phe_tail, msg + len - rem, rem);
	phe_tail[rem] = 0x80;
	for (i = 0; i < 8; i++)
		phe_tail[end - 1 - i] = (uint8_t)(bits >> (8 * i));
	return blocks;
}

static int phe_digest(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out)
{
	union {
		struct sha1_ctx c1;
		struct sha256_ctx c256;
	} c;
	bool s1 = h->alg == HASH_SHA1;
	unsigned words = s1 ? 5 : 8, i;
	uint32_t saved, nblocks;

	if ((unsigned)h->alg >= HASH_ALG_COUNT)
		return ENGINE_EUNSUPPORTED;
	if (len == 0 && !padlock_dev.phe_block_mode) {
		/* One-shot with ECX = 0 is undefined on VIA: lib/crypto/sha does it. */
		(s1 ? sha1 : sha256)(msg, 0, out);
		return ENGINE_OK;
	}
	memset(phe_state, 0, sizeof(phe_state));
	/* initial hash values, FIPS 180-4 5.3.1 and 5.3.3 */
	if (s1)
		sha1_init(&c.c1);
	else
		sha256_init(&c.c256);
	memcpy(phe_state, s1 ? c.c1.h : c.c256.h, 4 * words);
	saved = padlock_enter();
	if (!padlock_dev.phe_block_mode) {
		phe_run(h->alg, msg, 0, (uint32_t)len);
	} else {
		nblocks = (uint32_t)(len / SHA_BLOCK_BYTES);
		if (nblocks)
			phe_run(h->alg, msg, PHE_BLOCK_MODE, nblocks);
		nblocks = phe_pad(msg, len);
		phe_run(h->alg, phe_tail, PHE_BLOCK_MODE, nblocks);
	}
	padlock_leave(saved);
	for (i = 0; i < words; i++) {
		out[4 * i] = (uint8_t)(phe_state[i] >> 24);
		out[4 * i + 1] = (uint8_t)(phe_state[i] >> 16);
		out[4 * i + 2] = (uint8_t)(phe_state[i] >> 8);
		out[4 * i + 3] = (uint8_t)phe_state[i];
	}
	memset(phe_state, 0, sizeof(phe_state));
	memset(phe_tail, 0, sizeof(phe_tail));
	return ENGINE_OK;
}
