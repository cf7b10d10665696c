/*
 * The software engines: AES (lib/crypto/aes.c) for every key size, mode and
 * direction, SHA-1/SHA-256 (lib/crypto/sha.c, sha_blocks.c) and 1024-bit
 * Montgomery multiplication (lib/crypto/montmul.c). They are the reference
 * the hardware engines are cross-checked against, and always registered.
 */
#include "lib/engine/engine.h"

#include <string.h>

#include "lib/crypto/aes.h"
#include "lib/crypto/montmul.h"
#include "lib/crypto/sha.h"

_Static_assert(sizeof(struct aes_ctx) <= AES_SESSION_PRIV_BYTES,
	       "struct aes_ctx must fit in aes_session.priv");

#define SW_ALL_PAIRS	((1u << (AES_MODE_COUNT * AES_DIR_COUNT)) - 1)

static struct aes_ctx *sw_ctx(struct aes_session *s)
{
	return (struct aes_ctx *)(void *)s->priv;
}

static int sw_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	if (aes_keysize_index(key_bits) >= AES_KEYSIZES)
		return ENGINE_EKEY;
	if (aes_set_key(sw_ctx(s), key, key_bits / 8) != 0)
		return ENGINE_EKEY;
	s->key_bits = key_bits;
	return ENGINE_OK;
}

static int sw_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		    uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	int rc;

	if (len % AES_BLOCK_BYTES)
		return ENGINE_ELEN;
	rc = aes_crypt_mode(sw_ctx(s), mode, dir, iv, in, out, len);
	if (rc == AES_MODE_EUNSUPPORTED)
		return ENGINE_EUNSUPPORTED;
	return rc == AES_MODE_OK ? ENGINE_OK : ENGINE_ELEN;
}

static void sw_release(struct aes_session *s)
{
	aes_wipe(sw_ctx(s));
}

static const struct aes_engine sw_aes = {
	.name = "software",
	.description = "table-driven AES in C on the CPU (lib/crypto/aes.c), the reference",
	.supported = { SW_ALL_PAIRS, SW_ALL_PAIRS, SW_ALL_PAIRS },
	.align = 1,
	.max_len = 0,
	.set_key = sw_set_key,
	.crypt = sw_crypt,
	.release = sw_release,
};

static int sw_sha1(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out)
{
	(void)h;
	sha1(msg, len, out);
	return ENGINE_OK;
}

static int sw_sha256(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out)
{
	(void)h;
	sha256(msg, len, out);
	return ENGINE_OK;
}

static const struct hash_engine sw_sha1_engine = {
	.name = "software",
	.description = "SHA-1 in C on the CPU (lib/crypto/sha.c), the reference",
	.alg = HASH_SHA1,
	.digest = sw_sha1,
};

static const struct hash_engine sw_sha256_engine = {
	.name = "software",
	.description = "SHA-256 in C on the CPU (lib/crypto/sha.c), the reference",
	.alg = HASH_SHA256,
	.digest = sw_sha256,
};

/*
 * count 1024-bit multiplications of the known answer's operands
 * (lib/vectors/montmul_kat.c) with montmul(), final subtraction included:
 * what the PadLock PMM row (drivers/padlock/padlock_pmm.c) is compared with.
 */
static int sw_montmul_op(void *ctx, unsigned bits, uint64_t count)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t r[MONTMUL_KAT_WORDS], tmp[MONTMUL_KAT_WORDS + 2];

	(void)ctx;
	if (bits != 32u * MONTMUL_KAT_WORDS)
		return ENGINE_EUNSUPPORTED;
	for (; count > 0; count--)
		montmul(r, k->a, k->b, k->m, MONTMUL_KAT_WORDS, tmp);
	memset(r, 0, sizeof(r));
	return ENGINE_OK;
}

static const unsigned sw_montmul_bits[] = { 32u * MONTMUL_KAT_WORDS };

static const struct montmul_engine sw_montmul = {
	.name = "software",
	.description = "Montgomery multiplication on the CPU (lib/crypto/montmul, or the path a driver installed), the reference",
	.bits = sw_montmul_bits,
	.nbits = 1,
	.op = sw_montmul_op,
	.path = montmul_path,
};

void engine_register_software(void)
{
	engine_register_aes(&sw_aes);
	engine_register_hash(&sw_sha1_engine);
	engine_register_hash(&sw_sha256_engine);
	engine_register_montmul(&sw_montmul);
}
