/* smbios_parse: SMBIOS entry point, structures, BIOS banner. See smbios_parse.h. */
#include "lib/platform/smbios_parse.h"

#include <string.h>

#include "lib/util/bytes.h"

#define T_BIOS     0
#define T_SYSTEM   1
#define T_BOARD    2
#define T_END      127

/* SMBIOS 3.x, DSP0134 5.2.2: anchor, checksum at 5, length at 6 (0x18), table at 0x10. */
static bool ep3(const uint8_t *p, size_t room, struct smbios_ep *ep)
{
	unsigned elen;
	if (room < 0x18 || memcmp(p, "_SM3_", 5) != 0)
		return false;
	elen = p[6];
	if (elen < 0x18 || elen > 32 || elen > room || !bytes_sum_zero(p, elen))
		return false;
	ep->v3 = true;
	ep->major = p[7];
	ep->minor = p[8];
	ep->table_len = le32_get(p + 0x0C);
	ep->table_addr = (uint64_t)le32_get(p + 0x10) | ((uint64_t)le32_get(p + 0x14) << 32);
	ep->count = 0;
	return true;
}

/* SMBIOS 2.x, DSP0134 5.2.1: "_SM_", length at 5 (0x1F), "_DMI_" at 0x10 with its own checksum. */
static bool ep2(const uint8_t *p, size_t room, struct smbios_ep *ep)
{
	unsigned elen;
	if (room < 0x1F || memcmp(p, "_SM_", 4) != 0)
		return false;
	elen = p[5];
	if (elen < 0x1E || elen > 32 || elen > room || !bytes_sum_zero(p, elen))
		return false;
	if (memcmp(p + 0x10, "_DMI_", 5) != 0 || !bytes_sum_zero(p + 0x10, 15))
		return false;
	ep->v3 = false;
	ep->major = p[6];
	ep->minor = p[7];
	ep->table_len = le16_get(p + 0x16);
	ep->table_addr = le32_get(p + 0x18);
	ep->count = le16_get(p + 0x1C);
	return true;
}

long smbios_find_entry(const uint8_t *seg, size_t len, struct smbios_ep *ep)
{
	size_t off;
	long found2 = -1;
	struct smbios_ep e2;

	memset(ep, 0, sizeof(*ep));
	for (off = 0; off + 16 <= len; off += 16) {
		if (ep3(seg + off, len - off, ep))
			return (long)off;       /* a 3.x entry point is preferred (DSP0134 5.2) */
		if (found2 < 0 && ep2(seg + off, len - off, &e2))
			found2 = (long)off;
	}
	if (found2 >= 0)
		*ep = e2;
	return found2;
}

/* String n (1-based) of the set at s (up to end), raw into dst; "" if absent. */
static void get_string(const uint8_t *s, const uint8_t *end, unsigned n, char *dst)
{
	unsigned i = 1;
	size_t k;

	dst[0] = '\0';
	if (n == 0)
		return;
	while (s < end && *s) {
		if (i == n) {
			for (k = 0; k < SMBIOS_STR_MAX && s + k < end && s[k]; k++)
				dst[k] = (char)s[k];
			dst[k] = '\0';
			return;
		}
		while (s < end && *s)
			s++;
		s++;            /* the NUL */
		i++;
	}
}

unsigned smbios_parse_table(const uint8_t *t, size_t len, unsigned max_count,
			    struct smbios_facts *f)
{
	size_t off = 0;
	unsigned n = 0;

	memset(f, 0, sizeof(*f));
	while (off + 4 <= len && (max_count == 0 || n < max_count)) {
		const uint8_t *h = t + off;
		unsigned type = h[0], flen = h[1];
		const uint8_t *str, *end = t + len, *p;

		if (flen < 4) {
			f->error = "a structure shorter than its header";
			break;
		}
		if (off + flen > len) {
			f->error = "a structure runs past the table";
			break;
		}
		/* The string set: up to the first double NUL (an empty set is two NULs). */
		str = h + flen;
		p = str;
		while (p + 1 < end && !(p[0] == 0 && p[1] == 0))
			p++;
		if (p + 1 >= end) {
			f->error = "a string set without its double NUL";
			break;
		}
		n++;
		if (type == T_BIOS && !f->have_bios && flen > 0x08) {
			f->have_bios = true;
			get_string(str, p + 1, h[0x04], f->bios_vendor);
			get_string(str, p + 1, h[0x05], f->bios_version);
			get_string(str, p + 1, h[0x08], f->bios_date);
		} else if (type == T_SYSTEM && !f->have_system && flen > 0x07) {
			f->have_system = true;
			get_string(str, p + 1, h[0x04], f->sys_vendor);
			get_string(str, p + 1, h[0x05], f->sys_product);
			get_string(str, p + 1, h[0x07], f->sys_serial);
		} else if (type == T_BOARD && !f->have_board && flen > 0x07) {
			f->have_board = true;
			get_string(str, p + 1, h[0x04], f->board_vendor);
			get_string(str, p + 1, h[0x05], f->board_product);
			get_string(str, p + 1, h[0x07], f->board_serial);
		}
		off = (size_t)(p + 2 - t);
		if (type == T_END)
			break;
	}
	f->structures = n;
	return n;
}

static bool printable(uint8_t c)
{
	return c >= 0x20 && c < 0x7f;
}

bool bios_banner_find(const uint8_t *rom, size_t len, char *out, size_t cap)
{
	size_t i = 0, j, k;

	if (cap == 0)
		return false;
	out[0] = '\0';
	while (i < len) {
		if (!printable(rom[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && printable(rom[j]); j++)
			;
		if (j - i >= 8) {
			for (k = i; k + 4 <= j; k++)
				if (memcmp(rom + k, "BIOS", 4) == 0)
					break;
			if (k + 4 <= j) {
				size_t n = j - i;
				if (n > SMBIOS_STR_MAX)
					n = SMBIOS_STR_MAX;
				if (n > cap - 1)
					n = cap - 1;
				memcpy(out, rom + i, n);
				out[n] = '\0';
				return true;
			}
		}
		i = j;
	}
	return false;
}
