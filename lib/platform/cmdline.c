/* cmdline: multiboot command line parser. See cmdline.h and docs/cmdline.md. */
#include "lib/platform/cmdline.h"
#include "lib/net/inet.h"
#include "lib/util/fmt.h"
#include "lib/util/hex.h"

#include <stdarg.h>
#include <string.h>

#define ECHO_MAX	48	/* characters of a token quoted in a warning, before "..." */

/* Outcome of applying one option; the index into problem[] below. */
enum { OK, E_MISSING, E_SYNTAX, E_RANGE, E_NOVALUE };

static const char *const problem[] = {
	[E_MISSING] = "missing value in",
	[E_SYNTAX] = "bad value in",
	[E_RANGE] = "value out of range in",
	[E_NOVALUE] = "unexpected value in",
};

struct option;

/* Applies value v (len bytes, not NUL-terminated) to opt, or returns an E_ code
 * and leaves opt unchanged. */
typedef int (*option_setter)(const struct option *o, const char *v, size_t len,
			     struct cq_options *opt);

struct option {
	const char *name;
	option_setter set;
	size_t off;			/* offset of the field in struct cq_options */
	uint32_t min, max;		/* numbers: accepted range; text: max length */
	const char *const *names;	/* enums: the values, in enum order */
	const char *hint;		/* what a valid value looks like, for warnings */
};

struct parser {
	struct cq_options *opt;
	cmdline_warn_fn warn;
	void *ctx;
};

static const char *const finish_names[] = { "halt", "reboot", NULL };
static const char *const bench_names[] = { "quick", "full", "off", NULL };
static const char *const net_names[] = { "auto", "off", "dhcp", NULL };
static const char *const selftest_names[] = { "none", "fault-in-test", "fault-outside", "vectors",
					      "hang", "stack-smash", "double-fault-outside", NULL };
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Accepted speeds: each is 115200 / n, an exact 16550 divisor (1.8432 MHz clock). */
static const uint32_t bauds[] = { 9600, 19200, 38400, 57600, 115200 };
#define NPORTS		4	/* ttyS0..ttyS3: COM1..COM4 */

_Static_assert(sizeof(enum cq_bench) == sizeof(unsigned) &&
	       sizeof(enum cq_on_finish) == sizeof(unsigned) &&
	       sizeof(enum cq_selftest) == sizeof(unsigned) && sizeof(enum cq_net) == sizeof(unsigned),
	       "set_enum stores enums through an unsigned lvalue");

static void *field(struct cq_options *opt, const struct option *o)
{
	return (char *)opt + o->off;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Printable ASCII other than space. */
static bool is_graph(char c)
{
	return c > ' ' && c < 0x7f;
}

/* 1..max characters of a-z 0-9 '-'. */
static bool name_ok(const char *s, size_t len, size_t max)
{
	size_t i;

	if (len == 0 || len > max)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

static void copy_text(char *dst, const char *s, size_t len)
{
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/*
 * Parses a 32-bit unsigned number, decimal or 0x hex; with suffix, a final
 * k/K multiplies by 1024 and m/M by 1048576. Junk gives E_SYNTAX, a value
 * above UINT32_MAX gives E_RANGE.
 */
static int parse_u32(const char *s, size_t len, bool suffix, uint32_t *out)
{
	unsigned base = 10, shift = 0;
	uint32_t v = 0;
	bool overflow = false;
	size_t i = 0;

	if (suffix && len > 0) {
		char c = s[len - 1];
		if (c == 'k' || c == 'K')
			shift = 10, len--;
		else if (c == 'm' || c == 'M')
			shift = 20, len--;
	}
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, i = 2;
	if (i == len)
		return E_SYNTAX;
	for (; i < len; i++) {
		int d = hex_digit((unsigned char)s[i]);
		if (d < 0 || (unsigned)d >= base)
			return E_SYNTAX;
		if (v > (UINT32_MAX - (unsigned)d) / base)
			overflow = true;
		v = v * base + (unsigned)d;
	}
	if (overflow || v > (UINT32_MAX >> shift))
		return E_RANGE;
	*out = v << shift;
	return OK;
}

static int set_flag(const struct option *o, const char *v, size_t len,
		    struct cq_options *opt)
{
	(void)v, (void)len;
	*(bool *)field(opt, o) = true;
	return OK;
}

static int set_enum(const struct option *o, const char *v, size_t len,
		    struct cq_options *opt)
{
	unsigned i;

	for (i = 0; o->names[i] != NULL; i++) {
		if (strlen(o->names[i]) == len && memcmp(o->names[i], v, len) == 0) {
			*(unsigned *)field(opt, o) = i;
			return OK;
		}
	}
	return E_SYNTAX;
}

/* A number in min..max, or 0 for the built-in default. */
static int set_number_in(const struct option *o, const char *v, size_t len,
			 struct cq_options *opt, bool suffix)
{
	uint32_t n;
	int err = parse_u32(v, len, suffix, &n);

	if (err != OK)
		return err;
	if (n != 0 && (n < o->min || n > o->max))
		return E_RANGE;
	*(uint32_t *)field(opt, o) = n;
	return OK;
}

static int set_number(const struct option *o, const char *v, size_t len,
		      struct cq_options *opt)
{
	return set_number_in(o, v, len, opt, false);
}

/* A number of bytes: set_number with k/K (KiB) and m/M (MiB) suffixes. */
static int set_size(const struct option *o, const char *v, size_t len,
		    struct cq_options *opt)
{
	return set_number_in(o, v, len, opt, true);
}

static int set_seed(const struct option *o, const char *v, size_t len,
		    struct cq_options *opt)
{
	int err = parse_u32(v, len, false, (uint32_t *)field(opt, o));

	if (err == OK)
		opt->has_seed = true;
	return err;
}

/* Printable text of at most o->max characters. */
static int set_text(const struct option *o, const char *v, size_t len,
		    struct cq_options *opt)
{
	size_t i;

	if (len > o->max)
		return E_RANGE;
	for (i = 0; i < len; i++)
		if (!is_graph(v[i]))
			return E_SYNTAX;
	copy_text(field(opt, o), v, len);
	return OK;
}

/* ttyS<N>[,<baud>] */
static int set_console(const struct option *o, const char *v, size_t len,
		       struct cq_options *opt)
{
	uint32_t baud = 0;
	size_t i;
	int err;

	(void)o;
	if (len < 5 || memcmp(v, "ttyS", 4) != 0 || v[4] < '0' || v[4] > '9')
		return E_SYNTAX;
	if (len > 5) {
		if (v[5] != ',')
			return E_SYNTAX;
		err = parse_u32(v + 6, len - 6, false, &baud);
		if (err != OK)
			return err;
		for (i = 0; i < NELEM(bauds); i++)
			if (bauds[i] == baud)
				break;
		if (i == NELEM(bauds))
			return E_RANGE;
	}
	if (v[4] - '0' >= NPORTS)
		return E_RANGE;
	opt->console_port = v[4] - '0';
	opt->console_baud = baud;
	return OK;
}

/* PROFILE[,fault=FAULT] */
static int set_emulate(const struct option *o, const char *v, size_t len,
		       struct cq_options *opt)
{
	static const char key[] = ",fault=";
	const size_t klen = sizeof(key) - 1;
	size_t plen = 0, flen = 0;

	(void)o;
	while (plen < len && v[plen] != ',')
		plen++;
	if (!name_ok(v, plen, CQ_EMULATE_MAX))
		return E_SYNTAX;
	if (plen < len) {
		if (len - plen < klen || memcmp(v + plen, key, klen) != 0)
			return E_SYNTAX;
		flen = len - plen - klen;
		if (!name_ok(v + plen + klen, flen, CQ_FAULT_MAX))
			return E_SYNTAX;
	}
	copy_text(opt->emulate, v, plen);
	copy_text(opt->fault, v + plen + klen, flen);
	return OK;
}

/* NAME[,NAME...] of engine names (a-z 0-9 -), or "none". */
static int set_expect(const struct option *o, const char *v, size_t len,
		      struct cq_options *opt)
{
	size_t i, start = 0;

	if (len > o->max)
		return E_RANGE;
	for (i = 0; i <= len; i++) {
		if (i < len && v[i] != ',')
			continue;
		if (!name_ok(v + start, i - start, CQ_EXPECT_MAX))
			return E_SYNTAX;
		start = i + 1;
	}
	copy_text(opt->expect, v, len);
	return OK;
}

/* HOST[:PORT]: a dotted-quad IPv4 address (no name service here), port 1..65535. */
static int set_hostport(const struct option *o, const char *v, size_t len,
			struct cq_options *opt)
{
	size_t hlen = 0;
	uint32_t ip, port = 0;
	int err;

	while (hlen < len && v[hlen] != ':')
		hlen++;
	if (!inet_parse_ip4(v, hlen, &ip) || ip == 0)
		return E_SYNTAX;
	if (hlen < len) {
		err = parse_u32(v + hlen + 1, len - hlen - 1, false, &port);
		if (err != OK)
			return err;
		if (port == 0 || port > 65535)
			return E_RANGE;
	}
	*(uint32_t *)field(opt, o) = ip;
	*(uint16_t *)((char *)field(opt, o) + o->min) = (uint16_t)port;
	return OK;
}

/* One IPv4 address; a netmask (o->max = 1) must be contiguous ones. */
static int set_addr(const struct option *o, const char *v, size_t len,
		    struct cq_options *opt)
{
	uint32_t a;

	if (!inet_parse_ip4(v, len, &a))
		return E_SYNTAX;
	if (o->max == 1 && (!inet_mask_ok(a) || a == 0))
		return E_RANGE;
	*(uint32_t *)field(opt, o) = a;
	return OK;
}

/*
 * ip=CLIENT (iPXE's ${ip}) or ip=CLIENT:SERVER:GATEWAY:NETMASK (PXELINUX
 * IPAPPEND 1); SERVER is the next server, 0.0.0.0 fields are unset.
 */
static int set_ip(const struct option *o, const char *v, size_t len,
		  struct cq_options *opt)
{
	uint32_t a[4] = { 0, 0, 0, 0 };
	size_t i, start = 0, k = 0;

	(void)o;
	for (i = 0; i <= len; i++) {
		if (i < len && v[i] != ':')
			continue;
		if (k == 4 || !inet_parse_ip4(v + start, i - start, &a[k]))
			return E_SYNTAX;
		k++;
		start = i + 1;
	}
	if ((k != 1 && k != 4) || a[0] == 0)
		return E_SYNTAX;
	if (k == 4 && a[3] != 0 && !inet_mask_ok(a[3]))
		return E_RANGE;
	opt->ip = a[0];
	if (k == 4) {
		opt->next_server = a[1];
		opt->gateway = a[2];
		opt->netmask = a[3];
	}
	return OK;
}

/* BOOTIF=01-aa-bb-cc-dd-ee-ff: ARP hardware type 1 (Ethernet) and the MAC (PXELINUX IPAPPEND 2). */
static int set_bootif(const struct option *o, const char *v, size_t len,
		      struct cq_options *opt)
{
	uint8_t mac[6];
	size_t i;

	(void)o;
	if (len != 20 || v[0] != '0' || v[1] != '1')
		return E_SYNTAX;
	for (i = 0; i < 6; i++) {
		int hi = hex_digit((unsigned char)v[3 + 3 * i]), lo = hex_digit((unsigned char)v[4 + 3 * i]);
		if (v[2 + 3 * i] != '-' || hi < 0 || lo < 0)
			return E_SYNTAX;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(opt->bootif, mac, 6);
	opt->has_bootif = true;
	return OK;
}

#define F(name)	offsetof(struct cq_options, name)

/* Adding an option: a field in struct cq_options, a row here, docs/cmdline.md. */
static const struct option options[] = {
	/* name		setter		field		min	max		enum names */
	{ "console",	set_console,	0,		0,	0,		NULL,
	  "ttyS0..ttyS3[,9600|19200|38400|57600|115200]" },
	{ "on_finish",	set_enum,	F(on_finish),	0,	0,		finish_names,
	  "halt|reboot" },
	{ "bench",	set_enum,	F(bench),	0,	0,		bench_names,
	  "quick|full|off" },
	{ "bench_ms",	set_number,	F(bench_ms),	1,	60000,		NULL,
	  "1..60000, 0 = default" },
	{ "rng_bytes",	set_size,	F(rng_bytes),	2500,	16u << 20,	NULL,
	  "2500..16M, k/M suffix, 0 = default" },
	{ "seed",	set_seed,	F(seed),	0,	UINT32_MAX,	NULL,
	  "0..0xffffffff" },
	{ "emulate",	set_emulate,	0,		0,	0,		NULL,
	  "PROFILE[,fault=FAULT] of a-z 0-9 -, max 15/31 chars" },
	{ "only",	set_text,	F(only),	0,	CQ_ONLY_MAX,	NULL,
	  "at most 63 printable chars" },
	{ "verbose",	set_flag,	F(verbose),	0,	0,		NULL,
	  "no value" },
	{ "selftest",	set_enum,	F(selftest),	0,	0,		selftest_names,
	  "none|fault-in-test|fault-outside|vectors|hang|stack-smash|double-fault-outside" },
	{ "passes",	set_number,	F(passes),	1,	10000,		NULL,
	  "1..10000, 0 = no soak" },
	{ "duration",	set_number,	F(duration_min), 1,	10080,		NULL,
	  "1..10080 minutes, 0 = unset" },
	{ "expect",	set_expect,	0,		0,	CQ_EXPECT_MAX,	NULL,
	  "ENGINE[,ENGINE...] of a-z 0-9 -, or none" },
	{ "asset",	set_text,	F(asset),	0,	CQ_ASSET_MAX,	NULL,
	  "at most 63 printable chars" },
	{ "tag",	set_text,	F(tag),		0,	CQ_ASSET_MAX,	NULL,
	  "at most 63 printable chars" },
	{ "net",	set_enum,	F(net),		0,	0,		net_names,
	  "auto|off|dhcp" },
	/* min: the offset of the port field after the address field */
	{ "syslog",	set_hostport,	F(syslog_ip),	F(syslog_port) - F(syslog_ip), 0, NULL,
	  "A.B.C.D[:PORT]" },
	{ "tftp",	set_hostport,	F(tftp_ip),	F(tftp_port) - F(tftp_ip), 0, NULL,
	  "A.B.C.D[:PORT]" },
	{ "ip",		set_ip,		0,		0,	0,		NULL,
	  "A.B.C.D or CLIENT:SERVER:GATEWAY:NETMASK" },
	{ "netmask",	set_addr,	F(netmask),	0,	1,		NULL,
	  "A.B.C.D, contiguous ones" },
	{ "gateway",	set_addr,	F(gateway),	0,	0,		NULL,
	  "A.B.C.D" },
	{ "next-server", set_addr,	F(next_server),	0,	0,		NULL,
	  "A.B.C.D" },
	{ "BOOTIF",	set_bootif,	0,		0,	0,		NULL,
	  "01-aa-bb-cc-dd-ee-ff" },
};

static const struct option *find_option(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NELEM(options); i++)
		if (strlen(options[i].name) == len && memcmp(options[i].name, name, len) == 0)
			return &options[i];
	return NULL;
}

/*
 * Quotes len bytes of s into dst (ECHO_MAX + 4 bytes): printable bytes as
 * they are, others and '\' as \xNN, cut with "..." beyond ECHO_MAX characters.
 */
static void escape(char *dst, const char *s, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool plain = is_graph((char)c) && c != '\\';

		if (o + (plain ? 1 : 4) > ECHO_MAX) {
			memcpy(dst + o, "...", 4);
			return;
		}
		if (plain)
			dst[o++] = (char)c;
		else
			o += fmt_snprintf(dst + o, 5, "\\x%02x", c);
	}
	dst[o] = '\0';
}

static void warn_line(struct parser *p, const char *msg)
{
	p->opt->warnings++;
	if (p->warn != NULL)
		p->warn(p->ctx, msg);
}

/* "cmdline: <what> '<token>' ignored[ (expected <hint>)]"; what NULL: "cmdline: unknown option '<token>' ignored" */
static void warn_token(struct parser *p, const char *what, const char *tok,
		       size_t len, const char *hint)
{
	char quoted[ECHO_MAX + 4];
	char msg[CMDLINE_WARN_MAX];

	escape(quoted, tok, len);
	if (what == NULL)
		fmt_snprintf(msg, sizeof(msg), "cmdline: unknown option '%s' ignored", quoted);
	else if (hint != NULL)
		fmt_snprintf(msg, sizeof(msg), "cmdline: %s '%s' ignored (expected %s)",
			     what, quoted, hint);
	else
		fmt_snprintf(msg, sizeof(msg), "cmdline: %s '%s' ignored", what, quoted);
	warn_line(p, msg);
}

/* NAME=VALUE or NAME */
static void apply(struct parser *p, const char *tok, size_t len)
{
	const struct option *o;
	const char *v = NULL;
	size_t nlen = 0, vlen = 0;
	int err;

	while (nlen < len && tok[nlen] != '=')
		nlen++;
	if (nlen < len) {
		v = tok + nlen + 1;
		vlen = len - nlen - 1;
	}
	o = find_option(tok, nlen);
	if (o == NULL) {
		warn_token(p, NULL, tok, len, NULL);
		return;
	}
	if (o->set == set_flag)
		err = v != NULL ? E_NOVALUE : set_flag(o, v, vlen, p->opt);
	else
		err = vlen == 0 ? E_MISSING : o->set(o, v, vlen, p->opt);
	if (err != OK)
		warn_token(p, problem[err], tok, len, o->hint);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/*
 * A loader's image path or URL: a '/' or ':' before any '=' (no option name
 * has one), or no '=' and a name ending in .elf, .bin or .gz.
 */
static bool is_loader_image(const char *tok, size_t len)
{
	size_t i;

	for (i = 0; i < len && tok[i] != '='; i++)
		if (tok[i] == '/' || tok[i] == ':')
			return true;
	if (i < len)
		return false;
	return ends_with(tok, len, ".elf") || ends_with(tok, len, ".bin") ||
	       ends_with(tok, len, ".gz");
}

/* Keeps a printable copy: other bytes become '?', a long one ends in "...". */
static void keep_image(struct cq_options *opt, const char *tok, size_t len)
{
	size_t i, n = len;

	if (n > CQ_LOADER_IMAGE_MAX)
		n = CQ_LOADER_IMAGE_MAX - 3;
	for (i = 0; i < n; i++)
		opt->loader_image[i] = is_graph(tok[i]) ? tok[i] : '?';
	opt->loader_image[n] = '\0';
	if (n < len)
		memcpy(opt->loader_image + n, "...", 4);
}

void cmdline_defaults(struct cq_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->console_port = -1;
	opt->on_finish = CQ_FINISH_HALT;
	opt->bench = CQ_BENCH_QUICK;
	opt->selftest = CQ_SELFTEST_NONE;
}

int cmdline_parse(const char *line, struct cq_options *opt,
		  cmdline_warn_fn warn, void *ctx)
{
	struct parser p = { opt, warn, ctx };
	size_t len, end, i, start;
	bool first = true;

	cmdline_defaults(opt);
	if (line == NULL)
		return 0;
	len = strlen(line);
	end = len;
	if (len > CMDLINE_MAX) {
		char msg[CMDLINE_WARN_MAX];

		/* Cut at the last blank at or before the limit, so no token is cut. */
		end = CMDLINE_MAX;
		while (end > 0 && !is_blank(line[end]))
			end--;
		fmt_snprintf(msg, sizeof(msg),
			     "cmdline: line longer than %u bytes, last %zu bytes dropped",
			     (unsigned)CMDLINE_MAX, len - end);
		warn_line(&p, msg);
	}
	for (i = 0; i < end; first = false) {
		while (i < end && is_blank(line[i]))
			i++;
		if (i == end)
			break;
		start = i;
		while (i < end && !is_blank(line[i]))
			i++;
		if (first && is_loader_image(line + start, i - start))
			keep_image(opt, line + start, i - start);
		else
			apply(&p, line + start, i - start);
	}
	return (int)opt->warnings;
}

static const char *name_of(const char *const *names, size_t n, unsigned i)
{
	return i < n ? names[i] : "?";
}

/* Appends to buf (size n) at *k, as far as it fits; *k counts the whole length. */
static void append(char *buf, size_t n, size_t *k, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (*k < n)
		*k += fmt_vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
}

static void describe_addr(char *buf, size_t n, size_t *k, const char *name, uint32_t a)
{
	char t[INET_ADDR_TEXT];

	if (a)
		append(buf, n, k, " %s=%s", name, inet_format_ip4(a, t));
}

static void describe_hostport(char *buf, size_t n, size_t *k, const char *name, uint32_t a, uint16_t port)
{
	char t[INET_ADDR_TEXT];

	if (a && port)
		append(buf, n, k, " %s=%s:%u", name, inet_format_ip4(a, t), (unsigned)port);
	else if (a)
		append(buf, n, k, " %s=%s", name, inet_format_ip4(a, t));
}

static void describe_net(const struct cq_options *opt, char *buf, size_t n, size_t *k)
{
	const uint8_t *m = opt->bootif;

	if (opt->net != CQ_NET_AUTO)
		append(buf, n, k, " net=%s", name_of(net_names, NELEM(net_names) - 1, opt->net));
	describe_hostport(buf, n, k, "syslog", opt->syslog_ip, opt->syslog_port);
	describe_hostport(buf, n, k, "tftp", opt->tftp_ip, opt->tftp_port);
	describe_addr(buf, n, k, "ip", opt->ip);
	describe_addr(buf, n, k, "netmask", opt->netmask);
	describe_addr(buf, n, k, "gateway", opt->gateway);
	describe_addr(buf, n, k, "next-server", opt->next_server);
	if (opt->has_bootif)
		append(buf, n, k, " BOOTIF=01-%02x-%02x-%02x-%02x-%02x-%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

void cmdline_describe(const struct cq_options *opt, char *buf, size_t n)
{
	size_t k = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (opt->console_port < 0)
		append(buf, n, &k, "console=default");
	else if (opt->console_baud == 0)
		append(buf, n, &k, "console=ttyS%d", opt->console_port);
	else
		append(buf, n, &k, "console=ttyS%d,%u", opt->console_port,
		       (unsigned)opt->console_baud);
	append(buf, n, &k, " bench=%s",
	       name_of(bench_names, NELEM(bench_names) - 1, opt->bench));
	if (opt->bench_ms == 0)
		append(buf, n, &k, " bench_ms=default");
	else
		append(buf, n, &k, " bench_ms=%u", (unsigned)opt->bench_ms);
	if (opt->rng_bytes == 0)
		append(buf, n, &k, " rng_bytes=default");
	else
		append(buf, n, &k, " rng_bytes=%u", (unsigned)opt->rng_bytes);
	if (!opt->has_seed)
		append(buf, n, &k, " seed=default");
	else
		append(buf, n, &k, " seed=0x%08x", (unsigned)opt->seed);
	append(buf, n, &k, " on_finish=%s",
	       name_of(finish_names, NELEM(finish_names) - 1, opt->on_finish));
	if (opt->emulate[0] != '\0')
		append(buf, n, &k, " emulate=%s", opt->emulate);
	if (opt->fault[0] != '\0')
		append(buf, n, &k, ",fault=%s", opt->fault);
	if (opt->only[0] != '\0')
		append(buf, n, &k, " only=%s", opt->only);
	if (opt->verbose)
		append(buf, n, &k, " verbose");
	if (opt->selftest != CQ_SELFTEST_NONE)
		append(buf, n, &k, " selftest=%s", selftest_names[opt->selftest]);
	if (opt->passes)
		append(buf, n, &k, " passes=%u", (unsigned)opt->passes);
	if (opt->duration_min)
		append(buf, n, &k, " duration=%u", (unsigned)opt->duration_min);
	if (opt->expect[0] != '\0')
		append(buf, n, &k, " expect=%s", opt->expect);
	if (opt->asset[0] != '\0')
		append(buf, n, &k, " asset=%s", opt->asset);
	if (opt->tag[0] != '\0')
		append(buf, n, &k, " tag=%s", opt->tag);
	describe_net(opt, buf, n, &k);
}

bool cmdline_net_wanted(const struct cq_options *opt, const char *loader_name, const char **why)
{
	const char *r;
	bool on = true;

	if (opt->net == CQ_NET_OFF)
		r = "net=off", on = false;
	else if (opt->net == CQ_NET_DHCP)
		r = "net=dhcp";
	else if (opt->ip)
		r = "net=auto: the loader passed ip=";
	else if (opt->has_bootif)
		r = "net=auto: the loader passed BOOTIF=";
	else if (loader_name && (strncmp(loader_name, "iPXE", 4) == 0 || strncmp(loader_name, "PXELINUX", 8) == 0))
		r = "net=auto: the loader is iPXE or PXELINUX";
	else
		r = "net=auto: not a network boot (no ip=, no BOOTIF=, loader not iPXE or PXELINUX)", on = false;
	if (why)
		*why = r;
	return on;
}
