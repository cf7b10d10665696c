/*
 * The AES lookup tables, computed once at first use (aes_tables_init())
 * from the field GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS-197 4.2):
 * nothing is typed in, and the image carries the ~200 bytes of code that
 * make them instead of 16.5 KiB of tables (they live in .bss, which the
 * flat image does not hold). Layout: lib/crypto/aes_tables.h.
 * Sources: FIPS-197 4.2, 5.1.1 (S-box), 5.1.3 (MixColumns), 5.3.2
 * (inverse S-box), 5.3.3 (InvMixColumns).
 */
#include "lib/crypto/aes_tables.h"

#include <stdbool.h>

#define GF_POLY		0x11b	/* x^8 + x^4 + x^3 + x + 1, FIPS-197 4.2 */
#define AFFINE_C	0x63	/* the constant c of the affine transform, FIPS-197 5.1.1 */

uint8_t aes_sbox[256] __attribute__((aligned(64)));
uint8_t aes_inv_sbox[256] __attribute__((aligned(64)));
uint32_t aes_te[4][256] __attribute__((aligned(64)));
uint32_t aes_td[4][256] __attribute__((aligned(64)));
uint32_t aes_sbox_col[4][256] __attribute__((aligned(64)));
uint32_t aes_inv_sbox_col[4][256] __attribute__((aligned(64)));

static bool tables_ready;

/* Shift-and-add, reducing by GF_POLY. */
uint8_t aes_gf_mul(uint8_t a, uint8_t b)
{
	unsigned p = 0, x = a;

	while (b) {
		if (b & 1)
			p ^= x;
		x <<= 1;
		if (x & 0x100)
			x ^= GF_POLY;
		b >>= 1;
	}
	return (uint8_t)p;
}

static uint8_t rotl8(uint8_t x, unsigned n)
{
	return (uint8_t)((x << n) | (x >> (8 - n)));
}

static uint32_t rotl32(uint32_t x, unsigned n)
{
	return n ? (x << n) | (x >> (32 - n)) : x;
}

/* A column from its rows 0..3 (row 0 in bits 0-7). */
static uint32_t column(uint8_t r0, uint8_t r1, uint8_t r2, uint8_t r3)
{
	return (uint32_t)r0 | (uint32_t)r1 << 8 | (uint32_t)r2 << 16 | (uint32_t)r3 << 24;
}

void aes_tables_init(void)
{
	unsigned x, r;
	uint8_t inv[256];

	if (tables_ready)
		return;
	/* Multiplicative inverses: x * y = 1 (0 maps to 0, FIPS-197 5.1.1). */
	inv[0] = 0;
	for (x = 1; x < 256; x++) {
		unsigned y;
		for (y = 1; y < 256 && aes_gf_mul((uint8_t)x, (uint8_t)y) != 1; y++)
			;
		inv[x] = (uint8_t)y;
	}
	for (x = 0; x < 256; x++) {
		uint8_t b = inv[x];
		/* The affine transform of FIPS-197 equation (5.1). */
		uint8_t s = b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ AFFINE_C;
		aes_sbox[x] = s;
		aes_inv_sbox[s] = (uint8_t)x;
	}
	for (x = 0; x < 256; x++) {
		uint8_t s = aes_sbox[x], i = aes_inv_sbox[x];
		/* Column 0 of the MixColumns matrix (FIPS-197 5.6): 02 01 01 03. */
		uint32_t e = column(aes_gf_mul(s, 2), s, s, aes_gf_mul(s, 3));
		/* Column 0 of the InvMixColumns matrix (5.10): 0e 09 0d 0b. */
		uint32_t d = column(aes_gf_mul(i, 14), aes_gf_mul(i, 9), aes_gf_mul(i, 13), aes_gf_mul(i, 11));
		for (r = 0; r < 4; r++) {
			aes_te[r][x] = rotl32(e, 8 * r);
			aes_td[r][x] = rotl32(d, 8 * r);
			aes_sbox_col[r][x] = (uint32_t)s << (8 * r);
			aes_inv_sbox_col[r][x] = (uint32_t)i << (8 * r);
		}
	}
	tables_ready = true;
}
