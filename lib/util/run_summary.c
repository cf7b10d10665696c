/* run_summary: the last screen of the report. See run_summary.h. */
#include "lib/util/run_summary.h"

#include <string.h>

#include "lib/util/fmt.h"

/* Prefixes of the platform's own checks: they count under "platform". */
static const char *const platform_prefix[] = {
	"cpu", "pci", "timer", "boot", "emulate", "bench", "selftest", "memory",
	"rng self-check", "fpu", "console", "identity", "soak",
};

static const char *const col_prefix[RSUM_COLS] = { NULL, "kat", "crosscheck", "rng" };

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

/* The first ": " in name, or NULL (the freestanding libc has no strstr). */
static const char *find_colon(const char *name)
{
	for (; *name; name++)
		if (name[0] == ':' && name[1] == ' ')
			return name;
	return NULL;
}

void rsum_classify(const char *name, char *engine, size_t cap, enum rsum_col *col)
{
	const char *colon = find_colon(name);
	size_t plen, i;

	*col = RSUM_PROBE;
	if (cap == 0)
		return;
	if (colon == NULL) {
		copy_engine(engine, cap, "platform", 8);
		return;
	}
	plen = (size_t)(colon - name);
	for (i = 0; i < sizeof(platform_prefix) / sizeof(platform_prefix[0]); i++)
		if (strlen(platform_prefix[i]) == plen && memcmp(name, platform_prefix[i], plen) == 0) {
			copy_engine(engine, cap, "platform", 8);
			return;
		}
	for (i = RSUM_KAT; i < RSUM_COLS; i++)
		if (strlen(col_prefix[i]) == plen && memcmp(name, col_prefix[i], plen) == 0) {
			const char *w = colon + 2;
			size_t wl = 0;
			while (w[wl] && w[wl] != ' ')
				wl++;
			*col = (enum rsum_col)i;
			copy_engine(engine, cap, w, wl);
			/* "crosscheck: hardware AES engines ...", "rng: statistics": no engine named */
			if (engine[0] == '\0' || strcmp(engine, "hardware") == 0 ||
			    strcmp(engine, "statistics") == 0)
				copy_engine(engine, cap, "platform", 8);
			return;
		}
	copy_engine(engine, cap, name, plen);
	if (engine[0] == '\0')
		copy_engine(engine, cap, "platform", 8);
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

void rsum_result(struct rsum *s, unsigned number, bool ok, bool skip, const char *name)
{
	char engine[RSUM_NAME];
	enum rsum_col col;
	struct rsum_cell *c;

	rsum_classify(name, engine, sizeof(engine), &col);
	c = &row(s, engine)->c[col];
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
	}
	s->nfail++;
}

void rsum_speed(struct rsum *s, const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s,
		bool rng)
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

static void speed_text(char *speed, size_t n1, char *vs, size_t n2, const struct rsum_engine *e)
{
	if (e->speed == 0) {
		fmt_snprintf(speed, n1, "-");
		fmt_snprintf(vs, n2, "-");
		return;
	}
	fmt_snprintf(speed, n1, "%llu", (unsigned long long)e->speed);
	if (e->rng_speed)
		fmt_snprintf(vs, n2, "rng");
	else if (strcmp(e->name, "software") == 0)
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

/* Every line fits the 80-column screen with the "# " in front (at most 77 characters). */
#define ROW_FORMAT "summary: %-11s %-7s %-7s %-7s %-7s %-9s %-5s %s"
#define SCREEN_TEXT 77

unsigned rsum_format(const struct rsum *s, const char *total, unsigned ok, unsigned not_ok,
		     unsigned skipped, void (*line)(void *ctx, const char *text), void *ctx)
{
	char buf[RSUM_LINE], absent[RSUM_LINE], cells[RSUM_COLS][16], speed[24], vs[16];
	unsigned i, j, lines = 0, nrows = s->n + (s->e[RSUM_ENGINES].name[0] ? 1 : 0);
	size_t o;

	fmt_snprintf(buf, sizeof(buf), ROW_FORMAT, "engine", "probe", "kat", "xcheck", "rng",
		     "8KiB_B/s", "vs_sw", "verdict");
	line(ctx, buf);
	lines++;
	/* Engines that only skipped (absent on this machine) share one line. */
	o = fmt_snprintf(absent, sizeof(absent), "summary: absent or skipped:");
	for (i = 0, j = 0; i < nrows; i++) {
		const struct rsum_engine *e = &s->e[i < s->n ? i : RSUM_ENGINES];
		if (strcmp(verdict(e), "skip") != 0 || e->speed != 0)
			continue;
		if (o + 1 + strlen(e->name) + 4 <= SCREEN_TEXT)
			o += fmt_snprintf(absent + o, sizeof(absent) - o, " %s", e->name);
		else if (o + 4 <= SCREEN_TEXT && absent[o - 1] != '.')
			o += fmt_snprintf(absent + o, sizeof(absent) - o, " ...");
		j++;
	}
	for (i = 0; i < nrows; i++) {
		const struct rsum_engine *e = &s->e[i < s->n ? i : RSUM_ENGINES];
		if (strcmp(verdict(e), "skip") == 0 && e->speed == 0)
			continue;
		for (j = 0; j < RSUM_COLS; j++)
			cell_text(cells[j], sizeof(cells[j]), &e->c[j]);
		speed_text(speed, sizeof(speed), vs, sizeof(vs), e);
		fmt_snprintf(buf, sizeof(buf), ROW_FORMAT, e->name, cells[0], cells[1], cells[2], cells[3], speed, vs, verdict(e));
		line(ctx, buf);
		lines++;
	}
	if (j > 0) {
		line(ctx, absent);
		lines++;
	}
	for (i = 0; i < s->nfail && i < RSUM_FAILS; i++) {
		fmt_snprintf(buf, sizeof(buf), "summary: not ok %u - %s", s->fail_num[i], s->fail_name[i]);
		if (strlen(buf) > SCREEN_TEXT)
			memcpy(buf + SCREEN_TEXT - 3, "...", 4);
		line(ctx, buf);
		lines++;
	}
	if (s->nfail > RSUM_FAILS) {
		fmt_snprintf(buf, sizeof(buf), "summary: ... and %u more not ok (search the log for 'not ok')",
			     s->nfail - RSUM_FAILS);
		line(ctx, buf);
		lines++;
	}
	o = fmt_snprintf(buf, sizeof(buf), "summary: run %s s;", total);
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
		if (o + len > SCREEN_TEXT)
			break;
		memcpy(buf + o, piece, len + 1);
		o += len;
	}
	line(ctx, buf);
	lines++;
	fmt_snprintf(buf, sizeof(buf), "summary: %u tests: %u ok, %u not ok, %u skipped", ok + not_ok + skipped,
		     ok, not_ok, skipped);
	line(ctx, buf);
	return lines + 1;
}
