/* boxkey: the one name of a box. See boxkey.h. */
#include "lib/util/boxkey.h"
#include "lib/util/fmt.h"

/*
 * Placeholders seen in SMBIOS type 1/2 serials of boards whose vendor
 * never set one (AMI and Insyde templates, coreboot defaults, OEM boards):
 * a serial that only says "no serial here".
 */
static const char *const placeholders[] = {
	"to be filled by o.e.m.", "to be filled by oem", "default string", "system serial number",
	"base board serial number", "chassis serial number", "serial number", "not specified",
	"not applicable", "not available", "none", "n/a", "na", "0123456789", "123456789",
	"1234567890", "01234567890", "oem", "o.e.m.", "empty", "unknown", "invalid",
};

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* s equals p (lower case) ignoring case and surrounding blanks. */
static bool same_word(const char *s, const char *p)
{
	const char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s;
	while (*e)
		e++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	for (; s < e && *p; s++, p++)
		if (lower(*s) != *p)
			return false;
	return s == e && *p == '\0';
}

bool boxkey_placeholder(const char *serial)
{
	const char *s;
	char first = 0;
	bool one_char = true;
	size_t i;

	if (!serial)
		return true;
	for (s = serial; *s; s++) {
		if (*s == ' ' || *s == '\t')
			continue;
		if (!first)
			first = lower(*s);
		else if (lower(*s) != first)
			one_char = false;
	}
	if (!first || one_char)
		return true;	/* empty, blanks, or one character repeated */
	for (i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (same_word(serial, placeholders[i]))
			return true;
	return false;
}

static bool key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
	       c == '_' || c == '-';
}

/* Copies s into out as a key (blanks around it dropped, others mapped to '_'). */
static void copy_key(char *out, size_t cap, const char *s)
{
	const char *e;
	size_t o = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s;
	while (*e)
		e++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	for (; s < e && o + 1 < cap && o < BOXKEY_MAX; s++)
		out[o++] = key_char(*s) ? *s : '_';
	out[o] = '\0';
}

char boxkey_make(char *out, size_t cap, const char *asset, const char *sys_serial,
		 const char *board_serial, const uint8_t *mac)
{
	if (cap == 0)
		return 'u';
	if (asset && asset[0]) {
		copy_key(out, cap, asset);
		return 'a';
	}
	if (sys_serial && !boxkey_placeholder(sys_serial)) {
		copy_key(out, cap, sys_serial);
		return 's';
	}
	if (board_serial && !boxkey_placeholder(board_serial)) {
		copy_key(out, cap, board_serial);
		return 'b';
	}
	if (mac) {
		fmt_snprintf(out, cap, "mac-%02x%02x%02x%02x%02x%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
			     mac[5]);
		return 'm';
	}
	fmt_snprintf(out, cap, "unknown");
	return 'u';
}
