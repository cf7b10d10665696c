/*
 * vperm_test: the vector-permute AES engine (drivers/vperm) built for i386
 * and run under qemu-i386 -cpu max (SSSE3), as TAP version 13
 * (tests/drivers/vperm/vperm-i386.t).
 *
 * FIPS-197 C.1-C.3 in both directions through the engine; every mode,
 * direction and key size against lib/crypto/aes (the software reference)
 * on pseudo-random data of 1 to 33 blocks, in one call and split in two
 * (the chaining value carried between calls), in place and unaligned; the
 * S-box itself (all 256 inputs through ECB with a zero key, whose first
 * round key is zero: the tables' edge cases, 0 and the other zero
 * nibbles, are all in there); the CTR counter carrying across 32, 64 and
 * 128 bits; the engine's claims, errors and release() wiping the key; the
 * absent reason on a CPU without SSSE3.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drivers/vperm/vperm.h"
#include "lib/crypto/aes.h"
#include "lib/crypto/aes_mode.h"
#include "lib/crypto/aes_tables.h"
#include "lib/engine/engine.h"
#include "lib/util/hex.h"
#include "tests/host/tap_ok.h"

static void unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;

	hex_decode(s, strlen(s), out, cap, &n, NULL);
}

static struct aes_session sess;

static void test_fips197(void)
{
	static const char *const key[3] = {
		"000102030405060708090a0b0c0d0e0f",
		"000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	};
	static const char *const ct[3] = {
		"69c4e0d86a7b0430d8cdb78070b4c55a",
		"dda97ca4864cdfe06eaf70a0ec0d7191",
		"8ea2b7ca516745bfeafc49904b496089",
	};
	uint8_t k[32], pt[16], want[16], out[16], back[16];
	unsigned i;

	unhex("00112233445566778899aabbccddeeff", pt, sizeof(pt));
	for (i = 0; i < 3; i++) {
		unsigned bits = 128 + 64 * i;

		unhex(key[i], k, sizeof(k));
		unhex(ct[i], want, sizeof(want));
		memset(out, 0, sizeof(out));
		memset(back, 0, sizeof(back));
		okf(vperm_engine.set_key(&sess, k, bits) == 0 &&
		    vperm_engine.crypt(&sess, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, pt, out, 16) == 0 &&
		    memcmp(out, want, 16) == 0 &&
		    vperm_engine.crypt(&sess, AES_MODE_ECB, AES_DIR_DECRYPT, NULL, out, back, 16) == 0 &&
		    memcmp(back, pt, 16) == 0,
		    "vperm: FIPS-197 C.%u AES-%u encrypts to the known answer and decrypts back", i + 1, bits);
		vperm_engine.release(&sess);
	}
}

/* S-box: ECB with the zero key; the first round key is zero, so the state
 * entering round 1 is each input byte itself: 256 blocks cover every byte
 * value in every position of the state, against the software engine. */
static void test_all_bytes(void)
{
	static uint8_t in[4096], want[4096], got[4096];
	uint8_t key[32] = { 0 };
	struct aes_ctx c;
	unsigned i, bits, bad = 0;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i / 16 + i % 16 * 17);
	for (bits = 128; bits <= 256; bits += 64) {
		aes_set_key(&c, key, bits / 8);
		aes_ecb_encrypt(&c, in, want, sizeof(in));
		vperm_engine.set_key(&sess, key, bits);
		vperm_engine.crypt(&sess, AES_MODE_ECB, AES_DIR_ENCRYPT, NULL, in, got, sizeof(in));
		bad += memcmp(got, want, sizeof(in)) != 0;
		vperm_engine.crypt(&sess, AES_MODE_ECB, AES_DIR_DECRYPT, NULL, want, got, sizeof(in));
		bad += memcmp(got, in, sizeof(in)) != 0;
		vperm_engine.release(&sess);
	}
	okf(bad == 0, "vperm: every byte value in every state position, zero keys of 128/192/256 bits, both directions (%u mismatches)", bad);
}

static uint32_t rng_state = 0x9e3779b9u;

static uint8_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return (uint8_t)rng_state;
}

static void fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

/*
 * Every mode, direction and key size against lib/crypto/aes's
 * aes_crypt_mode(): lengths 1..33 blocks, one call and two (split at a
 * pseudo-random block), in place, and buffers at offset 1.
 */
static void test_crosscheck(void)
{
	static uint8_t buf_in[33 * 16 + 1], want[33 * 16], got[33 * 16 + 1];
	uint8_t key[32], iv0[16], iv_want[16], iv_got[16];
	unsigned bits, m, d, blocks, variant, bad = 0, runs = 0;
	struct aes_ctx c;

	for (bits = 128; bits <= 256; bits += 64) {
		fill(key, sizeof(key));
		aes_set_key(&c, key, bits / 8);
		vperm_engine.set_key(&sess, key, bits);
		for (m = 0; m < AES_MODE_COUNT; m++) {
			for (d = 0; d < AES_DIR_COUNT; d++) {
				for (blocks = 1; blocks <= 33; blocks++) {
					size_t len = 16 * blocks;

					for (variant = 0; variant < 3; variant++) {
						uint8_t *in = buf_in + (variant == 2), *out = got + (variant == 2);
						size_t split = variant == 1 ? 16 * (rnd() % blocks) : len;

						fill(buf_in, sizeof(buf_in));
						fill(iv0, sizeof(iv0));
						memcpy(iv_want, iv0, 16);
						memcpy(iv_got, iv0, 16);
						aes_crypt_mode(&c, m, d, m == AES_MODE_ECB ? NULL : iv_want, in, want, len);
						if (variant == 0) {
							/* in place */
							memcpy(got, in, len);
							in = got;
						}
						vperm_engine.crypt(&sess, m, d, m == AES_MODE_ECB ? NULL : iv_got, in, out,
								   split);
						vperm_engine.crypt(&sess, m, d, m == AES_MODE_ECB ? NULL : iv_got,
								   in + split, out + split, len - split);
						runs++;
						if (memcmp(out, want, len) != 0 ||
						    (m != AES_MODE_ECB && memcmp(iv_got, iv_want, 16) != 0)) {
							if (bad++ < 3)
								printf("# mismatch: AES-%u %s %s, %u blocks, variant %u\n", bits,
								       aes_mode_name(m), aes_dir_name(d), blocks, variant);
						}
					}
				}
			}
		}
		vperm_engine.release(&sess);
	}
	okf(bad == 0, "vperm: ECB, CBC, CFB128, OFB, CTR both ways and every key size match lib/crypto/aes, 1..33 blocks, in place, split, unaligned (%u runs, %u mismatches)",
	    runs, bad);
}

static void test_ctr_carry(void)
{
	static const char *const start[] = {
		"000000000000000000000000fffffffe", "0000000000000000fffffffffffffffe",
		"fffffffffffffffffffffffffffffffe",
	};
	uint8_t key[16], ctr_a[16], ctr_b[16], in[64], want[64], got[64];
	struct aes_ctx c;
	unsigned i, bad = 0;

	fill(key, sizeof(key));
	fill(in, sizeof(in));
	aes_set_key(&c, key, 16);
	vperm_engine.set_key(&sess, key, 128);
	for (i = 0; i < 3; i++) {
		unhex(start[i], ctr_a, 16);
		memcpy(ctr_b, ctr_a, 16);
		aes_ctr(&c, ctr_a, in, want, sizeof(in));
		vperm_engine.crypt(&sess, AES_MODE_CTR, AES_DIR_ENCRYPT, ctr_b, in, got, sizeof(in));
		bad += memcmp(got, want, sizeof(in)) != 0 || memcmp(ctr_a, ctr_b, 16) != 0;
	}
	vperm_engine.release(&sess);
	ok(bad == 0, "vperm: CTR carries across 32, 64 and all 128 bits of the counter as lib/crypto/aes does");
}

static void test_contract(void)
{
	uint8_t key[32] = { 1 }, buf[32] = { 0 }, iv[16] = { 0 };
	unsigned k, m, d, all = 1;
	size_t i;
	bool wiped = true;

	for (k = 0; k < AES_KEYSIZES; k++)
		for (m = 0; m < AES_MODE_COUNT; m++)
			for (d = 0; d < AES_DIR_COUNT; d++)
				all &= aes_engine_supports(&vperm_engine, aes_keysize_bits(k), m, d);
	ok(all, "vperm: claims every key size, mode and direction (the software baseline's rows)");
	ok(vperm_engine.set_key(&sess, key, 160) == ENGINE_EKEY, "vperm: a 160-bit key is ENGINE_EKEY");
	vperm_engine.set_key(&sess, key, 128);
	ok(vperm_engine.crypt(&sess, AES_MODE_CBC, AES_DIR_ENCRYPT, iv, buf, buf, 15) == ENGINE_ELEN,
	   "vperm: a length that is not whole blocks is ENGINE_ELEN");
	ok(vperm_engine.crypt(&sess, AES_MODE_CBC, AES_DIR_ENCRYPT, NULL, buf, buf, 16) == ENGINE_EUNSUPPORTED,
	   "vperm: CBC without an IV is ENGINE_EUNSUPPORTED");
	vperm_engine.release(&sess);
	for (i = 0; i < sizeof(struct vperm_key); i++)
		wiped &= sess.priv[i] == 0;
	ok(wiped && sess.key_bits == 0, "vperm: release() wipes the whole schedule");
}

static void test_absent(void)
{
	struct cpu_info cpu;

	memset(&cpu, 0, sizeof(cpu));
	cpu.sse2 = true;
	ok(vperm_absent_reason(&cpu) && strcmp(vperm_absent_reason(&cpu), "CPUID.1:ECX.SSSE3 is clear") == 0,
	   "vperm: a CPU without SSSE3 is told apart (CPUID.1:ECX.SSSE3 is clear)");
	cpu.ssse3 = true;
	ok(vperm_absent_reason(&cpu) == NULL, "vperm: a CPU with SSSE3 can run it");
}

int main(void)
{
	printf("TAP version 13\n");
	test_fips197();
	test_all_bytes();
	test_crosscheck();
	test_ctr_carry();
	test_contract();
	test_absent();
	return tap_plan();
}
