/* run_summary: the last screen of the report. See run_summary.h. */
#include "lib/util/run_summary.h"

#include <string.h>

#include "lib/util/fmt.h"

void rsum_init(struct rsum *s)
{
	memset(s, 0, sizeof(*s));
}

/* Copies at most len bytes of src, cut at the first '/', into dst (cap bytes). */
static void copy_engine(char *dst, size_t cap, const char *src, size_t len)
{
	size_t i;
	for (i = 0; i < len && i + 1 < cap && src[i] && src[i] != '/'; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

static struct rsum_engine *row(struct rsum *s, const char *engine)
{
	unsigned i;
	for (i = 0; i < s->n; i++)
		if (strcmp(s->e[i].name, engine) == 0)
			return &s->e[i];
	if (s->n < RSUM_ENGINES) {
		copy_engine(s->e[s->n].name, RSUM_NAME, engine, RSUM_NAME);
		return &s->e[s->n++];
	}
	copy_engine(s->e[RSUM_ENGINES].name, RSUM_NAME, "other", 5);
	return &s->e[RSUM_ENGINES];
}

void rsum_result(struct rsum *s, unsigned number, bool ok, bool skip, const char *name,
		 const char *engine, enum rsum_col col)
{
	char key[RSUM_NAME];
	struct rsum_cell *c;

	copy_engine(key, sizeof(key), engine ? engine : "", RSUM_NAME);
	if (key[0] == '\0')
		copy_engine(key, sizeof(key), "platform", 8);
	if ((unsigned)col >= RSUM_COLS)
		col = RSUM_PROBE;
	c = &row(s, key)->c[col];
	s->detail_open = !ok && !skip && s->nfail == 0;
	if (skip) {
		c->skip++;
		return;
	}
	if (ok) {
		c->ok++;
		return;
	}
	c->not_ok++;
	if (s->nfail < RSUM_FAILS) {
		s->fail_num[s->nfail] = number;
		fmt_snprintf(s->fail_name[s->nfail], RSUM_FAIL_NAME, "%s", name);
		fmt_snprintf(s->fail_engine[s->nfail], RSUM_NAME, "%s", key);
	}
	s->nfail++;
}

void rsum_detail(struct rsum *s, const char *text)
{
	if (!s->detail_open || s->fail_detail[0])
		return;
	fmt_snprintf(s->fail_detail, RSUM_FAIL_NAME, "%s", text);
	s->detail_open = false;
}

void rsum_speed(struct rsum *s, const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s,
		bool rng, bool emulated)
{
	char name[RSUM_NAME];
	struct rsum_engine *e;

	copy_engine(name, sizeof(name), engine, RSUM_NAME);
	e = row(s, name);
	if (e->speed != 0 || bytes_per_s == 0)
		return;
	e->speed = bytes_per_s;
	e->sw_speed = sw_bytes_per_s;
	e->rng_speed = rng;
	e->emulated = emulated;
}

void rsum_reference(struct rsum *s, const char *engine)
{
	char name[RSUM_NAME];

	copy_engine(name, sizeof(name), engine, RSUM_NAME);
	row(s, name)->ref = true;
	s->have_ref = true;
}

void rsum_box(struct rsum *s, const char *key, const char *model, const char *bios,
	      const char *version)
{
	fmt_snprintf(s->box, sizeof(s->box), "summary: box %s (%s; BIOS %s; image %s)",
		     key && key[0] ? key : "unknown", model && model[0] ? model : "model unknown",
		     bios && bios[0] ? bios : "unknown", version && version[0] ? version : "unknown");
}

void rsum_soak(struct rsum *s, unsigned pass, unsigned not_ok)
{
	if (pass == 0)
		return;
	if (pass > s->soak_passes)
		s->soak_passes = pass;
	if (not_ok && pass <= RSUM_SOAK_KEPT)
		s->soak_failed[(pass - 1) / 8] |= (uint8_t)(1u << ((pass - 1) % 8));
	if (not_ok > s->soak_worst_not_ok) {
		s->soak_worst = pass;
		s->soak_worst_not_ok = not_ok;
	}
}

static bool soak_failed(const struct rsum *s, unsigned pass)
{
	return (s->soak_failed[(pass - 1) / 8] >> ((pass - 1) % 8)) & 1;
}

/*
 * The soak line, the worst pass first so that a cut at the screen's width
 * ("...") only shortens the list: "summary: soak 40 passes, worst 18 (2 not
 * ok): 1-17 pass, 18 FAIL, 19-40 pass".
 */
static void soak_line(char *buf, size_t cap, const struct rsum *s)
{
	unsigned p = 1, last = s->soak_passes < RSUM_SOAK_KEPT ? s->soak_passes : RSUM_SOAK_KEPT;
	size_t k;

	if (s->soak_worst_not_ok)
		k = fmt_snprintf(buf, cap, "summary: soak %u pass%s, worst %u (%u not ok):", s->soak_passes,
				 s->soak_passes == 1 ? "" : "es", s->soak_worst, s->soak_worst_not_ok);
	else
		k = fmt_snprintf(buf, cap, "summary: soak %u pass%s, every pass passed:", s->soak_passes,
				 s->soak_passes == 1 ? "" : "es");
	while (p <= last && k + 1 < cap) {
		unsigned q = p;
		bool bad = soak_failed(s, p);
		while (q < last && soak_failed(s, q + 1) == bad)
			q++;
		if (q == p && bad)
			k += fmt_snprintf(buf + k, cap - k, "%s %u FAIL", p > 1 ? "," : "", p);
		else if (q == p)
			k += fmt_snprintf(buf + k, cap - k, "%s %u pass", p > 1 ? "," : "", p);
		else if (bad)
			k += fmt_snprintf(buf + k, cap - k, "%s %u-%u FAIL", p > 1 ? "," : "", p, q);
		else
			k += fmt_snprintf(buf + k, cap - k, "%s %u-%u pass", p > 1 ? "," : "", p, q);
		p = q + 1;
	}
	if (last < s->soak_passes && k + 1 < cap)
		fmt_snprintf(buf + k, cap - k, ", %u more in the @soak records", s->soak_passes - last);
}

void rsum_stage(struct rsum *s, const char *name, int64_t tenths)
{
	if (s->nstage >= RSUM_STAGES)
		return;
	fmt_snprintf(s->stage[s->nstage], sizeof(s->stage[0]), "%s", name);
	s->stage_tenths[s->nstage++] = tenths;
}

static void cell_text(char *buf, size_t n, const struct rsum_cell *c)
{
	if (c->ok + c->not_ok == 0)
		fmt_snprintf(buf, n, "%s", c->skip ? "skip" : "-");
	else
		fmt_snprintf(buf, n, "%u/%u", c->ok, c->ok + c->not_ok);
}

static const char *verdict(const struct rsum_engine *e)
{
	unsigned i, ok = 0;
	for (i = 0; i < RSUM_COLS; i++) {
		if (e->c[i].not_ok)
			return "FAIL";
		ok += e->c[i].ok;
	}
	return ok ? "pass" : "skip";
}

/*
 * The speed column: openssl speed's unit, 1000s of bytes per second with two
 * decimals and a 'k' ("30105.72k"), '*' after it when a device model made
 * the figure; vs is the ratio to software, "ref", "rng" or "-".
 */
static void speed_text(char *speed, size_t n1, char *vs, size_t n2, const struct rsum_engine *e,
		       bool have_ref)
{
	char k[24];

	if (e->speed == 0) {
		fmt_snprintf(speed, n1, "-");
		fmt_snprintf(vs, n2, "-");
		return;
	}
	fmt_fixed(k, sizeof(k), (int64_t)((e->speed + 5) / 10), 2);
	fmt_snprintf(speed, n1, "%sk%s", k, e->emulated ? "*" : "");
	if (e->rng_speed)
		fmt_snprintf(vs, n2, "rng");
	else if (have_ref ? e->ref : strcmp(e->name, "software") == 0)
		fmt_snprintf(vs, n2, "ref");
	else if (e->sw_speed == 0)
		fmt_snprintf(vs, n2, "-");
	else {
		/* ratio with two decimals, rounded */
		uint64_t r = (e->speed * 100 + e->sw_speed / 2) / e->sw_speed;
		char f[16];
		fmt_fixed(f, sizeof(f), (int64_t)r, 2);
		fmt_snprintf(vs, n2, "%sx", f);
	}
}

#define ROW_FORMAT "summary: %-14s %-6s %-6s %-6s %-6s %-11s %-5s %s"

struct out {
	void (*line)(void *ctx, const char *text);
	void *ctx;
	unsigned lines;
};

static void emit(struct out *o, const char *text)
{
	o->line(o->ctx, text);
	o->lines++;
}

/* Emits text cut to the screen with "..." at its end. */
static void emit_cut(struct out *o, char *buf)
{
	if (strlen(buf) > RSUM_SCREEN)
		memcpy(buf + RSUM_SCREEN - 3, "...", 4);
	emit(o, buf);
}

/*
 * The reason in a failing test's line: what follows the test's name. Test
 * lines are "NAME: DETAIL" where NAME is "AREA: what" (geode-sb: probe,
 * kat: geode-sb aes-128-ecb encrypt), so the reason starts after the second
 * ": "; a line with one ": " at most is its own reason.
 */
static const char *after_colon(const char *p)
{
	for (; p[0]; p++)
		if (p[0] == ':' && p[1] == ' ')
			return p + 2;
	return NULL;
}

static const char *reason_of(const char *name)
{
	const char *a = after_colon(name);
	const char *b = a ? after_colon(a) : NULL;
	return b ? b : name;
}

/*
 * text wrapped at spaces into lines of at most RSUM_SCREEN characters, the
 * first starting with first, the others with "summary:   "; at most max
 * lines (the last one cut with "..."). Returns the lines emitted.
 */
static unsigned emit_wrapped(struct out *o, const char *first, const char *text, unsigned max)
{
	char buf[RSUM_LINE];
	const char *prefix = first;
	unsigned n = 0;

	while (*text && n < max) {
		size_t pl = strlen(prefix), room = RSUM_SCREEN - pl, len = strlen(text), cut = len;
		if (len > room) {
			cut = room;
			while (cut > room / 2 && text[cut] != ' ')
				cut--;
			if (text[cut] != ' ')
				cut = room;
		}
		if (n + 1 == max && len > room) {
			fmt_snprintf(buf, sizeof(buf), "%s%s", prefix, text);
			emit_cut(o, buf);
			return n + 1;
		}
		fmt_snprintf(buf, sizeof(buf), "%s%.*s", prefix, (int)cut, text);
		emit(o, buf);
		n++;
		text += cut;
		while (*text == ' ')
			text++;
		prefix = "summary:   ";
	}
	return n;
}

/* The part of a failing test's line that names its area ("geode-sb", "kat"), for the troubleshooting row. */
static void area_of(char *dst, size_t cap, const char *name)
{
	size_t i;
	for (i = 0; i + 1 < cap && name[i] && name[i] != ':' && name[i] != ' '; i++)
		dst[i] = name[i];
	dst[i] = '\0';
}

unsigned rsum_format(const struct rsum *s, const char *total, unsigned ok, unsigned not_ok,
		     unsigned skipped, void (*line)(void *ctx, const char *text), void *ctx)
{
	char buf[RSUM_LINE], absent[RSUM_LINE], cells[RSUM_COLS][16], speed[24], vs[16], area[RSUM_NAME];
	unsigned i, j, nabsent = 0, npresent = 0, shown = 0, fixed, budget, named;
	unsigned nrows = s->n + (s->e[RSUM_ENGINES].name[0] ? 1 : 0);
	bool emulated = false;
	struct out o = { line, ctx, 0 };
	size_t k;

	/* Engines that only skipped (absent on this machine) share one line. */
	k = fmt_snprintf(absent, sizeof(absent), "summary: absent or skipped:");
	for (i = 0; i < nrows; i++) {
		const struct rsum_engine *e = &s->e[i < s->n ? i : RSUM_ENGINES];
		if (strcmp(verdict(e), "skip") != 0 || e->speed != 0) {
			npresent++;
			emulated |= e->emulated && e->speed != 0;
			continue;
		}
		if (k + 1 + strlen(e->name) + 4 <= RSUM_SCREEN)
			k += fmt_snprintf(absent + k, sizeof(absent) - k, " %s", e->name);
		else if (k + 4 <= RSUM_SCREEN && absent[k - 1] != '.')
			k += fmt_snprintf(absent + k, sizeof(absent) - k, " ...");
		nabsent++;
	}
	/* Lines always printed: box, header, legend, absent, emulated, soak, next, run, totals. */
	fixed = (s->box[0] ? 1 : 0) + 2 + (nabsent ? 1 : 0) + (emulated ? 1 : 0) + (s->nfail ? 1 : 0) +
		(s->soak_passes ? 1 : 0) + 2;
	budget = RSUM_MAX_LINES - fixed;
	/* Rows first, but leave the first failure its lines (five for its
	 * reason and its test) and the count of the others. */
	if (s->nfail && budget > 6)
		budget -= s->nfail > 1 ? 6 : 5;
	if (s->box[0]) {
		fmt_snprintf(buf, sizeof(buf), "%s", s->box);
		emit_cut(&o, buf);
	}
	fmt_snprintf(buf, sizeof(buf), ROW_FORMAT, "engine", "probe", "kat", "xcheck", "rng",
		     "k@8KiB", "vs_sw", "verdict");
	emit(&o, buf);
	for (i = 0; i < nrows; i++) {
		const struct rsum_engine *e = &s->e[i < s->n ? i : RSUM_ENGINES];
		if (strcmp(verdict(e), "skip") == 0 && e->speed == 0)
			continue;
		if (shown + (shown + 1 < npresent ? 1 : 0) >= budget) {
			fmt_snprintf(buf, sizeof(buf), "summary: ... and %u more engines (the @ records have them)",
				     npresent - shown);
			emit(&o, buf);
			break;
		}
		for (j = 0; j < RSUM_COLS; j++)
			cell_text(cells[j], sizeof(cells[j]), &e->c[j]);
		speed_text(speed, sizeof(speed), vs, sizeof(vs), e, s->have_ref);
		fmt_snprintf(buf, sizeof(buf), ROW_FORMAT, e->name, cells[0], cells[1], cells[2], cells[3], speed, vs, verdict(e));
		emit(&o, buf);
		shown++;
	}
	emit(&o, "summary: k@8KiB: 1000s of bytes/s, as openssl speed: aes-128-cbc, sha256");
	if (emulated)
		emit(&o, "summary: * measured on an emulated device model, not the box's hardware");
	if (nabsent)
		emit(&o, absent);
	if (s->soak_passes) {
		soak_line(buf, sizeof(buf), s);
		emit_cut(&o, buf);
	}
	if (s->nfail) {
		/* The first failure, its reason first, wrapped (a name that carries
		 * no reason gives its first detail line); then its test, without
		 * the reason just shown, wrapped into the lines the reason left of
		 * the five kept for both. */
		const char *name = s->fail_name[0], *reason = reason_of(name);
		int name_len = (int)strlen(name);
		unsigned used;
		if (reason != name)
			name_len = (int)(reason - name) - 2;	/* up to the ": " before the reason */
		else if (s->fail_detail[0])
			reason = s->fail_detail;
		used = emit_wrapped(&o, "summary: first failure: ", reason, 3);
		fmt_snprintf(buf, sizeof(buf), "not ok %u - %.*s (row %s)", s->fail_num[0], name_len, name,
			     s->fail_engine[0]);
		emit_wrapped(&o, "summary:   in ", buf, 5 - used);
		/* The others, one line each, as many as fit before the last three lines. */
		for (named = 1; named < s->nfail && named < RSUM_FAILS; named++) {
			if (o.lines + 4 + (named + 1 < s->nfail ? 1 : 0) > RSUM_MAX_LINES)
				break;
			fmt_snprintf(buf, sizeof(buf), "summary: not ok %u - %s", s->fail_num[named],
				     s->fail_name[named]);
			emit_cut(&o, buf);
		}
		if (named < s->nfail) {
			fmt_snprintf(buf, sizeof(buf), "summary: ... and %u more not ok (search the log for 'not ok')",
				     s->nfail - named);
			emit(&o, buf);
		}
		area_of(area, sizeof(area), s->fail_name[0]);
		fmt_snprintf(buf, sizeof(buf), "summary: next: docs/troubleshooting.md, row `%s:`, then run again",
			     area);
		emit_cut(&o, buf);
	}
	k = fmt_snprintf(buf, sizeof(buf), "summary: run %s s;", total);
	for (i = 0; i < s->nstage; i++) {
		char t[16], piece[40];
		size_t len;
		if (s->stage_tenths[i] < 0)
			fmt_snprintf(t, sizeof(t), "?");
		else
			fmt_fixed(t, sizeof(t), s->stage_tenths[i], 1);
		/* The stages that took time, as many as fit (every one is an @stage record). */
		if (s->stage_tenths[i] == 0)
			continue;
		len = fmt_snprintf(piece, sizeof(piece), " %s %s", s->stage[i], t);
		if (k + len > RSUM_SCREEN)
			break;
		memcpy(buf + k, piece, len + 1);
		k += len;
	}
	emit(&o, buf);
	fmt_snprintf(buf, sizeof(buf), "summary: %u tests: %u ok, %u not ok, %u skipped", ok + not_ok + skipped,
		     ok, not_ok, skipped);
	emit(&o, buf);
	return o.lines;
}
