/*
 * aesni_test: the AES-NI engine (drivers/aesni) and the RDRAND/RDSEED
 * sources (drivers/rdrand) on the host CPU, as TAP version 13.
 *
 *   build/host/aesni_test      (run by tests/drivers/aesni/aesni-host.t)
 *
 * AES: FIPS-197 C.1-C.3 and SP 800-38A F.1 (ECB), F.2 (CBC) and F.5 (CTR)
 * for the three key sizes, both directions, through the "aesni" engine;
 * pseudo-random messages checked against lib/crypto/aes (the software reference)
 * with every remainder of the 8- and 4-block loops, in one call and split
 * in several; the CTR counter carrying across 32, 64 and all 128 bits;
 * unaligned and in-place buffers; the engine's claims and error returns;
 * release() wiping the schedules; probe and absent reasons.
 * RDRAND/RDSEED: the retry logic with a scripted step function (success
 * after 9 failures, ENGINE_EHW with the byte count after 10), then the real
 * instructions when the CPU has them.
 *
 * Without AES-NI on the host the AES part is skipped.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/aesni/aesni.h"
#include "drivers/rdrand/rdrand.h"
#include "lib/crypto/aes.h"
#include "lib/platform/cpuid.h"
#include "lib/host/cpuid_host.h"
#include "lib/engine/engine.h"
#include "lib/util/hex.h"
#include "tests/host/tap_ok.h"

static void diag_hex(const char *label, const uint8_t *p, size_t n)
{
	char text[2 * 256 + 1];
	hex_encode(p, n, text, sizeof(text));
	printf("# %s %s\n", label, text);
}

/* Decodes a hex literal of the vectors below (they are well formed). */
static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	if (hex_decode(s, strlen(s), out, cap, &n, NULL) != 0) {
		printf("Bail out! bad hex literal %s\n", s);
		exit(2);
	}
	return n;
}

/* ---- known answers ---- */

static const char *const sp_key[3] = {
	"2b7e151628aed2a6abf7158809cf4f3c",
	"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
};
static const char sp_plain[] =
	"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
	"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
static const char sp_cbc_iv[] = "000102030405060708090a0b0c0d0e0f";
static const char sp_ctr_iv[] = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
static const char sp_ctr_next[] = "f0f1f2f3f4f5f6f7f8f9fafbfcfdff03";	/* + 4 blocks */

struct sp_vector {
	enum aes_mode mode;
	unsigned ki;		/* key size index */
	const char *cipher;	/* four blocks */
};

static const struct sp_vector sp_vectors[] = {
	{ AES_MODE_ECB, 0, "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
			   "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4" },
	{ AES_MODE_ECB, 1, "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
			   "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e" },
	{ AES_MODE_ECB, 2, "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
			   "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7" },
	{ AES_MODE_CBC, 0, "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
			   "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7" },
	{ AES_MODE_CBC, 1, "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
			   "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd" },
	{ AES_MODE_CBC, 2, "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
			   "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b" },
	{ AES_MODE_CTR, 0, "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
			   "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee" },
	{ AES_MODE_CTR, 1, "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
			   "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050" },
	{ AES_MODE_CTR, 2, "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
			   "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6" },
};

/* FIPS-197 Appendix C: key 000102..., plaintext 00112233...ff. */
static const char fips_plain[] = "00112233445566778899aabbccddeeff";
static const char *const fips_key[3] = {
	"000102030405060708090a0b0c0d0e0f",
	"000102030405060708090a0b0c0d0e0f1011121314151617",
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
};
static const char *const fips_cipher[3] = {
	"69c4e0d86a7b0430d8cdb78070b4c55a",
	"dda97ca4864cdfe06eaf70a0ec0d7191",
	"8ea2b7ca516745bfeafc49904b496089",
};

static struct aes_session sess;

static int engine_run(const uint8_t *key, unsigned key_bits, enum aes_mode mode, enum aes_dir dir,
		      uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	int rc = aesni_engine.set_key(&sess, key, key_bits);
	if (rc == 0)
		rc = aesni_engine.crypt(&sess, mode, dir, iv, in, out, len);
	aesni_engine.release(&sess);
	return rc;
}

static void test_fips197(void)
{
	uint8_t key[32], p[16], c[16], out[16];
	unsigned k;
	int rc;

	unhex(fips_plain, p, sizeof(p));
	for (k = 0; k < 3; k++) {
		size_t kl = unhex(fips_key[k], key, sizeof(key));
		unhex(fips_cipher[k], c, sizeof(c));
		rc = engine_run(key, 8 * kl, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, p, out, 16);
		if (!okf(rc == 0 && memcmp(out, c, 16) == 0, "FIPS-197 C.%u AES-%u encrypt", k + 1,
			   (unsigned)(8 * kl)))
			diag_hex("got", out, 16);
		rc = engine_run(key, 8 * kl, AES_MODE_ECB, AES_DIR_DECRYPT, NULL, c, out, 16);
		if (!okf(rc == 0 && memcmp(out, p, 16) == 0, "FIPS-197 C.%u AES-%u decrypt", k + 1,
			   (unsigned)(8 * kl)))
			diag_hex("got", out, 16);
	}
}

static void test_sp800_38a(void)
{
	uint8_t key[32], p[64], c[64], out[64], iv[16], want_iv[16];
	size_t i, kl;
	unsigned bits;
	int rc, d;

	unhex(sp_plain, p, sizeof(p));
	for (i = 0; i < sizeof(sp_vectors) / sizeof(sp_vectors[0]); i++) {
		const struct sp_vector *v = &sp_vectors[i];
		kl = unhex(sp_key[v->ki], key, sizeof(key));
		bits = (unsigned)(8 * kl);
		unhex(v->cipher, c, sizeof(c));
		for (d = 0; d < 2; d++) {
			enum aes_dir dir = d ? AES_DIR_DECRYPT : AES_DIR_ENCRYPT;
			const uint8_t *in = d ? c : p, *want = d ? p : c;
			uint8_t *ivp = NULL;
			bool iv_ok = true;

			if (v->mode == AES_MODE_CBC) {
				unhex(sp_cbc_iv, iv, sizeof(iv));
				memcpy(want_iv, c + 48, 16);	/* the last ciphertext block */
				ivp = iv;
			} else if (v->mode == AES_MODE_CTR) {
				unhex(sp_ctr_iv, iv, sizeof(iv));
				unhex(sp_ctr_next, want_iv, sizeof(want_iv));
				ivp = iv;
			}
			memset(out, 0, sizeof(out));
			rc = engine_run(key, bits, v->mode, dir, ivp, in, out, 64);
			if (ivp)
				iv_ok = memcmp(iv, want_iv, 16) == 0;
			if (!okf(rc == 0 && memcmp(out, want, 64) == 0 && iv_ok,
				   "SP 800-38A %s-AES%u %s (and the returned IV/counter)",
				   aes_mode_name(v->mode), bits, aes_dir_name(dir))) {
				printf("# rc=%d\n", rc);
				diag_hex("got", out, 64);
				if (ivp)
					diag_hex("iv", iv, 16);
			}
		}
	}
}

/* ---- cross-check against lib/crypto/aes ---- */

static uint32_t rng_state = 0x12345678u;

static uint32_t xorshift(void)
{
	uint32_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

static void fill_random(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)xorshift();
}

/* The software result of (mode, dir) over len bytes; iv updated. */
static void reference(const struct aes_ctx *c, enum aes_mode mode, enum aes_dir dir,
		      uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
	bool enc = dir == AES_DIR_ENCRYPT;
	if (mode == AES_MODE_ECB)
		enc ? aes_ecb_encrypt(c, in, out, len) : aes_ecb_decrypt(c, in, out, len);
	else if (mode == AES_MODE_CBC)
		enc ? aes_cbc_encrypt(c, iv, in, out, len) : aes_cbc_decrypt(c, iv, in, out, len);
	else
		aes_ctr(c, iv, in, out, len);
}

#define XMAX_BLOCKS 41	/* covers 5 x 8-block, a 4-block and every single remainder */

static const enum aes_mode modes[3] = { AES_MODE_ECB, AES_MODE_CBC, AES_MODE_CTR };

static void test_crosscheck(void)
{
	static uint8_t in[XMAX_BLOCKS * 16], out[XMAX_BLOCKS * 16], ref[XMAX_BLOCKS * 16];
	uint8_t key[32], iv[16], riv[16];
	struct aes_ctx ctx;
	unsigned k, m, d, blocks, bad, runs;
	int rc;

	for (k = 0; k < 3; k++)
		for (m = 0; m < 3; m++)
			for (d = 0; d < 2; d++) {
				unsigned bits = aes_keysize_bits(k);
				bad = runs = 0;
				for (blocks = 0; blocks <= XMAX_BLOCKS; blocks++) {
					size_t len = 16 * (size_t)blocks;
					fill_random(key, sizeof(key));
					fill_random(iv, sizeof(iv));
					fill_random(in, len);
					memcpy(riv, iv, 16);
					aes_set_key(&ctx, key, bits / 8);
					reference(&ctx, modes[m], d, riv, in, ref, len);
					rc = engine_run(key, bits, modes[m], d,
							modes[m] == AES_MODE_ECB ? NULL : iv, in, out, len);
					runs++;
					if (rc != 0 || memcmp(out, ref, len) != 0 ||
					    (modes[m] != AES_MODE_ECB && memcmp(iv, riv, 16) != 0)) {
						if (bad++ == 0)
							printf("# first mismatch at %u blocks, rc=%d\n", blocks, rc);
					}
				}
				aes_wipe(&ctx);
				okf(bad == 0, "AES-%u %s %s matches lib/crypto/aes for 0..%u blocks (%u runs, %u bad)",
				      bits, aes_mode_name(modes[m]), aes_dir_name(d), XMAX_BLOCKS, runs, bad);
			}
}

/* One session, the message split at pseudo-random block boundaries. */
static void test_split_calls(void)
{
	static uint8_t in[XMAX_BLOCKS * 16], out[XMAX_BLOCKS * 16], ref[XMAX_BLOCKS * 16];
	uint8_t key[32], iv[16], riv[16];
	struct aes_ctx ctx;
	unsigned k, m, d;
	size_t len = sizeof(in), pos, step;
	int rc;

	for (k = 0; k < 3; k++)
		for (m = 1; m < 3; m++)
			for (d = 0; d < 2; d++) {
				unsigned bits = aes_keysize_bits(k);
				fill_random(key, sizeof(key));
				fill_random(iv, sizeof(iv));
				fill_random(in, len);
				memcpy(riv, iv, 16);
				aes_set_key(&ctx, key, bits / 8);
				reference(&ctx, modes[m], d, riv, in, ref, len);
				aes_wipe(&ctx);
				rc = aesni_engine.set_key(&sess, key, bits);
				for (pos = 0; rc == 0 && pos < len; pos += step) {
					step = 16 * (1 + xorshift() % 11);
					if (step > len - pos)
						step = len - pos;
					rc = aesni_engine.crypt(&sess, modes[m], d, iv, in + pos, out + pos, step);
				}
				aesni_engine.release(&sess);
				okf(rc == 0 && memcmp(out, ref, len) == 0 && memcmp(iv, riv, 16) == 0,
				      "AES-%u %s %s split over several calls continues the stream",
				      bits, aes_mode_name(modes[m]), aes_dir_name(d));
			}
}

/* ---- CTR counter carry ---- */

static void test_ctr_carry(void)
{
	static const struct {
		const char *start;	/* counter block before 20 blocks */
		const char *what;
	} cases[] = {
		{ "000000000000000000000000fffffff6", "carry out of the low 32 bits" },
		{ "0000000000000000fffffffffffffff6", "carry from the low into the high 64 bits" },
		{ "fffffffffffffffffffffffffffffff6", "wrap from 2^128-1 to 0" },
		{ "00ff00fffffffffffffffffffffffffe", "carry through bytes 3-15 into byte 2" },
	};
	uint8_t key[16], ctr[16], ref_ctr[16], after[16], in[20 * 16], out[20 * 16], ref[20 * 16];
	uint8_t block[16], ks[16];
	struct aes_ctx ctx;
	unsigned i, b;
	int rc;
	bool ok;

	fill_random(key, sizeof(key));
	aes_set_key(&ctx, key, sizeof(key));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unhex(cases[i].start, ctr, sizeof(ctr));
		memcpy(ref_ctr, ctr, 16);
		fill_random(in, sizeof(in));
		aes_ctr(&ctx, ref_ctr, in, ref, sizeof(in));
		rc = engine_run(key, 128, AES_MODE_CTR, AES_DIR_ENCRYPT, ctr, in, out, sizeof(in));
		ok = rc == 0 && memcmp(out, ref, sizeof(in)) == 0 && memcmp(ctr, ref_ctr, 16) == 0;
		/* Independently of lib/crypto/aes: block b is in ^ E(start + b), big-endian. */
		unhex(cases[i].start, block, sizeof(block));
		for (b = 0; b < 20 && ok; b++) {
			int j;
			aes_encrypt_block(&ctx, block, ks);
			for (j = 0; j < 16; j++)
				ok = ok && (uint8_t)(in[16 * b + j] ^ ks[j]) == out[16 * b + j];
			for (j = 15; j >= 0 && ++block[j] == 0; j--)
				;
		}
		memcpy(after, block, 16);
		ok = ok && memcmp(ctr, after, 16) == 0;
		if (!okf(ok, "CTR counter %s (%s + 20 blocks)", cases[i].what, cases[i].start))
			diag_hex("counter", ctr, 16);
	}
	aes_wipe(&ctx);
}

/* ---- alignment, in place, partial CTR ---- */

static void test_alignment(void)
{
	static uint8_t raw_in[16 * 24 + 32], raw_out[16 * 24 + 32], ref[16 * 24];
	uint8_t key[32], iv[16], riv[16];
	struct aes_ctx ctx;
	unsigned m, d, off, bad = 0, inplace_bad = 0;
	size_t len = 16 * 23;
	int rc;

	fill_random(key, sizeof(key));
	aes_set_key(&ctx, key, 32);
	for (m = 0; m < 3; m++)
		for (d = 0; d < 2; d++)
			for (off = 0; off < 16; off++) {
				uint8_t *in = raw_in + off, *out = raw_out + (15 - off) + 1;
				fill_random(in, len);
				fill_random(iv, 16);
				memcpy(riv, iv, 16);
				reference(&ctx, modes[m], d, riv, in, ref, len);
				rc = aesni_engine.set_key(&sess, key, 256);
				rc = rc ? rc : aesni_engine.crypt(&sess, modes[m], d, iv, in, out, len);
				if (rc || memcmp(out, ref, len) != 0 || memcmp(iv, riv, 16) != 0)
					bad++;
				/* In place, at the same offset. */
				fill_random(in, len);
				memcpy(out, in, len);
				fill_random(iv, 16);
				memcpy(riv, iv, 16);
				reference(&ctx, modes[m], d, riv, in, ref, len);
				rc = aesni_engine.crypt(&sess, modes[m], d, iv, out, out, len);
				if (rc || memcmp(out, ref, len) != 0 || memcmp(iv, riv, 16) != 0)
					inplace_bad++;
				aesni_engine.release(&sess);
			}
	aes_wipe(&ctx);
	okf(bad == 0, "unaligned input and output buffers, offsets 0..15, all modes (%u bad)", bad);
	okf(inplace_bad == 0, "in place (in == out), offsets 0..15, all modes (%u bad)", inplace_bad);
}

/* A session whose schedule sits at an address that is not 16-aligned. */
static void test_misaligned_schedule(void)
{
	static uint8_t raw[sizeof(struct aesni_key) * 2 + 64];
	struct aesni_key *enc = (struct aesni_key *)(void *)(raw + 8);	/* deliberately 8 mod 16 */
	struct aesni_key *dec = enc + 1;
	uint8_t key[24], in[16 * 13], out[16 * 13], back[16 * 13], ref[16 * 13];
	struct aes_ctx ctx;

	if (((uintptr_t)enc & 15) == 0)
		enc = (struct aesni_key *)(void *)(raw + 24);
	fill_random(key, sizeof(key));
	fill_random(in, sizeof(in));
	aes_set_key(&ctx, key, sizeof(key));
	aes_ecb_encrypt(&ctx, in, ref, sizeof(in));
	aes_wipe(&ctx);
	aesni_expand_key(enc, dec, key, 192);
	aesni_ecb_encrypt(enc, in, out, sizeof(in));
	aesni_ecb_decrypt(dec, out, back, sizeof(in));
	okf(memcmp(out, ref, sizeof(in)) == 0 && memcmp(back, in, sizeof(in)) == 0,
	      "schedules at an address 8 mod 16 work (unaligned key loads)");
}

static void test_ctr_partial(void)
{
	uint8_t key[16], ctr[16], rctr[16], in[37], out[37], ref[37];
	struct aesni_key enc;
	struct aes_ctx ctx;

	fill_random(key, sizeof(key));
	fill_random(ctr, sizeof(ctr));
	fill_random(in, sizeof(in));
	memcpy(rctr, ctr, 16);
	aes_set_key(&ctx, key, 16);
	aes_ctr(&ctx, rctr, in, ref, sizeof(in));
	aes_wipe(&ctx);
	aesni_expand_key(&enc, NULL, key, 128);
	aesni_ctr(&enc, ctr, in, out, sizeof(in));
	aesni_wipe_key(&enc);
	okf(memcmp(out, ref, sizeof(in)) == 0 && memcmp(ctr, rctr, 16) == 0,
	      "aesni_ctr on 37 bytes: partial last block and counter as lib/crypto/aes");
}

/* ---- the engine's claims and errors ---- */

static void test_engine_contract(void)
{
	uint8_t key[32] = { 0 }, buf[32] = { 0 }, iv[16] = { 0 };
	unsigned k, m, d;
	bool claims_ok = true, wiped = true;
	size_t i;

	for (k = 0; k < 3; k++)
		for (m = 0; m < AES_MODE_COUNT; m++)
			for (d = 0; d < 2; d++) {
				bool want = m == AES_MODE_ECB || m == AES_MODE_CBC || m == AES_MODE_CTR;
				if (aes_engine_supports(&aesni_engine, aes_keysize_bits(k), m, d) != want)
					claims_ok = false;
			}
	okf(claims_ok && strcmp(aesni_engine.name, "aesni") == 0 && aesni_engine.align == 1 &&
	      !engine_emulated(aesni_engine.name),
	      "engine \"aesni\" claims exactly ECB, CBC, CTR x encrypt, decrypt x 128, 192, 256");

	okf(aesni_engine.set_key(&sess, key, 64) == ENGINE_EKEY &&
	      aesni_engine.set_key(&sess, key, 0) == ENGINE_EKEY,
	      "set_key rejects 64- and 0-bit keys with ENGINE_EKEY");
	aesni_engine.set_key(&sess, key, 128);
	okf(aesni_engine.crypt(&sess, AES_MODE_CBC, AES_DIR_ENCRYPT, iv, buf, buf, 17) == ENGINE_ELEN,
	      "crypt rejects a length that is not a multiple of 16 with ENGINE_ELEN");
	okf(aesni_engine.crypt(&sess, AES_MODE_OFB, AES_DIR_ENCRYPT, iv, buf, buf, 16) ==
		      ENGINE_EUNSUPPORTED &&
	      aesni_engine.crypt(&sess, AES_MODE_CFB128, AES_DIR_DECRYPT, iv, buf, buf, 16) ==
		      ENGINE_EUNSUPPORTED,
	      "crypt refuses OFB and CFB128 (not claimed) with ENGINE_EUNSUPPORTED");
	okf(aesni_engine.crypt(&sess, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, buf, buf, 0) == 0,
	      "crypt accepts an empty message");

	fill_random(key, sizeof(key));
	aesni_engine.set_key(&sess, key, 256);
	aesni_engine.release(&sess);
	for (i = 0; i < sizeof(sess.priv); i++)
		if (sess.priv[i] != 0)
			wiped = false;
	okf(wiped, "release() zeroes the session private area (both schedules)");
}

/* ---- probe ---- */

static void test_probe(const struct cpu_info *host)
{
	struct cpu_info c;
	const char *why;

	memset(&c, 0, sizeof(c));
	engine_registry_reset();
	c.sse2 = true;
	why = aesni_probe(&c);
	okf(why && strcmp(why, "CPUID.1:ECX.AES is clear") == 0 && !engine_aes_find("aesni"),
	      "no AES-NI: engine not registered, reason \"%s\"", why ? why : "(null)");
	c.aesni = true;
	c.sse2 = false;
	why = aesni_probe(&c);
	okf(why && strcmp(why, "CPUID.1:EDX.SSE2 is clear") == 0 && !engine_aes_find("aesni"),
	      "AES-NI without SSE2: engine not registered, reason \"%s\"", why ? why : "(null)");
	c.sse2 = true;
	why = aesni_probe(&c);
	okf(!why && engine_aes_find("aesni") == &aesni_engine,
	      "AES-NI and SSE2: engine registered as \"aesni\"");
	engine_registry_reset();
	why = aesni_probe(host);
	okf((host->aesni && host->sse2) == (why == NULL),
	      "probe on this host's CPUID (aesni=%d sse2=%d): %s", host->aesni, host->sse2,
	      why ? why : "registered");

	memset(&c, 0, sizeof(c));
	engine_registry_reset();
	rdrand_probe(&c);
	okf(!engine_rng_find("rdrand") && !engine_rng_find("rdseed") &&
	      strcmp(rdrand_absent_reason(&c), "CPUID.1:ECX.RDRAND is clear") == 0 &&
	      strcmp(rdseed_absent_reason(&c), "CPUID.(EAX=7,ECX=0):EBX.RDSEED is clear") == 0,
	      "no RDRAND/RDSEED: no source registered, reasons given");
	c.rdrand = true;
	rdrand_probe(&c);
	okf(engine_rng_find("rdrand") == &rdrand_source && !engine_rng_find("rdseed"),
	      "RDRAND only: \"rdrand\" registered, \"rdseed\" not");
	engine_registry_reset();
	c.rdseed = true;
	rdrand_probe(&c);
	okf(engine_rng_find("rdrand") && engine_rng_find("rdseed") == &rdseed_source,
	      "RDRAND and RDSEED: both registered");
	engine_registry_reset();
}

/* ---- RDRAND / RDSEED ---- */

/* Scripted step: fails `fail_first` times per word before succeeding, and
 * after `words_ok` good words fails for ever. */
static struct {
	unsigned fail_first, words_ok, fails_this_word, words, calls;
} script;

static bool scripted_step(uint32_t *val)
{
	script.calls++;
	if (script.words >= script.words_ok || script.fails_this_word < script.fail_first) {
		script.fails_this_word++;
		*val = 0;
		return false;
	}
	script.fails_this_word = 0;
	*val = 0x03020100u + 0x04040404u * script.words++;
	return true;
}

static void script_reset(unsigned fail_first, unsigned words_ok)
{
	memset(&script, 0, sizeof(script));
	script.fail_first = fail_first;
	script.words_ok = words_ok;
}

static void test_rng_retry(void)
{
	uint8_t buf[64];
	struct rdrand_stats st;
	size_t got = 999, i;
	bool seq = true;
	int rc;

	script_reset(RDRAND_RETRIES - 1, 1000);
	memset(&st, 0, sizeof(st));
	rc = rdrand_fill_with(scripted_step, 3, &st, buf, 19, &got);
	for (i = 0; i < 19; i++)
		seq = seq && buf[i] == i;
	okf(rc == ENGINE_OK && got == 19 && seq && st.words == 5 &&
	      st.failures == 5 * (RDRAND_RETRIES - 1) && st.longest_run == RDRAND_RETRIES - 1,
	      "9 failures then success on every word: 19 bytes delivered in order (rc=%d got=%zu)",
	      rc, got);

	script_reset(0, 3);
	memset(&st, 0, sizeof(st));
	got = 999;
	rc = rdrand_fill_with(scripted_step, 0, &st, buf, 64, &got);
	okf(rc == ENGINE_EHW && got == 12 && script.calls == 3 + RDRAND_RETRIES &&
	      st.longest_run == RDRAND_RETRIES,
	      "10 failures in a row after 12 bytes: ENGINE_EHW, *got = 12, exactly 10 tries (rc=%d got=%zu calls=%u)",
	      rc, got, script.calls - 3);

	script_reset(0, 0);
	got = 999;
	rc = rdrand_fill_with(scripted_step, 0, NULL, buf, 4, &got);
	okf(rc == ENGINE_EHW && got == 0, "a dead source on the first word: ENGINE_EHW, *got = 0");
}

static bool all_same_words(const uint8_t *p, size_t n)
{
	size_t i;
	for (i = 4; i + 4 <= n; i += 4)
		if (memcmp(p, p + i, 4) != 0)
			return false;
	return true;
}

static void test_rng_hw(const struct cpu_info *host)
{
	uint8_t a[256], b[256];
	size_t got = 0, got2 = 0;
	int rc, rc2;

	if (!host->rdrand) {
		ok_skip(rdrand_absent_reason(host), "RDRAND delivers 256 bytes");
	} else {
		rc = rdrand_source.read(&rdrand_source, a, sizeof(a), &got);
		rc2 = rdrand_fill(b, sizeof(b), &got2);
		okf(rc == 0 && got == sizeof(a) && rc2 == 0 && got2 == sizeof(b) &&
		      memcmp(a, b, sizeof(a)) != 0 && !all_same_words(a, sizeof(a)),
		      "RDRAND delivers 256 bytes twice, different, not one repeated word");
	}
	if (!host->rdseed) {
		ok_skip(rdseed_absent_reason(host), "RDSEED delivers 256 bytes");
	} else {
		rc = rdseed_source.read(&rdseed_source, a, sizeof(a), &got);
		okf(rc == 0 && got == sizeof(a) && !all_same_words(a, sizeof(a)),
		      "RDSEED delivers 256 bytes, not one repeated word");
	}
}

int main(void)
{
	struct cpu_info host;

	printf("TAP version 13\n");
	cpuid_decode(&host, host_cpuid, NULL);
	test_rng_retry();
	test_probe(&host);
	test_rng_hw(&host);
	if (aesni_absent_reason(&host)) {
		ok_skip(aesni_absent_reason(&host), "AES-NI known answers and cross-checks");
	} else {
		test_engine_contract();
		test_fips197();
		test_sp800_38a();
		test_crosscheck();
		test_split_calls();
		test_ctr_carry();
		test_alignment();
		test_misaligned_schedule();
		test_ctr_partial();
	}
	return tap_plan();
}
