/*
 * Unit tests for lib/crypto/aes.c: the FIPS-197 Appendix C and A examples, the
 * SP 800-38A Appendix F vectors for every mode and key size, in place and
 * unaligned buffers, chaining across calls, the CTR counter carry, partial
 * blocks, wiping and the error returns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/crypto/aes.h"
#include "lib/crypto/aes_mode.h"
#include "lib/crypto/aes_tables.h"

#define NBLK	4			/* blocks in each SP 800-38A example */
#define MSG	(NBLK * AES_BLOCK_BYTES)	/* 64 bytes */
#define SLACK	4			/* room for unaligned offsets 1..3 */

/* Fills out[] from a hex string of exactly 2 * n digits. */
static void unhex(const char *s, uint8_t *out, size_t n)
{
	size_t i;

	assert_int_equal(strlen(s), 2 * n);
	for (i = 0; i < 2 * n; i++) {
		char ch = s[i];
		unsigned v = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') :
			     ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) : 99;

		assert_true(v < 16);
		if (i % 2 == 0)
			out[i / 2] = (uint8_t)(v << 4);
		else
			out[i / 2] |= (uint8_t)v;
	}
}

static void set_key_hex(struct aes_ctx *c, const char *hex)
{
	uint8_t key[32];
	size_t n = strlen(hex) / 2;

	assert_true(n <= sizeof(key));
	unhex(hex, key, n);
	assert_int_equal(aes_set_key(c, key, n), 0);
	assert_int_equal(c->key_bits, 8 * n);
	assert_int_equal(c->rounds, n / 4 + 6);
}

/* ---- FIPS-197 ---- */

/* FIPS-197 Appendix C.1-C.3: one block, the three key sizes. */
static const struct {
	const char *key, *ct;
} fips197_c[] = {
	{ "000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a" },
	{ "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "dda97ca4864cdfe06eaf70a0ec0d7191" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "8ea2b7ca516745bfeafc49904b496089" },
};
#define FIPS197_PT	"00112233445566778899aabbccddeeff"

static void test_fips197_appendix_c(void **state)
{
	uint8_t pt[16], ct[16], buf[16];
	struct aes_ctx c;
	size_t i;

	(void)state;
	unhex(FIPS197_PT, pt, 16);
	for (i = 0; i < sizeof(fips197_c) / sizeof(fips197_c[0]); i++) {
		set_key_hex(&c, fips197_c[i].key);
		unhex(fips197_c[i].ct, ct, 16);
		aes_encrypt_block(&c, pt, buf);
		assert_memory_equal(buf, ct, 16);
		aes_decrypt_block(&c, ct, buf);
		assert_memory_equal(buf, pt, 16);
		/* In place. */
		memcpy(buf, pt, 16);
		aes_encrypt_block(&c, buf, buf);
		assert_memory_equal(buf, ct, 16);
		aes_decrypt_block(&c, buf, buf);
		assert_memory_equal(buf, pt, 16);
	}
}

/*
 * FIPS-197 Appendix A.1-A.3: the last words of the expanded key,
 * w[4*Nr .. 4*Nr+3], are the last round key; the equivalent inverse
 * cipher uses it first and the cipher key's first four words last (5.3.5).
 */
static const struct {
	const char *key, *last_rk;
} fips197_a[] = {
	{ "2b7e151628aed2a6abf7158809cf4f3c", "d014f9a8c9ee2589e13f0cc8b6630ca6" },
	{ "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	  "e98ba06f448c773c8ecc720401002202" },
	{ "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
	  "fe4890d1e6188d0b046df344706c631e" },
};

/* Round key words as bytes, in the order FIPS-197 prints them. */
static void rk_bytes(const uint32_t *w, uint8_t out[16])
{
	unsigned i;

	for (i = 0; i < 16; i++)
		out[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

static void test_fips197_key_expansion(void **state)
{
	uint8_t key[32], want[16], got[16];
	struct aes_ctx c;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(fips197_a) / sizeof(fips197_a[0]); i++) {
		set_key_hex(&c, fips197_a[i].key);
		n = strlen(fips197_a[i].key) / 2;
		unhex(fips197_a[i].key, key, n);
		unhex(fips197_a[i].last_rk, want, 16);
		/* w[0..Nk-1] is the key itself. */
		rk_bytes(c.ek, got);
		assert_memory_equal(got, key, 16);
		rk_bytes(c.ek + 4 * c.rounds, got);
		assert_memory_equal(got, want, 16);
		rk_bytes(c.dk, got);
		assert_memory_equal(got, want, 16);
		rk_bytes(c.dk + 4 * c.rounds, got);
		assert_memory_equal(got, key, 16);
	}
}

/* The computed tables against their definitions (lib/crypto/aes_tables.h). */
static void test_tables(void **state)
{
	/* FIPS-197 Figure 7, row 0. */
	static const uint8_t row0[16] = { 0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5,
					  0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76 };
	unsigned x, r;

	(void)state;
	aes_tables_init();
	aes_tables_init();	/* idempotent */
	assert_memory_equal(aes_sbox, row0, sizeof(row0));
	/* FIPS-197 Figure 7 corners and 5.1.1's example S(0x53) = 0xed. */
	assert_int_equal(aes_sbox[0x00], 0x63);
	assert_int_equal(aes_sbox[0x53], 0xed);
	assert_int_equal(aes_sbox[0xff], 0x16);
	for (x = 0; x < 256; x++) {
		uint8_t s = aes_sbox[x];

		assert_int_equal(aes_inv_sbox[s], x);
		/* te[0] column: 02*s, s, s, 03*s (FIPS-197 5.1.3). */
		assert_int_equal(aes_te[0][x] & 0xff,
				 (uint8_t)((s << 1) ^ (s & 0x80 ? 0x1b : 0)));
		assert_int_equal((aes_te[0][x] >> 8) & 0xff, s);
		assert_int_equal((aes_te[0][x] >> 16) & 0xff, s);
		assert_int_equal(aes_te[0][x] >> 24, (aes_te[0][x] & 0xff) ^ s);
		for (r = 1; r < 4; r++) {
			assert_int_equal(aes_te[r][x],
					 aes_te[0][x] << (8 * r) | aes_te[0][x] >> (32 - 8 * r));
			assert_int_equal(aes_td[r][x],
					 aes_td[0][x] << (8 * r) | aes_td[0][x] >> (32 - 8 * r));
		}
	}
	/*
	 * te[0][x] is MixColumns of the column (S(x), 0, 0, 0). td[] applies
	 * InvSubBytes before InvMixColumns, so feeding it S-box values leaves
	 * InvMixColumns alone, which must give that column back.
	 */
	for (x = 0; x < 256; x++) {
		uint32_t col = aes_te[0][x];
		uint32_t back = aes_td[0][aes_sbox[col & 0xff]] ^
				aes_td[1][aes_sbox[(col >> 8) & 0xff]] ^
				aes_td[2][aes_sbox[(col >> 16) & 0xff]] ^
				aes_td[3][aes_sbox[col >> 24]];

		assert_int_equal(back, aes_sbox[x]);
	}
}

/* ---- SP 800-38A Appendix F ---- */

enum mode { ECB, CBC, CFB, OFB, CTR, NMODES };

static const char *const sp_pt[NBLK] = {
	"6bc1bee22e409f96e93d7e117393172a", "ae2d8a571e03ac9c9eb76fac45af8e51",
	"30c81c46a35ce411e5fbc1191a0a52ef", "f69f2445df4f9b17ad2b417be66c3710",
};
static const char *const sp_key[3] = {
	"2b7e151628aed2a6abf7158809cf4f3c",
	"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
};
#define SP_IV	"000102030405060708090a0b0c0d0e0f"	/* F.2-F.4 */
#define SP_CTR	"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"	/* F.5 */

/* Ciphertext blocks, [mode][key size][block]: F.1.1/3/5, F.2.1/3/5,
 * F.3.13/15/17, F.4.1/3/5, F.5.1/3/5. */
static const char *const sp_ct[NMODES][3][NBLK] = {
	[ECB] = {
		{ "3ad77bb40d7a3660a89ecaf32466ef97", "f5d3d58503b9699de785895a96fdbaaf",
		  "43b1cd7f598ece23881b00e3ed030688", "7b0c785e27e8ad3f8223207104725dd4" },
		{ "bd334f1d6e45f25ff712a214571fa5cc", "974104846d0ad3ad7734ecb3ecee4eef",
		  "ef7afd2270e2e60adce0ba2face6444e", "9a4b41ba738d6c72fb16691603c18e0e" },
		{ "f3eed1bdb5d2a03c064b5a7e3db181f8", "591ccb10d410ed26dc5ba74a31362870",
		  "b6ed21b99ca6f4f9f153e7b1beafed1d", "23304b7a39f9f3ff067d8d8f9e24ecc7" },
	},
	[CBC] = {
		{ "7649abac8119b246cee98e9b12e9197d", "5086cb9b507219ee95db113a917678b2",
		  "73bed6b8e3c1743b7116e69e22229516", "3ff1caa1681fac09120eca307586e1a7" },
		{ "4f021db243bc633d7178183a9fa071e8", "b4d9ada9ad7dedf4e5e738763f69145a",
		  "571b242012fb7ae07fa9baac3df102e0", "08b0e27988598881d920a9e64f5615cd" },
		{ "f58c4c04d6e5f1ba779eabfb5f7bfbd6", "9cfc4e967edb808d679f777bc6702c7d",
		  "39f23369a9d9bacfa530e26304231461", "b2eb05e2c39be9fcda6c19078c6a9d1b" },
	},
	[CFB] = {
		{ "3b3fd92eb72dad20333449f8e83cfb4a", "c8a64537a0b3a93fcde3cdad9f1ce58b",
		  "26751f67a3cbb140b1808cf187a4f4df", "c04b05357c5d1c0eeac4c66f9ff7f2e6" },
		{ "cdc80d6fddf18cab34c25909c99a4174", "67ce7f7f81173621961a2b70171d3d7a",
		  "2e1e8a1dd59b88b1c8e60fed1efac4c9", "c05f9f9ca9834fa042ae8fba584b09ff" },
		{ "dc7e84bfda79164b7ecd8486985d3860", "39ffed143b28b1c832113c6331e5407b",
		  "df10132415e54b92a13ed0a8267ae2f9", "75a385741ab9cef82031623d55b1e471" },
	},
	[OFB] = {
		{ "3b3fd92eb72dad20333449f8e83cfb4a", "7789508d16918f03f53c52dac54ed825",
		  "9740051e9c5fecf64344f7a82260edcc", "304c6528f659c77866a510d9c1d6ae5e" },
		{ "cdc80d6fddf18cab34c25909c99a4174", "fcc28b8d4c63837c09e81700c1100401",
		  "8d9a9aeac0f6596f559c6d4daf59a5f2", "6d9f200857ca6c3e9cac524bd9acc92a" },
		{ "dc7e84bfda79164b7ecd8486985d3860", "4febdc6740d20b3ac88f6ad82a4fb08d",
		  "71ab47a086e86eedf39d1c5bba97c408", "0126141d67f37be8538f5a8be740e484" },
	},
	[CTR] = {
		{ "874d6191b620e3261bef6864990db6ce", "9806f66b7970fdff8617187bb9fffdff",
		  "5ae4df3edbd5d35e5b4f09020db03eab", "1e031dda2fbe03d1792170a0f3009cee" },
		{ "1abc932417521ca24f2b0459fe7e6e0b", "090339ec0aa6faefd5ccc2c6f4ce8e94",
		  "1e36b26bd1ebc670d1bd1d665620abf7", "4f78a7f6d29809585a97daec58c6b050" },
		{ "601ec313775789a5b7a7f504bbf3d228", "f443e3ca4d62b59aca84e990cacaf5c5",
		  "2b0930daa23de94ce87017ba2d84988d", "dfc9c58db67aada613c2dd08457941a6" },
	},
};

struct vec {
	struct aes_ctx c;
	uint8_t pt[MSG], ct[MSG], iv[16];
	uint8_t iv_after_enc[16];	/* what the mode leaves in iv */
};

/* Loads SP 800-38A example (m, key index k) and what iv must become. */
static void load_vec(struct vec *v, enum mode m, unsigned k)
{
	unsigned b, i;

	set_key_hex(&v->c, sp_key[k]);
	for (b = 0; b < NBLK; b++) {
		unhex(sp_pt[b], v->pt + 16 * b, 16);
		unhex(sp_ct[m][k][b], v->ct + 16 * b, 16);
	}
	unhex(m == CTR ? SP_CTR : SP_IV, v->iv, 16);
	switch (m) {
	case CBC:
	case CFB:	/* the last ciphertext block */
		memcpy(v->iv_after_enc, v->ct + MSG - 16, 16);
		break;
	case OFB:	/* the last output block O_4 = P_4 xor C_4 */
		for (i = 0; i < 16; i++)
			v->iv_after_enc[i] = v->pt[MSG - 16 + i] ^ v->ct[MSG - 16 + i];
		break;
	case CTR:	/* T_5 = T_1 + 4: f0..fe ff + 4 carries into byte 14 */
		memcpy(v->iv_after_enc, v->iv, 16);
		v->iv_after_enc[15] = 0x03;
		v->iv_after_enc[14] = 0xff;
		break;
	default:
		memset(v->iv_after_enc, 0, 16);
		break;
	}
}

/* Runs mode m in direction enc through the one dispatch (lib/crypto/aes_mode.c). */
static int run(enum mode m, int enc, const struct aes_ctx *c, uint8_t *iv,
	       const uint8_t *in, uint8_t *out, size_t len)
{
	static const enum aes_mode modes[NMODES] = {
		[ECB] = AES_MODE_ECB, [CBC] = AES_MODE_CBC, [CFB] = AES_MODE_CFB128,
		[OFB] = AES_MODE_OFB, [CTR] = AES_MODE_CTR,
	};
	if ((unsigned)m >= NMODES) {
		fail();
		return -1;
	}
	return aes_crypt_mode(c, modes[m], enc ? AES_DIR_ENCRYPT : AES_DIR_DECRYPT, iv, in, out, len);
}

/* Every F example, encrypt and decrypt, one call, iv checked after. */
static void test_sp800_38a(void **state)
{
	static struct vec v;
	uint8_t iv[16], out[MSG];
	unsigned m, k;
	int enc;

	(void)state;
	for (m = 0; m < NMODES; m++) {
		for (k = 0; k < 3; k++) {
			load_vec(&v, m, k);
			for (enc = 1; enc >= 0; enc--) {
				memcpy(iv, v.iv, 16);
				memset(out, 0xee, sizeof(out));
				assert_int_equal(run(m, enc, &v.c, iv, enc ? v.pt : v.ct, out, MSG), 0);
				assert_memory_equal(out, enc ? v.ct : v.pt, MSG);
				if (m != ECB)
					assert_memory_equal(iv, v.iv_after_enc, 16);
			}
		}
	}
}

/*
 * In place (in == out) and unaligned: in at offset a, out at offset b,
 * each 0..3 bytes past a 4-byte boundary, every mode, key size, direction.
 */
static void test_inplace_unaligned(void **state)
{
	static struct vec v;
	static uint8_t inbuf[MSG + SLACK] __attribute__((aligned(16)));
	static uint8_t outbuf[MSG + SLACK] __attribute__((aligned(16)));
	uint8_t iv[16];
	unsigned m, k, a, b;
	int enc;

	(void)state;
	for (m = 0; m < NMODES; m++) {
		for (k = 0; k < 3; k++) {
			load_vec(&v, m, k);
			for (enc = 1; enc >= 0; enc--) {
				const uint8_t *src = enc ? v.pt : v.ct, *want = enc ? v.ct : v.pt;

				for (a = 0; a < SLACK; a++) {
					/* in place at offset a */
					memcpy(inbuf + a, src, MSG);
					memcpy(iv, v.iv, 16);
					assert_int_equal(run(m, enc, &v.c, iv, inbuf + a, inbuf + a, MSG), 0);
					assert_memory_equal(inbuf + a, want, MSG);
					/* separate buffers at offsets a and b */
					for (b = 0; b < SLACK; b++) {
						memcpy(inbuf + a, src, MSG);
						memcpy(iv, v.iv, 16);
						assert_int_equal(run(m, enc, &v.c, iv, inbuf + a,
								     outbuf + b, MSG), 0);
						assert_memory_equal(outbuf + b, want, MSG);
						assert_memory_equal(inbuf + a, src, MSG);
					}
				}
			}
		}
	}
}

/* The block functions on unaligned buffers. */
static void test_block_unaligned(void **state)
{
	static uint8_t buf[16 + SLACK], out[16 + SLACK];
	uint8_t pt[16], ct[16];
	struct aes_ctx c;
	unsigned a;

	(void)state;
	set_key_hex(&c, fips197_c[2].key);
	unhex(FIPS197_PT, pt, 16);
	unhex(fips197_c[2].ct, ct, 16);
	for (a = 1; a < SLACK; a++) {
		memcpy(buf + a, pt, 16);
		aes_encrypt_block(&c, buf + a, out + (SLACK - a));
		assert_memory_equal(out + (SLACK - a), ct, 16);
		aes_decrypt_block(&c, out + (SLACK - a), buf + a);
		assert_memory_equal(buf + a, pt, 16);
	}
}

/* Two calls split at every block boundary give what one call gives. */
static void test_chaining(void **state)
{
	static struct vec v;
	uint8_t iv[16], out[MSG];
	unsigned m, k, split;
	int enc;

	(void)state;
	for (m = 0; m < NMODES; m++) {
		for (k = 0; k < 3; k++) {
			load_vec(&v, m, k);
			for (enc = 1; enc >= 0; enc--) {
				const uint8_t *src = enc ? v.pt : v.ct, *want = enc ? v.ct : v.pt;

				for (split = 0; split <= MSG; split += 16) {
					memcpy(iv, v.iv, 16);
					memset(out, 0xee, sizeof(out));
					assert_int_equal(run(m, enc, &v.c, iv, src, out, split), 0);
					assert_int_equal(run(m, enc, &v.c, iv, src + split, out + split,
							     MSG - split), 0);
					assert_memory_equal(out, want, MSG);
					if (m != ECB)
						assert_memory_equal(iv, v.iv_after_enc, 16);
				}
			}
		}
	}
}

/* ---- CTR counter ---- */

/* Keystream block for counter block t (the cipher of it, SP 800-38A 6.5). */
static void keystream(const struct aes_ctx *c, const char *t_hex, uint8_t out[16])
{
	uint8_t t[16];

	unhex(t_hex, t, 16);
	aes_encrypt_block(c, t, out);
}

/*
 * The counter is one 128-bit big-endian integer (SP 800-38A B.1 with m =
 * 128): a carry moves across bytes, across the 32- and 64-bit word
 * boundaries, and the all-ones counter wraps to zero.
 */
static void test_ctr_carry(void **state)
{
	static const struct {
		const char *start, *second, *after;	/* T_1, T_2, T_3 */
	} cases[] = {
		{ "000000000000000000000000000000ff", "00000000000000000000000000000100",
		  "00000000000000000000000000000101" },
		{ "00000000000000000000000effffffff", "00000000000000000000000f00000000",
		  "00000000000000000000000f00000001" },
		{ "0000000000000000ffffffffffffffff", "00000000000000010000000000000000",
		  "00000000000000010000000000000001" },
		{ "00000000fffffffffffffffffffffffe", "00000000ffffffffffffffffffffffff",
		  "00000001000000000000000000000000" },
		{ "12345678ffffffffffffffffffffffff", "12345679000000000000000000000000",
		  "12345679000000000000000000000001" },
		{ "ffffffffffffffffffffffffffffffff", "00000000000000000000000000000000",
		  "00000000000000000000000000000001" },
	};
	uint8_t ctr[16], want_ctr[16], ks[32], zero[32] = { 0 }, out[32];
	struct aes_ctx c;
	size_t i;

	(void)state;
	set_key_hex(&c, sp_key[0]);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		keystream(&c, cases[i].start, ks);
		keystream(&c, cases[i].second, ks + 16);
		unhex(cases[i].start, ctr, 16);
		unhex(cases[i].after, want_ctr, 16);
		/* Encrypting zeroes shows the keystream itself. */
		aes_ctr(&c, ctr, zero, out, 32);
		assert_memory_equal(out, ks, 32);
		assert_memory_equal(ctr, want_ctr, 16);
	}
}

/*
 * A partial last block uses the first bytes of its keystream block and
 * advances the counter past it; OFB uses the first bytes of its output
 * block and leaves that whole block in iv. Lengths 1..63 over F.5.1/F.4.1.
 */
static void test_partial_block(void **state)
{
	static struct vec v;
	uint8_t iv[16], out[MSG + 1], want_ctr[16], full_iv[16];
	size_t len, i, blocks;
	unsigned m;

	(void)state;
	for (m = OFB; m <= CTR; m++) {
		load_vec(&v, m, 0);
		for (len = 1; len < MSG; len++) {
			blocks = (len + 15) / 16;
			memcpy(iv, v.iv, 16);
			memset(out, 0xee, sizeof(out));
			run(m, 1, &v.c, iv, v.pt, out, len);
			assert_memory_equal(out, v.ct, len);
			for (i = len; i < sizeof(out); i++)
				assert_int_equal(out[i], 0xee);	/* nothing past len */
			if (m == CTR) {
				/* T_1 + blocks = f0..fd ff (blocks - 1), blocks >= 1 */
				memcpy(want_ctr, v.iv, 16);
				want_ctr[14] = 0xff;
				want_ctr[15] = (uint8_t)(blocks - 1);
				assert_memory_equal(iv, want_ctr, 16);
			} else {
				/* O_blocks = P xor C at that block, the whole block */
				for (i = 0; i < 16; i++)
					full_iv[i] = v.pt[16 * (blocks - 1) + i] ^
						     v.ct[16 * (blocks - 1) + i];
				assert_memory_equal(iv, full_iv, 16);
			}
			/* Decrypting is the same operation, in place. */
			memcpy(iv, v.iv, 16);
			memcpy(out, v.ct, len);
			run(m, 0, &v.c, iv, out, out, len);
			assert_memory_equal(out, v.pt, len);
		}
	}
}

/* A zero length touches nothing and leaves iv / counter alone. */
static void test_zero_length(void **state)
{
	static struct vec v;
	uint8_t iv[16], out[16];
	unsigned m;
	int enc;

	(void)state;
	for (m = 0; m < NMODES; m++) {
		load_vec(&v, m, 1);
		for (enc = 1; enc >= 0; enc--) {
			memcpy(iv, v.iv, 16);
			memset(out, 0xee, sizeof(out));
			assert_int_equal(run(m, enc, &v.c, iv, v.pt, out, 0), 0);
			assert_memory_equal(iv, v.iv, 16);
			assert_int_equal(out[0], 0xee);
		}
	}
}

/* ---- context handling and errors ---- */

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

static void test_wipe(void **state)
{
	struct aes_ctx c;
	uint8_t out[16], zero[16] = { 0 };

	(void)state;
	set_key_hex(&c, sp_key[2]);
	assert_false(all_zero(&c, sizeof(c)));
	aes_wipe(&c);
	assert_true(all_zero(&c, sizeof(c)));
	/* A wiped context is unusable but must not run away. */
	aes_encrypt_block(&c, zero, out);
	aes_decrypt_block(&c, zero, out);
	/* And it can be keyed again. */
	set_key_hex(&c, fips197_c[0].key);
	aes_encrypt_block(&c, (const uint8_t *)"\x00\x11\x22\x33\x44\x55\x66\x77"
			  "\x88\x99\xaa\xbb\xcc\xdd\xee\xff", out);
	unhex(fips197_c[0].ct, zero, 16);
	assert_memory_equal(out, zero, 16);
}

static void test_bad_key_length(void **state)
{
	static const size_t bad[] = { 0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64 };
	uint8_t key[64] = { 1, 2, 3 };
	struct aes_ctx c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0xa5, sizeof(c));
		assert_int_equal(aes_set_key(&c, key, bad[i]), AES_EKEYLEN);
		assert_true(all_zero(&c, sizeof(c)));	/* no half-set context */
	}
	assert_int_equal(aes_set_key(&c, key, 16), 0);
	assert_int_equal(aes_set_key(&c, key, 24), 0);
	assert_int_equal(aes_set_key(&c, key, 32), 0);
}

/* ECB, CBC and CFB refuse lengths that are not whole blocks, untouched. */
static void test_bad_length(void **state)
{
	static const size_t bad[] = { 1, 8, 15, 17, 24, 31, 33, 40, 56, 63 };
	static struct vec v;
	uint8_t iv[16], out[MSG];
	unsigned m;
	size_t i;
	int enc;

	(void)state;
	for (m = ECB; m <= CFB; m++) {
		load_vec(&v, m, 0);
		for (enc = 1; enc >= 0; enc--) {
			for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
				memcpy(iv, v.iv, 16);
				memset(out, 0xee, sizeof(out));
				assert_int_equal(run(m, enc, &v.c, iv, v.pt, out, bad[i]), AES_ELEN);
				assert_memory_equal(iv, v.iv, 16);
				assert_true(out[0] == 0xee && out[bad[i] - 1] == 0xee);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips197_appendix_c),
		cmocka_unit_test(test_fips197_key_expansion),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_sp800_38a),
		cmocka_unit_test(test_inplace_unaligned),
		cmocka_unit_test(test_block_unaligned),
		cmocka_unit_test(test_chaining),
		cmocka_unit_test(test_ctr_carry),
		cmocka_unit_test(test_partial_block),
		cmocka_unit_test(test_zero_length),
		cmocka_unit_test(test_wipe),
		cmocka_unit_test(test_bad_key_length),
		cmocka_unit_test(test_bad_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
