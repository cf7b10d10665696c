/* cpuid_dump: parse InstLatx64-format CPUID dumps. See cpuid_dump.h. */
#include "lib/host/cpuid_dump.h"

#include <string.h>

#define RECORD_TAG	"CPUID"
#define CPU_MARKER	"------[ Logical CPU"
#define HEX_WORD	8	/* hex digits per leaf number and register */

enum line_kind { LINE_OTHER, LINE_RECORD, LINE_BAD };

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool starts_with(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(p, prefix, k) == 0;
}

/* Reads exactly HEX_WORD hex digits at p[*i]; advances *i. */
static bool read_word(const char *p, size_t n, size_t *i, uint32_t *v)
{
	size_t k;

	if (n - *i < HEX_WORD)
		return false;
	*v = 0;
	for (k = 0; k < HEX_WORD; k++) {
		int h = hex_value(p[*i + k]);
		if (h < 0)
			return false;
		*v = (*v << 4) | (uint32_t)h;
	}
	*i += HEX_WORD;
	return true;
}

static void skip_spaces(const char *p, size_t n, size_t *i)
{
	while (*i < n && is_space(p[*i]))
		(*i)++;
}

/*
 * Classifies one line (without its line end). A line is a record if it is
 * "CPUID" + blanks + a token of hex digits ending at ':' or a blank; such a
 * line must then be well-formed. "CPUID CPU Name : ..." is not a record.
 */
static enum line_kind parse_line(const char *p, size_t n, uint32_t *leaf,
				 struct cpuid_regs *r)
{
	uint32_t *regs[4] = { &r->eax, &r->ebx, &r->ecx, &r->edx };
	size_t i = strlen(RECORD_TAG), tok, k;

	if (!starts_with(p, n, RECORD_TAG) || i >= n || !is_space(p[i]))
		return LINE_OTHER;
	skip_spaces(p, n, &i);
	for (tok = i; tok < n && p[tok] != ':' && !is_space(p[tok]); tok++)
		if (hex_value(p[tok]) < 0)
			return LINE_OTHER;
	if (tok == i)
		return LINE_OTHER;

	if (tok - i != HEX_WORD || !read_word(p, n, &i, leaf))
		return LINE_BAD;
	if (i < n && p[i] == ':')
		i++;
	skip_spaces(p, n, &i);
	for (k = 0; k < 4; k++) {
		if (k > 0 && (i >= n || p[i++] != '-'))
			return LINE_BAD;
		if (!read_word(p, n, &i, regs[k]))
			return LINE_BAD;
	}
	skip_spaces(p, n, &i);
	if (i < n && p[i] == '[') {
		while (n > i && is_space(p[n - 1]))
			n--;
		if (p[n - 1] != ']')
			return LINE_BAD;
		i = n;
	}
	return i == n ? LINE_RECORD : LINE_BAD;
}

/* Length of the line at p (up to '\n' or the end of the n bytes). */
static size_t line_length(const char *p, size_t n)
{
	size_t k = 0;

	while (k < n && p[k] != '\n')
		k++;
	return k;
}

static bool leaf_seen(const struct cpuid_dump *d, uint32_t leaf)
{
	unsigned k;

	for (k = 0; k < d->n; k++)
		if (d->e[k].leaf == leaf)
			return true;
	return false;
}

int cpuid_dump_parse(struct cpuid_dump *d, const char *text, size_t len,
		     unsigned *line)
{
	size_t pos = 0;
	unsigned lineno = 0;

	d->n = 0;
	if (line)
		*line = 0;
	while (pos < len) {
		const char *p = text + pos;
		size_t n = line_length(p, len - pos);
		struct cpuid_dump_entry e;
		struct cpuid_dump_entry *last = d->n ? &d->e[d->n - 1] : NULL;

		pos += n + (pos + n < len);	/* and the '\n' */
		lineno++;
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (starts_with(p, n, CPU_MARKER) && d->n > 0)
			break;			/* second logical CPU */
		switch (parse_line(p, n, &e.leaf, &e.r)) {
		case LINE_OTHER:
			continue;
		case LINE_BAD:
			if (line)
				*line = lineno;
			return CPUID_DUMP_EFORMAT;
		case LINE_RECORD:
			break;
		}
		if (last && last->leaf == e.leaf)
			e.subleaf = last->subleaf + 1;
		else if (leaf_seen(d, e.leaf))
			break;			/* new CPU without a marker */
		else
			e.subleaf = 0;
		if (d->n == CPUID_DUMP_MAX) {
			if (line)
				*line = lineno;
			return CPUID_DUMP_EFULL;
		}
		d->e[d->n++] = e;
	}
	return d->n > 0 ? 0 : CPUID_DUMP_EEMPTY;
}

const char *cpuid_dump_strerror(int err)
{
	switch (err) {
	case 0:
		return "no error";
	case CPUID_DUMP_EFORMAT:
		return "malformed CPUID line";
	case CPUID_DUMP_EFULL:
		return "too many CPUID lines";
	case CPUID_DUMP_EEMPTY:
		return "no CPUID lines";
	}
	return "unknown error";
}

bool cpuid_dump_query(void *dump, uint32_t leaf, uint32_t subleaf,
		      struct cpuid_regs *out)
{
	const struct cpuid_dump *d = dump;
	unsigned k;

	for (k = 0; k < d->n; k++) {
		if (d->e[k].leaf == leaf && d->e[k].subleaf == subleaf) {
			*out = d->e[k].r;
			return true;
		}
	}
	return false;
}
