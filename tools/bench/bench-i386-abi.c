/*
 * bench-i386's way into the kernel objects (see bench-i386-abi.h): built
 * with the kernel's flags, linked with the kernel objects it calls (and the
 * kernel's own memcpy, memset and 64-bit division, which they call in the
 * kernel's convention) into one object whose only global symbols are
 * these functions (mk/bench-i386.mk).
 */
#include "tools/bench/bench-i386-abi.h"

BI_ABI int bi_aes_set_key(struct aes_ctx *c, const uint8_t *key, size_t key_bytes)
{
	return aes_set_key(c, key, key_bytes);
}

BI_ABI void bi_aes_wipe(struct aes_ctx *c)
{
	aes_wipe(c);
}

BI_ABI int bi_aes_ecb_encrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
	return aes_ecb_encrypt(c, in, out, len);
}

BI_ABI int bi_aes_ecb_decrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
	return aes_ecb_decrypt(c, in, out, len);
}

BI_ABI int bi_aes_cbc_encrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
			      const uint8_t *in, uint8_t *out, size_t len)
{
	return aes_cbc_encrypt(c, iv, in, out, len);
}

BI_ABI int bi_aes_cbc_decrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
			      const uint8_t *in, uint8_t *out, size_t len)
{
	return aes_cbc_decrypt(c, iv, in, out, len);
}

BI_ABI void bi_aes_ctr(const struct aes_ctx *c, uint8_t counter[AES_BLOCK_BYTES],
		       const uint8_t *in, uint8_t *out, size_t len)
{
	aes_ctr(c, counter, in, out, len);
}

BI_ABI int bi_aesni_expand_key(struct aesni_key *enc, struct aesni_key *dec,
			       const uint8_t *key, unsigned key_bits)
{
	return aesni_expand_key(enc, dec, key, key_bits);
}

BI_ABI void bi_aesni_ecb_encrypt(const struct aesni_key *enc, const uint8_t *in, uint8_t *out,
				 size_t len)
{
	aesni_ecb_encrypt(enc, in, out, len);
}

BI_ABI void bi_aesni_ecb_decrypt(const struct aesni_key *dec, const uint8_t *in, uint8_t *out,
				 size_t len)
{
	aesni_ecb_decrypt(dec, in, out, len);
}

BI_ABI void bi_aesni_cbc_encrypt(const struct aesni_key *enc, uint8_t iv[16],
				 const uint8_t *in, uint8_t *out, size_t len)
{
	aesni_cbc_encrypt(enc, iv, in, out, len);
}

BI_ABI void bi_aesni_cbc_decrypt(const struct aesni_key *dec, uint8_t iv[16],
				 const uint8_t *in, uint8_t *out, size_t len)
{
	aesni_cbc_decrypt(dec, iv, in, out, len);
}

BI_ABI void bi_aesni_ctr(const struct aesni_key *enc, uint8_t counter[16],
			 const uint8_t *in, uint8_t *out, size_t len)
{
	aesni_ctr(enc, counter, in, out, len);
}

BI_ABI void bi_montmul(int sse2, uint32_t *r, const uint32_t *a, const uint32_t *b,
		       const uint32_t *m, unsigned n, uint32_t *tmp)
{
	static int path = -1;

	if (path != sse2) {
		montmul_use(sse2 ? montmul_raw_sse2 : NULL, "sse2");
		path = sse2;
	}
	montmul(r, a, b, m, n, tmp);
}

BI_ABI const struct montmul_kat *bi_montmul_kat(void)
{
	return &montmul_kat_1024;
}

BI_ABI int bi_vperm_expand_key(struct vperm_key *k, const uint8_t *key, unsigned key_bits)
{
	return vperm_expand_key(k, key, key_bits);
}

BI_ABI void bi_vperm_crypt(const struct vperm_key *k, enum vperm_op op, uint8_t iv[16],
			   const uint8_t *in, uint8_t *out, size_t blocks)
{
	vperm_crypt(k, op, iv, in, out, blocks);
}
