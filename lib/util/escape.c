/* escape: outside text as one bounded, printable report line. See escape.h. */
#include "lib/util/escape.h"

#include <stdbool.h>

static const char hexdig[] = "0123456789abcdef";

enum esc_mode { ESC_LINE, ESC_TAP, ESC_VALUE };

static size_t esc_common(char *dst, size_t cap, const char *src, size_t src_len,
			 size_t max_out, enum esc_mode mode)
{
	size_t i, o = 0, cut = 0, limit;

	if (cap == 0)
		return 0;
	limit = max_out < ESC_MIN_OUT ? ESC_MIN_OUT : max_out;
	if (limit > cap - 1)
		limit = cap - 1;
	if (limit < ESC_MIN_OUT) {	/* too small for any piece and "...": empty */
		dst[0] = '\0';
		return 0;
	}
	if (src == NULL)
		src_len = 0;
	for (i = 0; i < src_len && src[i] != '\0'; i++) {
		unsigned char c = (unsigned char)src[i];
		bool plain = c >= 0x20 && c < 0x7f && c != '\\' && !(mode == ESC_TAP && c == '#') &&
			     !(mode == ESC_VALUE && c == ' ');
		size_t need = plain ? 1 : (c == '#' && mode == ESC_TAP ? 2 : 4);

		if (o + 3 <= limit)
			cut = o;	/* the last piece boundary that leaves room for "..." */
		if (o + need > limit) {
			dst[cut] = dst[cut + 1] = dst[cut + 2] = '.';
			dst[cut + 3] = '\0';
			return cut + 3;
		}
		if (plain) {
			dst[o++] = (char)c;
		} else if (c == '#' && mode == ESC_TAP) {
			dst[o++] = '\\';
			dst[o++] = '#';
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hexdig[c >> 4];
			dst[o++] = hexdig[c & 15];
		}
	}
	dst[o] = '\0';
	return o;
}

size_t esc_line(char *dst, size_t cap, const char *src, size_t src_len, size_t max_out)
{
	return esc_common(dst, cap, src, src_len, max_out, ESC_LINE);
}

size_t esc_tap_name(char *dst, size_t cap, const char *src, size_t src_len, size_t max_out)
{
	return esc_common(dst, cap, src, src_len, max_out, ESC_TAP);
}

size_t esc_value(char *dst, size_t cap, const char *src, size_t src_len, size_t max_out)
{
	if (src == NULL || src_len == 0 || src[0] == '\0') {
		if (cap == 0)
			return 0;
		return esc_common(dst, cap, "absent", 6, max_out, ESC_VALUE);
	}
	return esc_common(dst, cap, src, src_len, max_out, ESC_VALUE);
}
