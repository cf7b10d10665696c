/*
 * cavp: the streaming parser of CAVP .rsp files. Bytes are gathered into
 * lines; each line is a comment, a blank (ends a record), a section header
 * or a NAME = VALUE field. See cavp.h for the format.
 */
#include "lib/host/cavp_rsp.h"

#include <stdarg.h>
#include <string.h>

#include "lib/util/fmt.h"
#include "lib/util/hex.h"

static const char *const field_name[CAVP_NFIELDS] = {
	"COUNT", "KEY", "IV", "PLAINTEXT", "CIPHERTEXT", "Len", "Msg", "MD", "Seed",
};

void cavp_init(struct cavp_parser *p, const struct cavp_kind *k, char *line, size_t line_cap,
	       uint8_t *data_a, uint8_t *data_b, size_t data_cap,
	       cavp_record_fn fn, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->kind = *k;
	p->line = line;
	p->line_cap = line_cap;
	p->rec.pt = p->rec.msg = data_a;
	p->rec.ct = data_b;
	p->data_cap = data_cap;
	p->fn = fn;
	p->ctx = ctx;
}

static int verror(struct cavp_parser *p, int err, unsigned line, const char *fmt, va_list ap)
{
	size_t n = 0;

	if (p->err)
		return p->err;
	p->err = err;
	if (line)
		n = fmt_snprintf(p->errmsg, sizeof(p->errmsg), "line %u: ", line);
	if (n >= sizeof(p->errmsg))
		n = sizeof(p->errmsg) - 1;
	fmt_vsnprintf(p->errmsg + n, sizeof(p->errmsg) - n, fmt, ap);
	/* The message quotes the file: keep it one line of printable ASCII. */
	for (; p->errmsg[n]; n++)
		if ((unsigned char)p->errmsg[n] < 0x20 || (unsigned char)p->errmsg[n] >= 0x7f)
			p->errmsg[n] = '?';
	return err;
}

int cavp_set_error(struct cavp_parser *p, int err, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err = verror(p, err, line, fmt, ap);
	va_end(ap);
	return err;
}

/* A syntax error on the current line. */
static int __attribute__((format(printf, 2, 3)))
syntax(struct cavp_parser *p, const char *fmt, ...)
{
	va_list ap;
	int err;
	va_start(ap, fmt);
	err = verror(p, CAVP_ESYNTAX, p->lineno, fmt, ap);
	va_end(ap);
	return err;
}

const char *cavp_error(const struct cavp_parser *p)
{
	return p->errmsg;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Trims blanks at both ends of [*s, *s + *n). */
static void trim(const char **s, size_t *n)
{
	while (*n && is_blank(**s))
		(*s)++, (*n)--;
	while (*n && is_blank((*s)[*n - 1]))
		(*n)--;
}

static bool equals(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(s, word, n) == 0;
}

/* Decimal digits only, below 2^32. Returns false otherwise. */
static bool parse_u32(const char *s, size_t n, uint32_t *v)
{
	uint32_t x = 0;
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (UINT32_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint32_t)(s[i] - '0');
	}
	*v = x;
	return true;
}

static size_t digest_bytes(const struct cavp_parser *p)
{
	return hash_digest_bytes(p->kind.alg);
}

/* Which fields a file of this kind may contain. */
static unsigned allowed_fields(const struct cavp_kind *k)
{
	if (k->aes)
		return CAVP_F_COUNT | CAVP_F_KEY | CAVP_F_PT | CAVP_F_CT |
		       (k->mode == AES_MODE_ECB ? 0 : CAVP_F_IV);
	if (k->test == CAVP_SHA_MONTE)
		return CAVP_F_SEED | CAVP_F_COUNT | CAVP_F_MD;
	return CAVP_F_LEN | CAVP_F_MSG | CAVP_F_MD;
}

/* Names the first field of want missing from have. */
static const char *first_missing(unsigned want, unsigned have)
{
	unsigned i;
	for (i = 0; i < CAVP_NFIELDS; i++)
		if ((want & (1u << i)) && !(have & (1u << i)))
			return field_name[i];
	return "?";
}

static unsigned fline(const struct cavp_record *r, unsigned f)
{
	unsigned i;
	for (i = 0; i < CAVP_NFIELDS; i++)
		if (f == 1u << i)
			return r->field_line[i];
	return r->line;
}

/* Checks an AES record against the file's kind. */
static int check_aes(struct cavp_parser *p, const struct cavp_record *r)
{
	unsigned want = allowed_fields(&p->kind);
	size_t block_only = p->kind.test == CAVP_AES_MMT ? 0 : AES_BLOCK_BYTES;

	if ((r->fields & want) != want)
		return cavp_set_error(p, CAVP_ESYNTAX, r->line, "record without %s",
				      first_missing(want, r->fields));
	if (r->pt_len != r->ct_len)
		return cavp_set_error(p, CAVP_ESYNTAX, fline(r, CAVP_F_CT),
				      "CIPHERTEXT is %u bytes, PLAINTEXT %u", (unsigned)r->ct_len,
				      (unsigned)r->pt_len);
	if (r->pt_len == 0 || r->pt_len % AES_BLOCK_BYTES ||
	    (block_only && r->pt_len != block_only))
		return cavp_set_error(p, CAVP_ESYNTAX, fline(r, CAVP_F_PT),
				      "PLAINTEXT is %u bytes, want %s", (unsigned)r->pt_len,
				      block_only ? "16 (one block)" : "a multiple of 16");
	return 0;
}

/* Checks a SHA record against the file's kind. */
static int check_sha(struct cavp_parser *p, struct cavp_record *r)
{
	unsigned want;

	if (p->kind.test == CAVP_SHA_MONTE) {
		if (r->fields == CAVP_F_SEED)
			return 0;
		want = CAVP_F_COUNT | CAVP_F_MD;
		if (r->fields & CAVP_F_SEED)
			return cavp_set_error(p, CAVP_ESYNTAX, fline(r, CAVP_F_SEED),
					      "Seed in a COUNT record");
	} else {
		want = CAVP_F_LEN | CAVP_F_MSG | CAVP_F_MD;
	}
	if ((r->fields & want) != want)
		return cavp_set_error(p, CAVP_ESYNTAX, r->line, "record without %s",
				      first_missing(want, r->fields));
	if (p->kind.test == CAVP_SHA_MONTE)
		return 0;
	if (r->len_bits % 8)
		return cavp_set_error(p, CAVP_ESYNTAX, fline(r, CAVP_F_LEN),
				      "Len = %u is not whole bytes (only byte-oriented files are "
				      "supported)",
				      (unsigned)r->len_bits);
	/* SHAVS writes the empty message as "Msg = 00". */
	if (r->len_bits == 0 && r->msg_len == 1 && r->msg[0] == 0)
		r->msg_len = 0;
	if (r->msg_len != r->len_bits / 8)
		return cavp_set_error(p, CAVP_ESYNTAX, fline(r, CAVP_F_MSG),
				      "Msg is %u bytes, Len = %u says %u", (unsigned)r->msg_len,
				      (unsigned)r->len_bits, (unsigned)(r->len_bits / 8));
	return 0;
}

/* Validates the pending record, hands it on, and starts a new one. */
static int flush(struct cavp_parser *p)
{
	struct cavp_record *r = &p->rec;
	int rc;

	if (r->fields == 0)
		return 0;
	rc = p->kind.aes ? check_aes(p, r) : check_sha(p, r);
	if (rc == 0) {
		p->records++;
		rc = p->fn ? p->fn(p, r) : 0;
		if (rc && !p->err)
			cavp_set_error(p, rc, r->line, "stopped by the record handler");
	}
	r->fields = 0;
	r->line = 0;
	r->pt_len = r->ct_len = r->msg_len = 0;
	return rc;
}

/* "[ENCRYPT]", "[DECRYPT]" or "[L = 20]"; s is the whole trimmed line. */
static int section(struct cavp_parser *p, const char *s, size_t n)
{
	const char *in;
	size_t m;
	uint32_t l;
	int rc;

	if ((rc = flush(p)) != 0)
		return rc;
	if (n < 2 || s[n - 1] != ']')
		return syntax(p, "section header without ']'");
	in = s + 1;
	m = n - 2;
	trim(&in, &m);
	if (p->kind.aes && (equals(in, m, "ENCRYPT") || equals(in, m, "DECRYPT"))) {
		p->dir = in[0] == 'E' ? AES_DIR_ENCRYPT : AES_DIR_DECRYPT;
		p->section = true;
		return 0;
	}
	if (!p->kind.aes && m > 1 && in[0] == 'L') {
		in++, m--;
		trim(&in, &m);
		if (m && in[0] == '=') {
			in++, m--;
			trim(&in, &m);
			if (!parse_u32(in, m, &l) || l != digest_bytes(p))
				return syntax(p, "[L = %.*s] does not match %s (%u-byte digests)",
					      (int)m, in, hash_alg_name(p->kind.alg),
					      (unsigned)digest_bytes(p));
			p->section = true;
			return 0;
		}
	}
	return syntax(p, "unknown section %.*s for this file kind (%s)", (int)(n > 40 ? 40 : n), s,
		      p->kind.label);
}

/* Decodes a hex value into dst (cap bytes); exact: the length it must have, or 0. */
static int hex_field(struct cavp_parser *p, unsigned f, const char *v, size_t n,
		     uint8_t *dst, size_t cap, size_t exact, size_t *len)
{
	size_t bad = 0, got = 0;
	int rc = hex_decode(v, n, dst, cap, &got, &bad);

	if (rc == HEX_EDIGIT)
		return syntax(p, "%s: bad hex digit '%c' at column %u", field_name[f],
			      v[bad] >= 0x20 && v[bad] < 0x7f ? v[bad] : '?',
			      (unsigned)(v - p->line + bad) + 1);
	if (rc == HEX_EODD)
		return syntax(p, "%s: odd number of hex digits (%u)", field_name[f], (unsigned)n);
	if (rc == HEX_ESPACE || (exact && got != exact))
		return syntax(p, "%s is %u bytes, want %s%u", field_name[f], (unsigned)(n / 2),
			      exact ? "" : "at most ", (unsigned)(exact ? exact : cap));
	if (len)
		*len = got;
	return 0;
}

static int field_value(struct cavp_parser *p, unsigned f, const char *v, size_t n)
{
	struct cavp_record *r = &p->rec;
	size_t dbytes = p->kind.aes ? 0 : digest_bytes(p);

	switch (1u << f) {
	case CAVP_F_COUNT:
	case CAVP_F_LEN:
		if (!parse_u32(v, n, (1u << f) == CAVP_F_COUNT ? &r->count : &r->len_bits))
			return syntax(p, "%s: not a decimal number", field_name[f]);
		return 0;
	case CAVP_F_KEY:
		return hex_field(p, f, v, n, r->key, sizeof(r->key), p->kind.key_bits / 8, NULL);
	case CAVP_F_IV:
		return hex_field(p, f, v, n, r->iv, sizeof(r->iv), AES_BLOCK_BYTES, NULL);
	case CAVP_F_PT:
		return hex_field(p, f, v, n, r->pt, p->data_cap, 0, &r->pt_len);
	case CAVP_F_CT:
		return hex_field(p, f, v, n, r->ct, p->data_cap, 0, &r->ct_len);
	case CAVP_F_MSG:
		return hex_field(p, f, v, n, r->msg, p->data_cap, 0, &r->msg_len);
	case CAVP_F_MD:
		return hex_field(p, f, v, n, r->md, sizeof(r->md), dbytes, NULL);
	case CAVP_F_SEED:
		return hex_field(p, f, v, n, r->seed, sizeof(r->seed), dbytes, NULL);
	}
	return CAVP_ESYNTAX;
}

/* NAME = VALUE; s is the whole trimmed line. */
static int field(struct cavp_parser *p, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n), *name = s, *val;
	size_t nlen, vlen;
	unsigned f, bit;
	int rc;

	if (!eq)
		return syntax(p, "not NAME = VALUE, a [section] or a comment");
	nlen = (size_t)(eq - s);
	trim(&name, &nlen);
	val = eq + 1;
	vlen = (size_t)(s + n - val);
	trim(&val, &vlen);
	for (f = 0; f < CAVP_NFIELDS; f++)
		if (equals(name, nlen, field_name[f]))
			break;
	bit = 1u << f;
	if (f == CAVP_NFIELDS || !(allowed_fields(&p->kind) & bit))
		return syntax(p, "unexpected field '%.*s' for this file kind (%s)",
			      (int)(nlen > 24 ? 24 : nlen), name, p->kind.label);
	if (!p->section)
		return syntax(p, "%s before any [section] header", field_name[f]);
	/* A record starts with COUNT or Len; one missing its blank line
	 * still ends where the next begins. */
	if ((bit == CAVP_F_COUNT || bit == CAVP_F_LEN || bit == CAVP_F_SEED) && p->rec.fields)
		if ((rc = flush(p)) != 0)
			return rc;
	if (p->rec.fields & bit)
		return syntax(p, "%s given twice in the record of line %u", field_name[f],
			      p->rec.line);
	if ((rc = field_value(p, f, val, vlen)) != 0)
		return rc;
	if (!p->rec.fields) {
		p->rec.line = p->lineno;
		p->rec.dir = p->dir;
	}
	p->rec.fields |= bit;
	p->rec.field_line[f] = p->lineno;
	return 0;
}

static int line_done(struct cavp_parser *p)
{
	const char *s = p->line;
	size_t n = p->line_len;

	if (p->line_long)
		return syntax(p, "longer than %u bytes", (unsigned)p->line_cap);
	trim(&s, &n);
	if (n == 0)
		return flush(p);
	if (s[0] == '#')
		return 0;
	if (s[0] == '[')
		return section(p, s, n);
	return field(p, s, n);
}

int cavp_feed(struct cavp_parser *p, const char *data, size_t len)
{
	size_t i;

	for (i = 0; i < len && !p->err; i++) {
		if (p->line_len == 0 && !p->line_long)
			p->lineno++;	/* a new line starts */
		if (data[i] == '\n') {
			line_done(p);
			p->line_len = 0;
			p->line_long = false;
			continue;
		}
		if (p->line_len + 1 >= p->line_cap)
			p->line_long = true;
		else
			p->line[p->line_len++] = data[i];
	}
	return p->err;
}

int cavp_finish(struct cavp_parser *p)
{
	if (!p->err && (p->line_len || p->line_long))
		line_done(p);
	if (!p->err)
		flush(p);
	if (!p->err && p->records == 0)
		cavp_set_error(p, CAVP_ESYNTAX, p->lineno ? p->lineno : 1,
			       "no test records in the file");
	return p->err;
}
