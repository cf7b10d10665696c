/*
 * AES (FIPS-197) with 32-bit lookup tables, and the SP 800-38A modes.
 *
 * A round of the cipher is, per output column, four table lookups (one per
 * row, each merging SubBytes, ShiftRows and MixColumns; lib/crypto/aes_tables.h)
 * and the round key; the last round has no MixColumns and uses the S-box.
 * Decryption uses the equivalent inverse cipher (FIPS-197 5.3.5), which has
 * the same shape with the inverse tables and a transformed key schedule.
 *
 * Written for gcc -O2 -march=i586 (no SSE, no 64-bit arithmetic): the state
 * lives in local 32-bit words through all rounds, one round per loop
 * iteration, and one table base serves all four tables of a kind. Blocks
 * are loaded and stored as 32-bit words (any alignment; byte by byte on a
 * big-endian machine). On i386 without PIC the cipher and the modes' loops
 * over whole blocks are the assembly of lib/crypto/aes_i386.c instead, which
 * keeps the state in registers from block to block (ASM() below).
 *
 * Table-based: the table indices depend on key and data, so this code is
 * not constant-time and leaks through cache timing, like the table code of
 * OpenSSL (aes-586) it is measured against by `make bench-i386`.
 */
#include "lib/crypto/aes.h"
#include "lib/crypto/aes_tables.h"

#include <string.h>

#define INLINE	static inline __attribute__((always_inline))

/* The i386 assembly's whole-block loop for operation op (lib/crypto/aes_tables.h). */
#define ASM(op, iv, in, out, blocks)	aes_i386_crypt(c, AES_I386_##op, iv, in, out, blocks)

/*
 * Bytes p[0..3] as a column, row 0 in bits 0-7. On a little-endian machine
 * that is the word in memory, copied with __builtin_memcpy (one 32-bit
 * move on x86, at any alignment; the freestanding kernel build does not
 * treat plain memcpy as a builtin). GCC merges the byte stores of the
 * portable form only partly, and a CBC block then costs 16 byte stores.
 */
#define LITTLE_ENDIAN_WORDS	(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

INLINE uint32_t load_col(const uint8_t *p)
{
	uint32_t v;

	if (LITTLE_ENDIAN_WORDS) {
		__builtin_memcpy(&v, p, 4);
		return v;
	}
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

INLINE void store_col(uint8_t *p, uint32_t v)
{
	if (LITTLE_ENDIAN_WORDS) {
		__builtin_memcpy(p, &v, 4);
		return;
	}
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

INLINE void load_block(const uint8_t *p, uint32_t s[4])
{
	s[0] = load_col(p);
	s[1] = load_col(p + 4);
	s[2] = load_col(p + 8);
	s[3] = load_col(p + 12);
}

INLINE void store_block(uint8_t *p, const uint32_t s[4])
{
	store_col(p, s[0]);
	store_col(p + 4, s[1]);
	store_col(p + 8, s[2]);
	store_col(p + 12, s[3]);
}

INLINE void xor_block(uint32_t d[4], const uint32_t s[4])
{
	d[0] ^= s[0];
	d[1] ^= s[1];
	d[2] ^= s[2];
	d[3] ^= s[3];
}

INLINE uint32_t bswap32(uint32_t x)
{
	return x >> 24 | (x >> 8 & 0xff00) | (x << 8 & 0xff0000) | x << 24;
}

#define B0(x)	((x) & 0xff)
#define B1(x)	(((x) >> 8) & 0xff)
#define B2(x)	(((x) >> 16) & 0xff)
#define B3(x)	((x) >> 24)

/*
 * One output column of a middle round. Encryption: row r of output column j
 * comes from input column j + r (ShiftRows, FIPS-197 5.1.2), so the column
 * is E(s[j], s[j+1], s[j+2], s[j+3]). Decryption: from column j - r
 * (InvShiftRows, 5.3.1), D(s[j], s[j-1], s[j-2], s[j-3]).
 */
#define E(a, b, c, d)	(aes_te[0][B0(a)] ^ aes_te[1][B1(b)] ^ aes_te[2][B2(c)] ^ aes_te[3][B3(d)])
#define D(a, b, c, d)	(aes_td[0][B0(a)] ^ aes_td[1][B1(b)] ^ aes_td[2][B2(c)] ^ aes_td[3][B3(d)])

/* The last round's column: S-box only (no MixColumns), same row sources. */
#define ELAST(a, b, c, d)	((uint32_t)aes_sbox[B0(a)] | (uint32_t)aes_sbox[B1(b)] << 8 | \
	(uint32_t)aes_sbox[B2(c)] << 16 | (uint32_t)aes_sbox[B3(d)] << 24)
#define DLAST(a, b, c, d)	((uint32_t)aes_inv_sbox[B0(a)] | (uint32_t)aes_inv_sbox[B1(b)] << 8 | \
	(uint32_t)aes_inv_sbox[B2(c)] << 16 | (uint32_t)aes_inv_sbox[B3(d)] << 24)

/*
 * The cipher on the state words st[] in place (FIPS-197 5.1, Figure 5):
 * AddRoundKey, rounds - 1 full rounds, the last round. One round per
 * iteration keeps the live values within the registers of x86-64 (a
 * two-round body made gcc spill byte indices, which put store-to-load
 * forwarding on the critical path of CBC). last is the last round key; a
 * wiped context (rounds 0) still ends, after the last round alone.
 */
INLINE void encrypt_words(const struct aes_ctx *c, uint32_t st[4])
{
	const uint32_t *rk = c->ek, *last = c->ek + 4 * c->rounds;
	uint32_t s0, s1, s2, s3, t0, t1, t2, t3;

	s0 = st[0] ^ rk[0];
	s1 = st[1] ^ rk[1];
	s2 = st[2] ^ rk[2];
	s3 = st[3] ^ rk[3];
	for (rk += 4; rk < last; rk += 4) {
		t0 = E(s0, s1, s2, s3) ^ rk[0];
		t1 = E(s1, s2, s3, s0) ^ rk[1];
		t2 = E(s2, s3, s0, s1) ^ rk[2];
		t3 = E(s3, s0, s1, s2) ^ rk[3];
		s0 = t0;
		s1 = t1;
		s2 = t2;
		s3 = t3;
	}
	st[0] = ELAST(s0, s1, s2, s3) ^ rk[0];
	st[1] = ELAST(s1, s2, s3, s0) ^ rk[1];
	st[2] = ELAST(s2, s3, s0, s1) ^ rk[2];
	st[3] = ELAST(s3, s0, s1, s2) ^ rk[3];
}

/* The equivalent inverse cipher (FIPS-197 5.3.5, Figure 15) in place. */
INLINE void decrypt_words(const struct aes_ctx *c, uint32_t st[4])
{
	const uint32_t *rk = c->dk, *last = c->dk + 4 * c->rounds;
	uint32_t s0, s1, s2, s3, t0, t1, t2, t3;

	s0 = st[0] ^ rk[0];
	s1 = st[1] ^ rk[1];
	s2 = st[2] ^ rk[2];
	s3 = st[3] ^ rk[3];
	for (rk += 4; rk < last; rk += 4) {
		t0 = D(s0, s3, s2, s1) ^ rk[0];
		t1 = D(s1, s0, s3, s2) ^ rk[1];
		t2 = D(s2, s1, s0, s3) ^ rk[2];
		t3 = D(s3, s2, s1, s0) ^ rk[3];
		s0 = t0;
		s1 = t1;
		s2 = t2;
		s3 = t3;
	}
	st[0] = DLAST(s0, s3, s2, s1) ^ rk[0];
	st[1] = DLAST(s1, s0, s3, s2) ^ rk[1];
	st[2] = DLAST(s2, s1, s0, s3) ^ rk[2];
	st[3] = DLAST(s3, s2, s1, s0) ^ rk[3];
}

/* ---- key schedule ---- */

/* SubWord (FIPS-197 5.2): the S-box on each byte of a word. */
static uint32_t sub_word(uint32_t w)
{
	return (uint32_t)aes_sbox[B0(w)] | (uint32_t)aes_sbox[B1(w)] << 8 |
	       (uint32_t)aes_sbox[B2(w)] << 16 | (uint32_t)aes_sbox[B3(w)] << 24;
}

/*
 * InvMixColumns (FIPS-197 5.3.3) of one column. aes_td[r][x] is row r's
 * InvMixColumns contribution of InvSubBytes(x), so feeding it S-box(x)
 * leaves InvMixColumns alone.
 */
static uint32_t inv_mix_column(uint32_t w)
{
	return aes_td[0][aes_sbox[B0(w)]] ^ aes_td[1][aes_sbox[B1(w)]] ^
	       aes_td[2][aes_sbox[B2(w)]] ^ aes_td[3][aes_sbox[B3(w)]];
}

int aes_set_key(struct aes_ctx *c, const uint8_t *key, size_t key_bytes)
{
	unsigned nk, nr, i, r, j;
	uint32_t rcon = 1, t;
	uint32_t *w = c->ek;

	aes_tables_init();
	if (key_bytes != 16 && key_bytes != 24 && key_bytes != 32) {
		aes_wipe(c);
		return AES_EKEYLEN;
	}
	nk = (unsigned)key_bytes / 4;	/* Nk, FIPS-197 Figure 4 */
	nr = nk + 6;			/* Nr */
	memset(c, 0, sizeof(*c));
	c->rounds = nr;
	c->key_bits = nk * 32;

	/* KeyExpansion, FIPS-197 5.2 Figure 11. */
	for (i = 0; i < nk; i++)
		w[i] = load_col(key + 4 * i);
	for (i = nk; i < 4 * (nr + 1); i++) {
		t = w[i - 1];
		if (i % nk == 0) {
			/* RotWord is a right rotation in this byte order; Rcon
			 * is x^(i/Nk - 1) in GF(2^8), in row 0 (FIPS-197 5.2). */
			t = sub_word(t >> 8 | t << 24) ^ rcon;
			rcon = (rcon << 1) ^ (rcon & 0x80 ? 0x11b : 0);
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}

	/* Equivalent inverse cipher schedule, FIPS-197 5.3.5 Figure 15:
	 * round keys in reverse, InvMixColumns on all but the first and last. */
	for (r = 0; r <= nr; r++) {
		for (j = 0; j < 4; j++) {
			t = c->ek[4 * (nr - r) + j];
			c->dk[4 * r + j] = (r == 0 || r == nr) ? t : inv_mix_column(t);
		}
	}
	return 0;
}

void aes_wipe(struct aes_ctx *c)
{
	memset(c, 0, sizeof(*c));
	/* Tell the compiler the zeroes are read: it may not drop the memset. */
	__asm__ __volatile__("" : : "r"(c) : "memory");
}

/* ---- blocks and modes ---- */

void aes_encrypt_block(const struct aes_ctx *c, const uint8_t in[AES_BLOCK_BYTES],
		       uint8_t out[AES_BLOCK_BYTES])
{
	uint32_t s[4];

	if (AES_I386_ASM) {
		ASM(ECB_ENCRYPT, NULL, in, out, 1);
		return;
	}

	load_block(in, s);
	encrypt_words(c, s);
	store_block(out, s);
}

void aes_decrypt_block(const struct aes_ctx *c, const uint8_t in[AES_BLOCK_BYTES],
		       uint8_t out[AES_BLOCK_BYTES])
{
	uint32_t s[4];

	if (AES_I386_ASM) {
		ASM(ECB_DECRYPT, NULL, in, out, 1);
		return;
	}

	load_block(in, s);
	decrypt_words(c, s);
	store_block(out, s);
}

int aes_ecb_encrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t s[4];

	if (len % AES_BLOCK_BYTES)
		return AES_ELEN;
	if (AES_I386_ASM) {
		ASM(ECB_ENCRYPT, NULL, in, out, len / AES_BLOCK_BYTES);
		return 0;
	}
	for (; len; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES, out += AES_BLOCK_BYTES) {
		load_block(in, s);
		encrypt_words(c, s);
		store_block(out, s);
	}
	return 0;
}

int aes_ecb_decrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t s[4];

	if (len % AES_BLOCK_BYTES)
		return AES_ELEN;
	if (AES_I386_ASM) {
		ASM(ECB_DECRYPT, NULL, in, out, len / AES_BLOCK_BYTES);
		return 0;
	}
	for (; len; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES, out += AES_BLOCK_BYTES) {
		load_block(in, s);
		decrypt_words(c, s);
		store_block(out, s);
	}
	return 0;
}

/* C_j = CIPH(P_j xor C_j-1), C_0 = CIPH(P_1 xor IV); SP 800-38A 6.2. */
int aes_cbc_encrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		    const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t v[4], p[4];

	if (len % AES_BLOCK_BYTES)
		return AES_ELEN;
	if (AES_I386_ASM) {
		ASM(CBC_ENCRYPT, iv, in, out, len / AES_BLOCK_BYTES);
		return 0;
	}
	load_block(iv, v);
	for (; len; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES, out += AES_BLOCK_BYTES) {
		load_block(in, p);
		xor_block(v, p);
		encrypt_words(c, v);
		store_block(out, v);
	}
	store_block(iv, v);
	return 0;
}

/* P_j = CIPH^-1(C_j) xor C_j-1; SP 800-38A 6.2. C_j is kept before out is
 * written, for in place. */
int aes_cbc_decrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		    const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t v[4], ct[4], s[4];

	if (len % AES_BLOCK_BYTES)
		return AES_ELEN;
	if (AES_I386_ASM) {
		ASM(CBC_DECRYPT, iv, in, out, len / AES_BLOCK_BYTES);
		return 0;
	}
	load_block(iv, v);
	for (; len; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES, out += AES_BLOCK_BYTES) {
		load_block(in, ct);
		s[0] = ct[0], s[1] = ct[1], s[2] = ct[2], s[3] = ct[3];
		decrypt_words(c, s);
		xor_block(s, v);
		store_block(out, s);
		v[0] = ct[0], v[1] = ct[1], v[2] = ct[2], v[3] = ct[3];
	}
	store_block(iv, v);
	return 0;
}

/* C_j = P_j xor CIPH(C_j-1), C_0 = IV; SP 800-38A 6.3 with s = b = 128. */
int aes_cfb128_encrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		       const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t v[4], p[4];

	if (len % AES_BLOCK_BYTES)
		return AES_ELEN;
	if (AES_I386_ASM) {
		ASM(CFB_ENCRYPT, iv, in, out, len / AES_BLOCK_BYTES);
		return 0;
	}
	load_block(iv, v);
	for (; len; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES, out += AES_BLOCK_BYTES) {
		encrypt_words(c, v);
		load_block(in, p);
		xor_block(v, p);
		store_block(out, v);
	}
	store_block(iv, v);
	return 0;
}

/* P_j = C_j xor CIPH(C_j-1); SP 800-38A 6.3. */
int aes_cfb128_decrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		       const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t v[4], ct[4];

	if (len % AES_BLOCK_BYTES)
		return AES_ELEN;
	if (AES_I386_ASM) {
		ASM(CFB_DECRYPT, iv, in, out, len / AES_BLOCK_BYTES);
		return 0;
	}
	load_block(iv, v);
	for (; len; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES, out += AES_BLOCK_BYTES) {
		encrypt_words(c, v);
		load_block(in, ct);
		xor_block(v, ct);
		store_block(out, v);
		v[0] = ct[0], v[1] = ct[1], v[2] = ct[2], v[3] = ct[3];
	}
	store_block(iv, v);
	return 0;
}

/* XORs the first n (< 16) bytes of the keystream block ks into out. */
static void xor_partial(const uint32_t ks[4], const uint8_t *in, uint8_t *out, size_t n)
{
	uint8_t k[AES_BLOCK_BYTES];
	size_t i;

	store_block(k, ks);
	for (i = 0; i < n; i++)
		out[i] = in[i] ^ k[i];
}

/* O_j = CIPH(O_j-1), O_0 = IV; C_j = P_j xor O_j; SP 800-38A 6.4. */
void aes_ofb(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
	     const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t v[4], p[4];

	if (AES_I386_ASM) {
		ASM(OFB, iv, in, out, len / AES_BLOCK_BYTES);
		in += len - len % AES_BLOCK_BYTES;
		out += len - len % AES_BLOCK_BYTES;
		len %= AES_BLOCK_BYTES;
	}
	load_block(iv, v);
	for (; len >= AES_BLOCK_BYTES; len -= AES_BLOCK_BYTES, in += AES_BLOCK_BYTES,
	     out += AES_BLOCK_BYTES) {
		encrypt_words(c, v);
		load_block(in, p);
		xor_block(p, v);
		store_block(out, p);
	}
	if (len) {
		encrypt_words(c, v);
		xor_partial(v, in, out, len);
	}
	store_block(iv, v);
}

/*
 * O_j = CIPH(T_j), C_j = P_j xor O_j, T_j+1 = T_j + 1 mod 2^128;
 * SP 800-38A 6.5 and B.1. The counter is kept as four big-endian words
 * n0 (most significant) .. n3 and byte-swapped into state words.
 */
void aes_ctr(const struct aes_ctx *c, uint8_t counter[AES_BLOCK_BYTES],
	     const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t n0, n1, n2, n3, v[4], p[4];

	if (AES_I386_ASM) {
		ASM(CTR, counter, in, out, len / AES_BLOCK_BYTES);
		in += len - len % AES_BLOCK_BYTES;
		out += len - len % AES_BLOCK_BYTES;
		len %= AES_BLOCK_BYTES;
	}
	n0 = bswap32(load_col(counter));
	n1 = bswap32(load_col(counter + 4));
	n2 = bswap32(load_col(counter + 8));
	n3 = bswap32(load_col(counter + 12));
	while (len) {
		v[0] = bswap32(n0);
		v[1] = bswap32(n1);
		v[2] = bswap32(n2);
		v[3] = bswap32(n3);
		encrypt_words(c, v);
		if (++n3 == 0 && ++n2 == 0 && ++n1 == 0)
			++n0;
		if (len < AES_BLOCK_BYTES) {
			xor_partial(v, in, out, len);
			break;
		}
		load_block(in, p);
		xor_block(p, v);
		store_block(out, p);
		len -= AES_BLOCK_BYTES;
		in += AES_BLOCK_BYTES;
		out += AES_BLOCK_BYTES;
	}
	store_col(counter, bswap32(n0));
	store_col(counter + 4, bswap32(n1));
	store_col(counter + 8, bswap32(n2));
	store_col(counter + 12, bswap32(n3));
}
