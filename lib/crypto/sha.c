/*
 * SHA-1 and SHA-256, FIPS 180-4 sections 5.1.1 (padding), 6.1 and 6.2: the
 * streaming interface and the padding, around the compression functions of
 * lib/crypto/sha_blocks.c.
 */
#include "lib/crypto/sha.h"

#include <string.h>

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* ---- Shared buffering and padding (FIPS 180-4 5.1.1) ---- */

typedef void (*blocks_fn)(uint32_t *h, const uint8_t *p, size_t nblocks);

static void md_update(uint32_t *h, uint8_t *buf, unsigned *used, uint64_t *length,
		      blocks_fn blocks, const void *data, size_t len)
{
	const uint8_t *p = data;
	*length += len;
	if (*used) {
		size_t take = SHA_BLOCK_BYTES - *used;
		if (take > len)
			take = len;
		memcpy(buf + *used, p, take);
		*used += (unsigned)take;
		p += take;
		len -= take;
		if (*used < SHA_BLOCK_BYTES)
			return;
		blocks(h, buf, 1);
		*used = 0;
	}
	if (len >= SHA_BLOCK_BYTES) {
		size_t n = len / SHA_BLOCK_BYTES;
		blocks(h, p, n);
		p += n * SHA_BLOCK_BYTES;
		len -= n * SHA_BLOCK_BYTES;
	}
	if (len) {
		memcpy(buf, p, len);
		*used = (unsigned)len;
	}
}

static void md_final(uint32_t *h, uint8_t *buf, unsigned used, uint64_t length,
		     blocks_fn blocks)
{
	uint64_t bits = length * 8;
	unsigned i;
	buf[used++] = 0x80;
	if (used > SHA_BLOCK_BYTES - 8) {
		memset(buf + used, 0, SHA_BLOCK_BYTES - used);
		blocks(h, buf, 1);
		used = 0;
	}
	memset(buf + used, 0, SHA_BLOCK_BYTES - 8 - used);
	for (i = 0; i < 8; i++)
		buf[SHA_BLOCK_BYTES - 1 - i] = (uint8_t)(bits >> (8 * i));
	blocks(h, buf, 1);
}

void sha1_init(struct sha1_ctx *c)
{
	static const uint32_t iv[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
	memcpy(c->h, iv, sizeof(iv));
	c->length = 0;
	c->used = 0;
}

void sha1_update(struct sha1_ctx *c, const void *data, size_t len)
{
	md_update(c->h, c->buf, &c->used, &c->length, sha1_blocks, data, len);
}

void sha1_final(struct sha1_ctx *c, uint8_t out[SHA1_DIGEST_BYTES])
{
	unsigned i;
	md_final(c->h, c->buf, c->used, c->length, sha1_blocks);
	for (i = 0; i < 5; i++)
		store_be32(out + 4 * i, c->h[i]);
	memset(c, 0, sizeof(*c));
}

void sha256_init(struct sha256_ctx *c)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(c->h, iv, sizeof(iv));
	c->length = 0;
	c->used = 0;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
	md_update(c->h, c->buf, &c->used, &c->length, sha256_blocks, data, len);
}

void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_BYTES])
{
	unsigned i;
	md_final(c->h, c->buf, c->used, c->length, sha256_blocks);
	for (i = 0; i < 8; i++)
		store_be32(out + 4 * i, c->h[i]);
	memset(c, 0, sizeof(*c));
}

void sha1(const void *data, size_t len, uint8_t out[SHA1_DIGEST_BYTES])
{
	struct sha1_ctx c;
	sha1_init(&c);
	sha1_update(&c, data, len);
	sha1_final(&c, out);
}

void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES])
{
	struct sha256_ctx c;
	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, out);
}
