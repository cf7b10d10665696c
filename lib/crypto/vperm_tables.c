/*
 * The tables of the vector-permute AES (lib/crypto/vperm_tables.h), derived
 * at first use from the field arithmetic, after Hamburg, "Accelerating AES
 * with Vector Permute Instructions" (CHES 2009): the method is the paper's,
 * the constants come out of the definitions below.
 *
 * AES's field GF(2^8) (modulo x^8 + x^4 + x^3 + x + 1, FIPS-197 4.2) is
 * written as a tower: F = GF(16) modulo y^4 + y + 1, and K = F[t] modulo
 * t^2 + a t + a for the first a in F (from 2 up) that makes it irreducible.
 * An element k + i t of K is the byte (i << 4) | k: PSHUFB, which looks up
 * 16-byte tables with 4-bit indices, then computes nibble functions of
 * every byte of the state at once. The isomorphism phi from GF(2^8) to K
 * maps x to the first root beta (as a byte) of the AES polynomial in K; it
 * is linear over GF(2), so the change of basis T(x) = phi(x) is one
 * lookup per nibble (VT_IPT_*). The encryption state stays in basis T
 * between rounds; decryption's in U = T after the inverse of the S-box's
 * affine map (VT_DIPT_*), so InvSubBytes needs only the inversion.
 *
 * Inversion in K with nibble lookups only (Hamburg's method): for
 * x = k + i t with j = i + k and the norm N = k^2 + a i k + a i^2,
 *   io = j + 1 / (1/i + a/k) = N / (k + a i),
 *   jo = i + 1 / (1/j + a/k) = N / (k + a j),
 * so 1/io = (k + a i) / N and 1/jo = (k + a j) / N are linear in the
 * coordinates of x^-1 = ((k + a i) + i t) / N:
 *   x^-1 = (1/io) (1 + t (a + 1) / a^2) + (1/jo) t / a^2.
 * Each output table maps io (or jo) to its term, taken back through
 * phi^-1 and through whatever linear map the round needs (the S-box's
 * affine map, MixColumns' 2, InvMixColumns' 9, 11, 13, 14, the basis T or
 * U); the two halves are XORed. Division by zero is the index 0x80, which
 * PSHUFB turns into 0: 1/0 and a/0 are 0x80, and a sum with one 0x80 term
 * keeps bit 7; every case (i, j or k zero, k + a i zero, x zero) then
 * comes out right (tests/drivers/vperm checks the whole cipher).
 * The S-box's constants (0x63, and 0x05 for its inverse) are not in the
 * tables: the round keys carry them (drivers/vperm/vperm.c).
 */
#include "lib/crypto/vperm_tables.h"

#include <stdbool.h>

#include "lib/crypto/aes_tables.h"

#define F_POLY		0x13	/* y^4 + y + 1 */

struct vperm_tables vperm_tab;
static bool ready;

static unsigned gf16_mul(unsigned a, unsigned b)
{
	unsigned p = 0;

	for (; b; b >>= 1) {
		if (b & 1)
			p ^= a;
		a <<= 1;
		if (a & 0x10)
			a ^= F_POLY;
	}
	return p;
}

/* 1/x in F; 0 for x = 0. */
static unsigned gf16_inv(unsigned x)
{
	unsigned y;

	for (y = 1; y < 16; y++)
		if (gf16_mul(x, y) == 1)
			return y;
	return 0;
}

/* (k1 + i1 t)(k2 + i2 t) in K, t^2 = a t + a. */
static unsigned k_mul(unsigned x, unsigned y, unsigned a)
{
	unsigned i1 = x >> 4, k1 = x & 15, i2 = y >> 4, k2 = y & 15;
	unsigned ii = gf16_mul(i1, i2);

	return (gf16_mul(k1, i2) ^ gf16_mul(i1, k2) ^ gf16_mul(ii, a)) << 4 |
	       (gf16_mul(k1, k2) ^ gf16_mul(ii, a));
}

/* The AES S-box's affine map without its constant (FIPS-197 5.1.1). */
static unsigned affine(unsigned b)
{
	b |= b << 8;
	return (b ^ b >> 4 ^ b >> 5 ^ b >> 6 ^ b >> 7) & 0xff;
}

void vperm_tables_init(void)
{
	static uint8_t phi[256], phi_inv[256], affine_inv[256];
	unsigned a, beta = 0, x, p, r, c, v, e1[16], e2[16];
	uint8_t (*t)[16] = vperm_tab.t;

	if (ready)
		return;
	/* a: t^2 + a t + a has no root in F. */
	for (a = 2; a < 16; a++) {
		for (x = 0; x < 16 && (gf16_mul(x, x) ^ gf16_mul(a, x) ^ a) != 0; x++)
			;
		if (x == 16)
			break;
	}
	/* beta: the first root of x^8 + x^4 + x^3 + x + 1 in K; phi(x^n) = beta^n. */
	for (x = 2; x < 256 && !beta; x++) {
		unsigned pw[9], n;

		pw[0] = 1;
		for (n = 1; n <= 8; n++)
			pw[n] = k_mul(pw[n - 1], x, a);
		if ((pw[8] ^ pw[4] ^ pw[3] ^ pw[1] ^ pw[0]) == 0)
			beta = x;
	}
	for (x = 0; x < 256; x++) {
		unsigned pw = 1, y = 0, n;

		for (n = 0; n < 8; n++, pw = k_mul(pw, beta, a))
			if (x >> n & 1)
				y ^= pw;
		phi[x] = (uint8_t)y;
		phi_inv[y] = (uint8_t)x;
		affine_inv[affine(x)] = (uint8_t)x;
	}
	/* The two terms of x^-1 (above), as GF(2^8) bytes; 0 for index 0. */
	{
		unsigned a2 = gf16_inv(gf16_mul(a, a));
		unsigned c1 = gf16_mul(a ^ 1, a2) << 4 | 1, c2 = a2 << 4;

		e1[0] = e2[0] = 0;
		for (v = 1; v < 16; v++) {
			e1[v] = phi_inv[k_mul(gf16_inv(v), c1, a)];
			e2[v] = phi_inv[k_mul(gf16_inv(v), c2, a)];
		}
	}
	for (v = 0; v < 16; v++) {
		unsigned s1 = affine(e1[v]), s2 = affine(e2[v]);

		t[VT_MASK][v] = 0x0f;
		t[VT_INV][v] = (uint8_t)(v ? gf16_inv(v) : 0x80);
		t[VT_INVA][v] = (uint8_t)(v ? gf16_mul(a, gf16_inv(v)) : 0x80);
		t[VT_IPT_LO][v] = phi[v];
		t[VT_IPT_HI][v] = phi[v << 4];
		t[VT_DIPT_LO][v] = phi[affine_inv[v]];
		t[VT_DIPT_HI][v] = phi[affine_inv[v << 4]];
		t[VT_SB1U][v] = phi[s1];
		t[VT_SB1T][v] = phi[s2];
		t[VT_SB2U][v] = phi[aes_gf_mul(2, s1)];
		t[VT_SB2T][v] = phi[aes_gf_mul(2, s2)];
		t[VT_SBOU][v] = (uint8_t)s1;
		t[VT_SBOT][v] = (uint8_t)s2;
		t[VT_D9U][v] = phi[affine_inv[aes_gf_mul(9, e1[v])]];
		t[VT_D9T][v] = phi[affine_inv[aes_gf_mul(9, e2[v])]];
		t[VT_DDU][v] = phi[affine_inv[aes_gf_mul(13, e1[v])]];
		t[VT_DDT][v] = phi[affine_inv[aes_gf_mul(13, e2[v])]];
		t[VT_DBU][v] = phi[affine_inv[aes_gf_mul(11, e1[v])]];
		t[VT_DBT][v] = phi[affine_inv[aes_gf_mul(11, e2[v])]];
		t[VT_DEU][v] = phi[affine_inv[aes_gf_mul(14, e1[v])]];
		t[VT_DET][v] = phi[affine_inv[aes_gf_mul(14, e2[v])]];
		t[VT_DOU][v] = (uint8_t)e1[v];
		t[VT_DOT][v] = (uint8_t)e2[v];
		t[VT_K63][v] = phi[0x63];
		t[VT_K05][v] = phi[0x05];
		/* Byte v is row r of column c (FIPS-197 3.4: in[r + 4c]). */
		r = v & 3;
		c = v >> 2;
		p = 4 * ((c + r) & 3) + r;	/* ShiftRows: s'[r][c] = s[r][c + r] */
		t[VT_SR][v] = (uint8_t)p;
		t[VT_ISR][v] = (uint8_t)(4 * ((c - r) & 3) + r);
		t[VT_ROT1][v] = (uint8_t)(4 * c + ((r + 1) & 3));
		t[VT_ROT3][v] = (uint8_t)(4 * c + ((r + 3) & 3));
	}
	ready = true;
}
