/* fmt: freestanding printf subset. See fmt.h. */
#include "lib/util/fmt.h"

#include <stdbool.h>
#include <string.h>

struct spec {
	bool left, zero, plus, space;
	int width;      /* -1: none */
	int precision;  /* -1: none */
	int length;     /* 0 int, 1 long, 2 long long, -1 short, -2 char, 3 size_t */
};

static size_t emit_pad(fmt_sink sink, void *ctx, char c, int count)
{
	char pad[16];
	size_t total = 0;
	memset(pad, c, sizeof(pad));
	while (count > 0) {
		int k = count > (int)sizeof(pad) ? (int)sizeof(pad) : count;
		sink(ctx, pad, (size_t)k);
		count -= k;
		total += (size_t)k;
	}
	return total;
}

/* Digits of v in base (8, 10, 16) into the end of buf; returns the start. */
static char *utoa_rev(char *end, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;
	do {
		*--p = digits[v % base];
		v /= base;
	} while (v != 0);
	return p;
}

static size_t emit_number(fmt_sink sink, void *ctx, const struct spec *sp,
			  uint64_t mag, bool negative, unsigned base, bool upper)
{
	char buf[24];
	char *end = buf + sizeof(buf);
	char *start = utoa_rev(end, mag, base, upper);
	int ndigits = (int)(end - start);
	char sign = 0;
	int zeros = 0;
	int body;
	size_t total = 0;

	if (sp->precision == 0 && mag == 0)
		ndigits = 0, start = end;
	if (negative)
		sign = '-';
	else if (sp->plus)
		sign = '+';
	else if (sp->space)
		sign = ' ';
	if (sp->precision > ndigits)
		zeros = sp->precision - ndigits;
	body = ndigits + zeros + (sign ? 1 : 0);
	if (sp->zero && !sp->left && sp->precision < 0 && sp->width > body) {
		zeros += sp->width - body;
		body = sp->width;
	}
	if (!sp->left && sp->width > body)
		total += emit_pad(sink, ctx, ' ', sp->width - body);
	if (sign) {
		sink(ctx, &sign, 1);
		total++;
	}
	total += emit_pad(sink, ctx, '0', zeros);
	sink(ctx, start, (size_t)ndigits);
	total += (size_t)ndigits;
	if (sp->left && sp->width > body)
		total += emit_pad(sink, ctx, ' ', sp->width - body);
	return total;
}

static size_t emit_string(fmt_sink sink, void *ctx, const struct spec *sp, const char *s)
{
	size_t len = 0;
	size_t total = 0;
	if (!s)
		s = "(null)";
	while (s[len] && (sp->precision < 0 || len < (size_t)sp->precision))
		len++;
	if (!sp->left && sp->width > (int)len)
		total += emit_pad(sink, ctx, ' ', sp->width - (int)len);
	sink(ctx, s, len);
	total += len;
	if (sp->left && sp->width > (int)len)
		total += emit_pad(sink, ctx, ' ', sp->width - (int)len);
	return total;
}

static int parse_int(const char **pp)
{
	int v = 0;
	while (**pp >= '0' && **pp <= '9') {
		if (v < 100000)
			v = v * 10 + (**pp - '0');
		(*pp)++;
	}
	return v;
}

size_t fmt_vformat(fmt_sink sink, void *ctx, const char *fmt, va_list ap)
{
	size_t total = 0;
	const char *p = fmt;

	while (*p) {
		const char *run = p;
		struct spec sp = { false, false, false, false, -1, -1, 0 };
		uint64_t mag;
		bool neg;

		while (*p && *p != '%')
			p++;
		if (p != run) {
			sink(ctx, run, (size_t)(p - run));
			total += (size_t)(p - run);
		}
		if (!*p)
			break;
		p++; /* '%' */
		for (;; p++) {
			if (*p == '-') sp.left = true;
			else if (*p == '0') sp.zero = true;
			else if (*p == '+') sp.plus = true;
			else if (*p == ' ') sp.space = true;
			else break;
		}
		if (*p == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
			}
			p++;
		} else if (*p >= '0' && *p <= '9') {
			sp.width = parse_int(&p);
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				sp.precision = va_arg(ap, int);
				if (sp.precision < 0)
					sp.precision = -1;
				p++;
			} else {
				sp.precision = parse_int(&p);
			}
		}
		if (*p == 'h') {
			sp.length = -1;
			if (*++p == 'h') { sp.length = -2; p++; }
		} else if (*p == 'l') {
			sp.length = 1;
			if (*++p == 'l') { sp.length = 2; p++; }
		} else if (*p == 'z') {
			sp.length = 3;
			p++;
		}
		switch (*p) {
		case 'd':
		case 'i': {
			int64_t v;
			if (sp.length == 2) v = va_arg(ap, long long);
			else if (sp.length == 1) v = va_arg(ap, long);
			else if (sp.length == 3) v = (int64_t)va_arg(ap, size_t);
			else v = va_arg(ap, int);
			if (sp.length == -1) v = (short)v;
			if (sp.length == -2) v = (signed char)v;
			neg = v < 0;
			mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			total += emit_number(sink, ctx, &sp, mag, neg, 10, false);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			unsigned base = *p == 'u' ? 10 : *p == 'o' ? 8 : 16;
			if (sp.length == 2) mag = va_arg(ap, unsigned long long);
			else if (sp.length == 1) mag = va_arg(ap, unsigned long);
			else if (sp.length == 3) mag = va_arg(ap, size_t);
			else mag = va_arg(ap, unsigned int);
			if (sp.length == -1) mag = (unsigned short)mag;
			if (sp.length == -2) mag = (unsigned char)mag;
			total += emit_number(sink, ctx, &sp, mag, false, base, *p == 'X');
			break;
		}
		case 'p': {
			struct spec hex = sp;
			hex.zero = true;
			hex.width = (int)(2 * sizeof(void *));
			sink(ctx, "0x", 2);
			total += 2;
			total += emit_number(sink, ctx, &hex,
					     (uint64_t)(uintptr_t)va_arg(ap, void *), false, 16, false);
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);
			char s[2] = { c, 0 };
			struct spec one = sp;
			one.precision = 1;
			if (c == 0) {
				sink(ctx, s, 1);
				total++;
			} else {
				total += emit_string(sink, ctx, &one, s);
			}
			break;
		}
		case 's':
			total += emit_string(sink, ctx, &sp, va_arg(ap, const char *));
			break;
		case '%':
			sink(ctx, "%", 1);
			total++;
			break;
		case '\0':
			return total;
		default:
			/* Unknown conversion: print it literally so the mistake shows. */
			sink(ctx, p - 1, 2);
			total += 2;
			break;
		}
		p++;
	}
	return total;
}

size_t fmt_format(fmt_sink sink, void *ctx, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	va_start(ap, fmt);
	n = fmt_vformat(sink, ctx, fmt, ap);
	va_end(ap);
	return n;
}

struct buf_sink {
	char *buf;
	size_t cap;
	size_t used;
};

static void buf_put(void *ctx, const char *s, size_t len)
{
	struct buf_sink *b = ctx;
	if (b->cap > 0 && b->used < b->cap - 1) {
		size_t room = b->cap - 1 - b->used;
		size_t k = len < room ? len : room;
		memcpy(b->buf + b->used, s, k);
	}
	b->used += len;
}

size_t fmt_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
	struct buf_sink b = { buf, n, 0 };
	fmt_vformat(buf_put, &b, fmt, ap);
	if (n > 0)
		buf[b.used < n - 1 ? b.used : n - 1] = '\0';
	return b.used;
}

size_t fmt_snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	size_t r;
	va_start(ap, fmt);
	r = fmt_vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

size_t fmt_append(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	size_t used = 0, r;
	while (used < n && buf[used])
		used++;
	va_start(ap, fmt);
	if (used < n)
		r = fmt_vsnprintf(buf + used, n - used, fmt, ap);
	else
		r = fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return used + r;
}

size_t fmt_fixed(char *buf, size_t n, int64_t scaled, unsigned decimals)
{
	uint64_t mag, div = 1;
	unsigned i;
	bool neg = scaled < 0;

	if (decimals > 9)
		decimals = 9;
	for (i = 0; i < decimals; i++)
		div *= 10;
	mag = neg ? (uint64_t)0 - (uint64_t)scaled : (uint64_t)scaled;
	if (decimals == 0)
		return fmt_snprintf(buf, n, "%s%llu", neg ? "-" : "",
				    (unsigned long long)mag);
	return fmt_snprintf(buf, n, "%s%llu.%0*llu", neg ? "-" : "",
			    (unsigned long long)(mag / div), (int)decimals,
			    (unsigned long long)(mag % div));
}
