/* hex: hexadecimal text <-> bytes. See hex.h. */
#include "lib/util/hex.h"

int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hex_decode(const char *s, size_t len, uint8_t *out, size_t cap, size_t *outlen,
	       size_t *bad)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (hex_digit((unsigned char)s[i]) < 0) {
			if (bad)
				*bad = i;
			return HEX_EDIGIT;
		}
	}
	if (len % 2)
		return HEX_EODD;
	if (len / 2 > cap)
		return HEX_ESPACE;
	for (i = 0; i < len / 2; i++)
		out[i] = (uint8_t)(hex_digit((unsigned char)s[2 * i]) << 4 |
				   hex_digit((unsigned char)s[2 * i + 1]));
	*outlen = len / 2;
	return 0;
}

char *hex_encode(const uint8_t *in, size_t n, char *out, size_t cap)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (cap == 0)
		return out;
	for (i = 0; i < n && 2 * i + 2 < cap; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * i] = '\0';
	return out;
}
