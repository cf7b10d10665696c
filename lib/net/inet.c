/* inet: byte order, the Internet checksum, IPv4 addresses as text. See inet.h. */
#include "lib/net/inet.h"

#include "lib/util/fmt.h"

uint32_t inet_sum(uint32_t sum, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
		if (sum & 0x80000000u)
			sum = (sum & 0xFFFF) + (sum >> 16);
	}
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	return sum;
}

uint16_t inet_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t inet_checksum(const void *p, size_t len)
{
	return inet_fold(inet_sum(0, p, len));
}

bool inet_parse_ip4(const char *s, size_t len, uint32_t *out)
{
	uint32_t addr = 0;
	size_t i = 0;
	unsigned part;

	for (part = 0; part < 4; part++) {
		unsigned v = 0, digits = 0;

		if (part > 0) {
			if (i >= len || s[i] != '.')
				return false;
			i++;
		}
		while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(s[i] - '0');
			digits++;
			i++;
		}
		if (digits == 0 || digits > 3 || v > 255)
			return false;
		addr = addr << 8 | v;
	}
	if (i != len)
		return false;
	*out = addr;
	return true;
}

char *inet_format_ip4(uint32_t addr, char out[INET_ADDR_TEXT])
{
	fmt_snprintf(out, INET_ADDR_TEXT, "%u.%u.%u.%u", (unsigned)(addr >> 24), (unsigned)(addr >> 16 & 0xFF),
		     (unsigned)(addr >> 8 & 0xFF), (unsigned)(addr & 0xFF));
	return out;
}

bool inet_mask_ok(uint32_t mask)
{
	uint32_t inv = ~mask;
	return (inv & (inv + 1)) == 0;	/* the zeros form one run at the low end */
}
