/*
 * The known-answer vectors, typed in from the standards (see kat.h), and
 * their decoding into struct kat_aes_vector.
 */
#include "lib/vectors/kat.h"

#include <string.h>

#include "lib/util/fmt.h"
#include "lib/util/hex.h"

/* ---- FIPS-197 Appendix C: Example Vectors ---- */

/* C.1-C.3 keys are the first 16, 24 or 32 bytes 00 01 02 ... 1f. */
static const char fips197_plaintext[] = "00112233445566778899aabbccddeeff";
static const char *const fips197_ciphertext[AES_KEYSIZES] = {
	"69c4e0d86a7b0430d8cdb78070b4c55a",	/* C.1 AES-128 */
	"dda97ca4864cdfe06eaf70a0ec0d7191",	/* C.2 AES-192 */
	"8ea2b7ca516745bfeafc49904b496089",	/* C.3 AES-256 */
};

/* ---- SP 800-38A Appendix F: Example Vectors for Modes of Operation ---- */

static const char *const sp800_38a_key[AES_KEYSIZES] = {
	"2b7e151628aed2a6abf7158809cf4f3c",
	"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
};

static const char sp800_38a_plaintext[] =
	"6bc1bee22e409f96e93d7e117393172a"
	"ae2d8a571e03ac9c9eb76fac45af8e51"
	"30c81c46a35ce411e5fbc1191a0a52ef"
	"f69f2445df4f9b17ad2b417be66c3710";

/* The IV of F.2-F.4 and the initial counter block of F.5. */
static const char sp800_38a_iv[] = "000102030405060708090a0b0c0d0e0f";
static const char sp800_38a_counter[] = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* Section of Appendix F per mode, and the number of the first example
 * (AES-128 encrypt) within it; CFB1 and CFB8 come before CFB128 in F.3. */
static const unsigned sp800_38a_section[AES_MODE_COUNT] = { 1, 2, 3, 4, 5 };
static const unsigned sp800_38a_first[AES_MODE_COUNT] = { 1, 1, 13, 1, 1 };

static const char *const sp800_38a_ciphertext[AES_MODE_COUNT][AES_KEYSIZES] = {
	[AES_MODE_ECB] = {
		/* F.1.1 ECB-AES128 */
		"3ad77bb40d7a3660a89ecaf32466ef97" "f5d3d58503b9699de785895a96fdbaaf"
		"43b1cd7f598ece23881b00e3ed030688" "7b0c785e27e8ad3f8223207104725dd4",
		/* F.1.3 ECB-AES192 */
		"bd334f1d6e45f25ff712a214571fa5cc" "974104846d0ad3ad7734ecb3ecee4eef"
		"ef7afd2270e2e60adce0ba2face6444e" "9a4b41ba738d6c72fb16691603c18e0e",
		/* F.1.5 ECB-AES256 */
		"f3eed1bdb5d2a03c064b5a7e3db181f8" "591ccb10d410ed26dc5ba74a31362870"
		"b6ed21b99ca6f4f9f153e7b1beafed1d" "23304b7a39f9f3ff067d8d8f9e24ecc7",
	},
	[AES_MODE_CBC] = {
		/* F.2.1 CBC-AES128 */
		"7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
		"73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7",
		/* F.2.3 CBC-AES192 */
		"4f021db243bc633d7178183a9fa071e8" "b4d9ada9ad7dedf4e5e738763f69145a"
		"571b242012fb7ae07fa9baac3df102e0" "08b0e27988598881d920a9e64f5615cd",
		/* F.2.5 CBC-AES256 */
		"f58c4c04d6e5f1ba779eabfb5f7bfbd6" "9cfc4e967edb808d679f777bc6702c7d"
		"39f23369a9d9bacfa530e26304231461" "b2eb05e2c39be9fcda6c19078c6a9d1b",
	},
	[AES_MODE_CFB128] = {
		/* F.3.13 CFB128-AES128 */
		"3b3fd92eb72dad20333449f8e83cfb4a" "c8a64537a0b3a93fcde3cdad9f1ce58b"
		"26751f67a3cbb140b1808cf187a4f4df" "c04b05357c5d1c0eeac4c66f9ff7f2e6",
		/* F.3.15 CFB128-AES192 */
		"cdc80d6fddf18cab34c25909c99a4174" "67ce7f7f81173621961a2b70171d3d7a"
		"2e1e8a1dd59b88b1c8e60fed1efac4c9" "c05f9f9ca9834fa042ae8fba584b09ff",
		/* F.3.17 CFB128-AES256 */
		"dc7e84bfda79164b7ecd8486985d3860" "39ffed143b28b1c832113c6331e5407b"
		"df10132415e54b92a13ed0a8267ae2f9" "75a385741ab9cef82031623d55b1e471",
	},
	[AES_MODE_OFB] = {
		/* F.4.1 OFB-AES128 */
		"3b3fd92eb72dad20333449f8e83cfb4a" "7789508d16918f03f53c52dac54ed825"
		"9740051e9c5fecf64344f7a82260edcc" "304c6528f659c77866a510d9c1d6ae5e",
		/* F.4.3 OFB-AES192 */
		"cdc80d6fddf18cab34c25909c99a4174" "fcc28b8d4c63837c09e81700c1100401"
		"8d9a9aeac0f6596f559c6d4daf59a5f2" "6d9f200857ca6c3e9cac524bd9acc92a",
		/* F.4.5 OFB-AES256 */
		"dc7e84bfda79164b7ecd8486985d3860" "4febdc6740d20b3ac88f6ad82a4fb08d"
		"71ab47a086e86eedf39d1c5bba97c408" "0126141d67f37be8538f5a8be740e484",
	},
	[AES_MODE_CTR] = {
		/* F.5.1 CTR-AES128 */
		"874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
		"5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee",
		/* F.5.3 CTR-AES192 */
		"1abc932417521ca24f2b0459fe7e6e0b" "090339ec0aa6faefd5ccc2c6f4ce8e94"
		"1e36b26bd1ebc670d1bd1d665620abf7" "4f78a7f6d29809585a97daec58c6b050",
		/* F.5.5 CTR-AES256 */
		"601ec313775789a5b7a7f504bbf3d228" "f443e3ca4d62b59aca84e990cacaf5c5"
		"2b0930daa23de94ce87017ba2d84988d" "dfc9c58db67aada613c2dd08457941a6",
	},
};

/* ---- FIPS 180-2 Appendix A (SHA-1) and B (SHA-256) examples ---- */

#define MSG_ABC		"abc"
#define MSG_448		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

static const struct kat_hash_vector hash_vectors[HASH_ALG_COUNT][KAT_HASH_PER_ALG] = {
	[HASH_SHA1] = {
		{ "A.1", "\"abc\"", HASH_SHA1, MSG_ABC, 1,
		  "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "A.2", "448-bit two-block message", HASH_SHA1, MSG_448, 1,
		  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
		{ "A.3", "one million 'a'", HASH_SHA1, "a", KAT_MILLION_A,
		  "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
	},
	[HASH_SHA256] = {
		{ "B.1", "\"abc\"", HASH_SHA256, MSG_ABC, 1,
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "B.2", "448-bit two-block message", HASH_SHA256, MSG_448, 1,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "B.3", "one million 'a'", HASH_SHA256, "a", KAT_MILLION_A,
		  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	},
};

/* Decodes a vector constant (known good: a failure here is a typo). */
static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	if (hex_decode(s, strlen(s), out, cap, &n, NULL) != 0)
		return 0;
	return n;
}

static bool valid_triple(unsigned key_bits, enum aes_mode mode, enum aes_dir dir)
{
	return aes_keysize_index(key_bits) < AES_KEYSIZES &&
	       (unsigned)mode < AES_MODE_COUNT && (unsigned)dir < AES_DIR_COUNT;
}

/* Sets in/out from the plaintext and ciphertext for the direction. */
static void set_io(struct kat_aes_vector *v, const uint8_t *pt, const uint8_t *ct, size_t len)
{
	bool enc = v->dir == AES_DIR_ENCRYPT;
	memcpy(v->in, enc ? pt : ct, len);
	memcpy(v->out, enc ? ct : pt, len);
	v->len = len;
}

static void fips197_vector(unsigned k, enum aes_mode mode, enum aes_dir dir,
			   struct kat_aes_vector *v)
{
	uint8_t pt[AES_BLOCK_BYTES], ct[AES_BLOCK_BYTES], zero[AES_BLOCK_BYTES];
	unsigned i;

	memset(v, 0, sizeof(*v));
	fmt_snprintf(v->name, sizeof(v->name), "C.%u", k + 1);
	v->source = "FIPS-197";
	v->key_bits = aes_keysize_bits(k);
	v->mode = mode;
	v->dir = dir;
	for (i = 0; i < v->key_bits / 8; i++)
		v->key[i] = (uint8_t)i;
	unhex(fips197_plaintext, pt, sizeof(pt));
	unhex(fips197_ciphertext[k], ct, sizeof(ct));
	memset(zero, 0, sizeof(zero));
	if (mode == AES_MODE_ECB || mode == AES_MODE_CBC) {
		/* One block; CBC with a zero IV is then the cipher itself. */
		set_io(v, pt, ct, AES_BLOCK_BYTES);
	} else {
		/* CFB128, OFB, CTR: output = message XOR CIPH(IV), so with the
		 * FIPS-197 plaintext as IV a zero message encrypts to CIPH(pt). */
		memcpy(v->iv, pt, AES_BLOCK_BYTES);
		set_io(v, zero, ct, AES_BLOCK_BYTES);
	}
}

static void sp800_38a_vector(unsigned k, enum aes_mode mode, enum aes_dir dir,
			     struct kat_aes_vector *v)
{
	uint8_t pt[KAT_AES_MAX_BYTES], ct[KAT_AES_MAX_BYTES];
	size_t len;

	memset(v, 0, sizeof(*v));
	/* Examples run AES-128 encrypt, decrypt, AES-192 encrypt, ... */
	fmt_snprintf(v->name, sizeof(v->name), "F.%u.%u", sp800_38a_section[mode],
		     sp800_38a_first[mode] + 2 * k + (dir == AES_DIR_DECRYPT));
	v->source = "SP 800-38A";
	v->key_bits = aes_keysize_bits(k);
	v->mode = mode;
	v->dir = dir;
	unhex(sp800_38a_key[k], v->key, sizeof(v->key));
	if (mode == AES_MODE_CTR)
		unhex(sp800_38a_counter, v->iv, sizeof(v->iv));
	else if (mode != AES_MODE_ECB)
		unhex(sp800_38a_iv, v->iv, sizeof(v->iv));
	len = unhex(sp800_38a_plaintext, pt, sizeof(pt));
	unhex(sp800_38a_ciphertext[mode][k], ct, sizeof(ct));
	set_io(v, pt, ct, len);
}

unsigned kat_aes_vectors(unsigned key_bits, enum aes_mode mode, enum aes_dir dir,
			 struct kat_aes_vector *v, unsigned max)
{
	unsigned k = aes_keysize_index(key_bits);

	if (!valid_triple(key_bits, mode, dir) || max < KAT_AES_PER_TRIPLE)
		return 0;
	fips197_vector(k, mode, dir, &v[0]);
	sp800_38a_vector(k, mode, dir, &v[1]);
	return KAT_AES_PER_TRIPLE;
}

char *kat_aes_sources(unsigned key_bits, enum aes_mode mode, enum aes_dir dir,
		      char *buf, size_t n)
{
	unsigned k = aes_keysize_index(key_bits);

	if (!valid_triple(key_bits, mode, dir)) {
		fmt_snprintf(buf, n, "no vectors");
		return buf;
	}
	fmt_snprintf(buf, n, "FIPS-197 C.%u, SP 800-38A F.%u.%u", k + 1, sp800_38a_section[mode],
		     sp800_38a_first[mode] + 2 * k + (dir == AES_DIR_DECRYPT));
	return buf;
}

const struct kat_hash_vector *kat_hash_vectors(enum hash_alg alg, unsigned *n)
{
	if ((unsigned)alg >= HASH_ALG_COUNT) {
		*n = 0;
		return NULL;
	}
	*n = KAT_HASH_PER_ALG;
	return hash_vectors[alg];
}

char *kat_hash_sources(enum hash_alg alg, char *buf, size_t n)
{
	unsigned cnt;
	const struct kat_hash_vector *v = kat_hash_vectors(alg, &cnt);

	if (!v)
		fmt_snprintf(buf, n, "no vectors");
	else
		fmt_snprintf(buf, n, "FIPS 180-2 %s-%s", v[0].name, v[cnt - 1].name);
	return buf;
}
