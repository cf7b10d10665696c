/*
 * Listing rows as text -> struct pci_listing_row: the two formats of
 * pci_listing.h, and telling them apart.
 */
#include "lib/host/pci_listing_int.h"

#include <stdarg.h>
#include <string.h>

#include "lib/util/fmt.h"

int pci_listing_fail(struct pci_listing_result *res, unsigned line,
    const char *fmt, ...)
{
	va_list ap;

	res->line = line;
	va_start(ap, fmt);
	fmt_vsnprintf(res->msg, sizeof res->msg, fmt, ap);
	va_end(ap);
	return -1;
}

struct cur {
	const char *p, *end;
};

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

static unsigned hex_val(char c)
{
	if (c <= '9')
		return c - '0';
	return (c | 0x20) - 'a' + 10;
}

/* Reads exactly n hex digits at p (within end) into *v. */
static bool hex_at(const char *p, const char *end, unsigned n, uint32_t *v)
{
	uint32_t x = 0;
	unsigned i;

	if (end - p < (long)n)
		return false;
	for (i = 0; i < n; i++) {
		if (!is_hex(p[i]))
			return false;
		x = x << 4 | hex_val(p[i]);
	}
	*v = x;
	return true;
}

/* Next whitespace-separated token; false at the end of the line. */
static bool token(struct cur *c, const char **t, size_t *n)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
	*t = c->p;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t')
		c->p++;
	*n = c->p - *t;
	return *n > 0;
}

/* A token of 1..maxd hex digits. */
static bool hex_tok(struct cur *c, unsigned maxd, uint32_t *v)
{
	const char *t;
	size_t n;

	return token(c, &t, &n) && n <= maxd && hex_at(t, t + n, n, v);
}

/* Decimal number of 1..3 digits at *p, advancing it. */
static bool dec_at(const char **p, const char *end, unsigned *v)
{
	const char *s = *p;

	*v = 0;
	while (*p < end && **p >= '0' && **p <= '9' && *p - s < 3)
		*v = *v * 10 + (*(*p)++ - '0');
	return *p > s;
}

static const char *find(const char *p, const char *end, const char *pat)
{
	size_t k = strlen(pat);

	for (; end - p >= (long)k; p++)
		if (memcmp(p, pat, k) == 0)
			return p;
	return NULL;
}

/* comBIOS Slot "B:D:F", all decimal. */
static bool combios_slot(const char *t, size_t n, struct pci_listing_row *r)
{
	const char *p = t, *end = t + n;

	return dec_at(&p, end, &r->bus) && p < end && *p++ == ':' &&
	    dec_at(&p, end, &r->dev) && p < end && *p++ == ':' &&
	    dec_at(&p, end, &r->fn) && p == end;
}

/* lspci "[DDDD:]BB:DD.F" at the start of a line; *after is what follows. */
static bool lspci_bdf(const char *p, const char *end, struct pci_listing_row *r,
    const char **after)
{
	uint32_t dom = 0, bus, dev, fn;

	if (hex_at(p, end, 4, &dom) && end - p > 4 && p[4] == ':')
		p += 5;
	if (!hex_at(p, end, 2, &bus) || end - p < 7 || p[2] != ':' ||
	    !hex_at(p + 3, end, 2, &dev) || p[5] != '.' ||
	    !hex_at(p + 6, end, 1, &fn) || dom != 0)
		return false;
	r->bus = bus;
	r->dev = dev;
	r->fn = fn;
	*after = p + 7;
	return true;
}

int pci_listing_detect(const char *p, const char *end)
{
	struct pci_listing_row r;
	struct cur c = { p, end };
	const char *t, *after;
	size_t n;

	if (end - p >= 4 && memcmp(p, "Slot", 4) == 0)
		return PCI_LISTING_COMBIOS;
	if (lspci_bdf(p, end, &r, &after))
		return PCI_LISTING_LSPCI;
	if (token(&c, &t, &n) && combios_slot(t, n, &r))
		return PCI_LISTING_COMBIOS;
	return 0;
}

const char *pci_listing_parse_combios(const char *p, const char *end,
    struct pci_listing_row *r)
{
	struct cur c = { p, end };
	uint32_t v[10];
	const char *t;
	size_t n;
	unsigned irq;
	static const uint8_t digits[10] = { 4, 4, 8, 4, 4, 2, 2, 2, 8, 8 };
	int i;

	if (!token(&c, &t, &n) || !combios_slot(t, n, r))
		return "bad Slot (want bus:dev:fn in decimal)";
	for (i = 0; i < 10; i++)
		if (!hex_tok(&c, digits[i], &v[i]))
			return "want Vend Dev ClassRev Cmd Stat CL LT HT Base1 "
			    "Base2 in hex";
	r->vendor = v[0];
	r->device = v[1];
	r->class_rev = v[2];
	r->cmd = v[3];
	r->stat = v[4];
	r->cache_line = v[5];
	r->latency = v[6];
	r->header_type = v[7];
	r->base[0] = v[8];
	r->base[1] = v[9];
	r->have_regs = true;
	r->irq = -1;
	if (token(&c, &t, &n)) {
		p = t;
		if (!dec_at(&p, t + n, &irq) || p != t + n || irq > 255)
			return "bad Int (want an IRQ number in decimal)";
		r->irq = irq;
	}
	if (token(&c, &t, &n))
		return "extra text after Int";
	return NULL;
}

const char *pci_listing_parse_lspci(const char *p, const char *end,
    struct pci_listing_row *r)
{
	const char *q;
	uint32_t cls, ven, dev, v;

	if (!lspci_bdf(p, end, r, &p))
		return "bad address (want [0000:]BB:DD.F in hex)";
	for (q = p; (q = find(q, end, "[")) != NULL; q++)
		if (hex_at(q + 1, end, 4, &cls) && end - q > 6 && q[5] == ']' &&
		    q[6] == ':')
			break;
	if (q == NULL)
		return "no class code [ccss]:";
	for (q += 7; (q = find(q, end, "[")) != NULL; q++)
		if (hex_at(q + 1, end, 4, &ven) && end - q > 10 &&
		    q[5] == ':' && hex_at(q + 6, end, 4, &dev) && q[10] == ']')
			break;
	if (q == NULL)
		return "no vendor:device IDs [vvvv:dddd]";
	p = q + 11;
	r->vendor = ven;
	r->device = dev;
	r->class_rev = cls << 16;
	if ((q = find(p, end, "(rev ")) != NULL) {
		if (!hex_at(q + 5, end, 2, &v))
			return "bad (rev rr)";
		r->class_rev |= v;
	}
	if ((q = find(p, end, "(prog-if ")) != NULL) {
		if (!hex_at(q + 9, end, 2, &v))
			return "bad (prog-if pp)";
		r->class_rev |= v << 8;
	}
	r->irq = -1;
	if (cls == 0x0604)
		r->header_type = PCI_HDR_BRIDGE;
	else if (cls == 0x0607)
		r->header_type = PCI_HDR_CARDBUS;
	return NULL;
}

