/* aes_mode: one dispatch from (mode, direction) to lib/crypto/aes.c. See aes_mode.h. */
#include "lib/crypto/aes_mode.h"

int aes_crypt_mode(const struct aes_ctx *c, enum aes_mode m, enum aes_dir d, uint8_t *iv,
		   const uint8_t *in, uint8_t *out, size_t len)
{
	int enc = d == AES_DIR_ENCRYPT, rc;

	if ((unsigned)d >= AES_DIR_COUNT || (m != AES_MODE_ECB && !iv))
		return AES_MODE_EUNSUPPORTED;
	switch (m) {
	case AES_MODE_ECB:
		rc = enc ? aes_ecb_encrypt(c, in, out, len) : aes_ecb_decrypt(c, in, out, len);
		break;
	case AES_MODE_CBC:
		rc = enc ? aes_cbc_encrypt(c, iv, in, out, len) : aes_cbc_decrypt(c, iv, in, out, len);
		break;
	case AES_MODE_CFB128:
		rc = enc ? aes_cfb128_encrypt(c, iv, in, out, len)
			 : aes_cfb128_decrypt(c, iv, in, out, len);
		break;
	case AES_MODE_OFB:
		aes_ofb(c, iv, in, out, len);
		rc = 0;
		break;
	case AES_MODE_CTR:
		aes_ctr(c, iv, in, out, len);
		rc = 0;
		break;
	default:
		return AES_MODE_EUNSUPPORTED;
	}
	return rc;
}
