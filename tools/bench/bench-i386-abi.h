/*
 * The entry points make bench-i386 calls (tools/bench/bench-i386-abi.c):
 * the software AES and AES-NI functions of the kernel objects, in the
 * i386 System V calling convention. The kernel's C code is built with
 * -mregparm=3 -mrtd (Makefile KABI), which a program built for Linux
 * cannot call directly; each of these calls the kernel function once per
 * buffer (a few instructions per 8 KiB).
 */
#ifndef CQ_TOOLS_BENCH_I386_ABI_H
#define CQ_TOOLS_BENCH_I386_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "lib/crypto/aes.h"
#include "lib/crypto/montmul.h"
#include "drivers/aesni/aesni.h"
#include "drivers/vperm/vperm.h"

#define BI_ABI	__attribute__((regparm(0), cdecl))

BI_ABI int bi_aes_set_key(struct aes_ctx *c, const uint8_t *key, size_t key_bytes);
BI_ABI void bi_aes_wipe(struct aes_ctx *c);
BI_ABI int bi_aes_ecb_encrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len);
BI_ABI int bi_aes_ecb_decrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len);
BI_ABI int bi_aes_cbc_encrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
			      const uint8_t *in, uint8_t *out, size_t len);
BI_ABI int bi_aes_cbc_decrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
			      const uint8_t *in, uint8_t *out, size_t len);
BI_ABI void bi_aes_ctr(const struct aes_ctx *c, uint8_t counter[AES_BLOCK_BYTES],
		       const uint8_t *in, uint8_t *out, size_t len);

BI_ABI int bi_aesni_expand_key(struct aesni_key *enc, struct aesni_key *dec,
			       const uint8_t *key, unsigned key_bits);
BI_ABI void bi_aesni_ecb_encrypt(const struct aesni_key *enc, const uint8_t *in, uint8_t *out,
				 size_t len);
BI_ABI void bi_aesni_ecb_decrypt(const struct aesni_key *dec, const uint8_t *in, uint8_t *out,
				 size_t len);
BI_ABI void bi_aesni_cbc_encrypt(const struct aesni_key *enc, uint8_t iv[16],
				 const uint8_t *in, uint8_t *out, size_t len);
BI_ABI void bi_aesni_cbc_decrypt(const struct aesni_key *dec, uint8_t iv[16],
				 const uint8_t *in, uint8_t *out, size_t len);
BI_ABI void bi_aesni_ctr(const struct aesni_key *enc, uint8_t counter[16],
			 const uint8_t *in, uint8_t *out, size_t len);

BI_ABI int bi_vperm_expand_key(struct vperm_key *k, const uint8_t *key, unsigned key_bits);
BI_ABI void bi_vperm_crypt(const struct vperm_key *k, enum vperm_op op, uint8_t iv[16],
			   const uint8_t *in, uint8_t *out, size_t blocks);

/* lib/crypto/montmul's montmul() on its integer path (sse2 0) or on the SSE2
 * path (montmul_raw_sse2), and its 1024-bit known answer's operands. */
BI_ABI void bi_montmul(int sse2, uint32_t *r, const uint32_t *a, const uint32_t *b,
		       const uint32_t *m, unsigned n, uint32_t *tmp);
BI_ABI const struct montmul_kat *bi_montmul_kat(void);

#endif
