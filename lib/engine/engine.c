/* engine: the registry of AES, RNG and hash engines, and names. See engine.h. */
#include "lib/engine/engine.h"

#include <string.h>

static struct {
	const struct aes_engine *aes[ENGINE_MAX_AES];
	const struct rng_source *rng[ENGINE_MAX_RNG];
	const struct hash_engine *hash[ENGINE_MAX_HASH];
	const struct montmul_engine *montmul[ENGINE_MAX_MONTMUL];
	unsigned naes, nrng, nhash, nmontmul;
	const char *emulated[ENGINE_MAX_EMULATED];
	unsigned nemulated;
} reg;

static const unsigned keysize_bits[AES_KEYSIZES] = { 128, 192, 256 };

unsigned aes_keysize_index(unsigned key_bits)
{
	unsigned i;
	for (i = 0; i < AES_KEYSIZES; i++)
		if (keysize_bits[i] == key_bits)
			return i;
	return AES_KEYSIZES;
}

unsigned aes_keysize_bits(unsigned index)
{
	return index < AES_KEYSIZES ? keysize_bits[index] : 0;
}

const char *aes_mode_name(enum aes_mode m)
{
	static const char *const names[AES_MODE_COUNT] = {
		[AES_MODE_ECB] = "ecb", [AES_MODE_CBC] = "cbc", [AES_MODE_CFB128] = "cfb128",
		[AES_MODE_OFB] = "ofb", [AES_MODE_CTR] = "ctr",
	};
	return (unsigned)m < AES_MODE_COUNT ? names[m] : "?";
}

const char *aes_dir_name(enum aes_dir d)
{
	if (d == AES_DIR_ENCRYPT)
		return "encrypt";
	if (d == AES_DIR_DECRYPT)
		return "decrypt";
	return "?";
}

const char *hash_alg_name(enum hash_alg a)
{
	if (a == HASH_SHA1)
		return "sha1";
	if (a == HASH_SHA256)
		return "sha256";
	return "?";
}

size_t hash_digest_bytes(enum hash_alg a)
{
	if (a == HASH_SHA1)
		return 20;	/* FIPS 180-4 1: 160-bit message digest */
	if (a == HASH_SHA256)
		return 32;	/* 256-bit message digest */
	return 0;
}

const char *engine_strerror(int err)
{
	switch (err) {
	case ENGINE_OK:			return "success";
	case ENGINE_EUNSUPPORTED:	return "triple not claimed by the engine";
	case ENGINE_ELEN:		return "bad length";
	case ENGINE_EKEY:		return "bad key size";
	case ENGINE_ETIMEOUT:		return "hardware timeout";
	case ENGINE_EHW:		return "hardware error";
	case ENGINE_EFULL:		return "registry full";
	case ENGINE_ENOMEM:		return "no buffer memory";
	default:			return "unknown error";
	}
}

bool aes_engine_supports(const struct aes_engine *e, unsigned key_bits,
			 enum aes_mode mode, enum aes_dir dir)
{
	unsigned k = aes_keysize_index(key_bits);

	if (!e || k >= AES_KEYSIZES || (unsigned)mode >= AES_MODE_COUNT ||
	    (unsigned)dir >= AES_DIR_COUNT)
		return false;
	return (e->supported[k] & AES_TRIPLE_BIT(mode, dir)) != 0;
}

int aes_engine_oneshot(const struct aes_engine *e, unsigned key_bits, const uint8_t *key,
		       enum aes_mode mode, enum aes_dir dir, uint8_t *iv,
		       const uint8_t *in, uint8_t *out, size_t len)
{
	/* Static: a session is over 1 KiB, too much for some callers' stacks. */
	static struct aes_session s;
	int rc;

	if (!aes_engine_supports(e, key_bits, mode, dir))
		return ENGINE_EUNSUPPORTED;
	if (len % AES_BLOCK_BYTES)
		return ENGINE_ELEN;
	memset(&s, 0, sizeof(s));
	s.engine = e;
	s.key_bits = key_bits;
	rc = e->set_key(&s, key, key_bits);
	if (rc == 0)
		rc = e->crypt(&s, mode, dir, iv, in, out, len);
	e->release(&s);
	return rc;
}

/*
 * Registering the same engine again is a no-op (engine_register_software()
 * may run more than once), so every pointer appears at most once.
 */
int engine_register_aes(const struct aes_engine *e)
{
	unsigned i;
	for (i = 0; i < reg.naes; i++)
		if (reg.aes[i] == e)
			return ENGINE_OK;
	if (reg.naes >= ENGINE_MAX_AES)
		return ENGINE_EFULL;
	reg.aes[reg.naes++] = e;
	return ENGINE_OK;
}

int engine_register_rng(const struct rng_source *r)
{
	unsigned i;
	for (i = 0; i < reg.nrng; i++)
		if (reg.rng[i] == r)
			return ENGINE_OK;
	if (reg.nrng >= ENGINE_MAX_RNG)
		return ENGINE_EFULL;
	reg.rng[reg.nrng++] = r;
	return ENGINE_OK;
}

int engine_register_hash(const struct hash_engine *h)
{
	unsigned i;
	for (i = 0; i < reg.nhash; i++)
		if (reg.hash[i] == h)
			return ENGINE_OK;
	if (reg.nhash >= ENGINE_MAX_HASH)
		return ENGINE_EFULL;
	reg.hash[reg.nhash++] = h;
	return ENGINE_OK;
}

unsigned engine_aes_count(void) { return reg.naes; }
unsigned engine_rng_count(void) { return reg.nrng; }
unsigned engine_hash_count(void) { return reg.nhash; }

const struct aes_engine *engine_aes(unsigned i)
{
	return i < reg.naes ? reg.aes[i] : NULL;
}

const struct rng_source *engine_rng(unsigned i)
{
	return i < reg.nrng ? reg.rng[i] : NULL;
}

const struct hash_engine *engine_hash(unsigned i)
{
	return i < reg.nhash ? reg.hash[i] : NULL;
}

const struct aes_engine *engine_aes_find(const char *name)
{
	unsigned i;
	for (i = 0; i < reg.naes; i++)
		if (strcmp(reg.aes[i]->name, name) == 0)
			return reg.aes[i];
	return NULL;
}

const struct rng_source *engine_rng_find(const char *name)
{
	unsigned i;
	for (i = 0; i < reg.nrng; i++)
		if (strcmp(reg.rng[i]->name, name) == 0)
			return reg.rng[i];
	return NULL;
}

const struct hash_engine *engine_hash_find(const char *name, enum hash_alg alg)
{
	unsigned i;
	for (i = 0; i < reg.nhash; i++)
		if (reg.hash[i]->alg == alg && strcmp(reg.hash[i]->name, name) == 0)
			return reg.hash[i];
	return NULL;
}

int engine_register_montmul(const struct montmul_engine *m)
{
	unsigned i;

	for (i = 0; i < reg.nmontmul; i++)
		if (reg.montmul[i] == m)
			return ENGINE_OK;
	if (reg.nmontmul >= ENGINE_MAX_MONTMUL)
		return ENGINE_EFULL;
	reg.montmul[reg.nmontmul++] = m;
	return 0;
}

unsigned engine_montmul_count(void)
{
	return reg.nmontmul;
}

const struct montmul_engine *engine_montmul(unsigned i)
{
	return i < reg.nmontmul ? reg.montmul[i] : NULL;
}

unsigned engine_montmul_hw_count(void)
{
	unsigned i, n = 0;

	for (i = 0; i < reg.nmontmul; i++)
		if (strcmp(reg.montmul[i]->name, "software") != 0)
			n++;
	return n;
}

void engine_mark_emulated(const char *prefix)
{
	if (reg.nemulated < ENGINE_MAX_EMULATED)
		reg.emulated[reg.nemulated++] = prefix;
}

bool engine_emulated(const char *name)
{
	unsigned i;
	for (i = 0; i < reg.nemulated; i++)
		if (strncmp(name, reg.emulated[i], strlen(reg.emulated[i])) == 0)
			return true;
	return false;
}

void engine_registry_reset(void)
{
	reg.naes = reg.nrng = reg.nhash = reg.nmontmul = 0;	/* the emulated marks stay */
}
