/* driver_run: one driver through the run: probe, self-tests, log. See driver_run.h. */
#include "kernel/run/driver_run.h"

#include <stddef.h>
#include <string.h>

#include "kernel/run/report.h"
#include "lib/util/escape.h"
#include "lib/util/fmt.h"

void driver_flush_log(const struct driver *d)
{
	struct drv_log *l = d->log;
	unsigned j;

	if (!l)
		return;
	for (j = 0; j < l->n; j++)
		tap_diag("%s: %s", d->name, l->line[j]);
	if (l->dropped)
		tap_diag("%s: %lu more lines not kept (log full)", d->name, l->dropped);
	l->n = 0;
	l->dropped = 0;
}

/*
 * Where a driver's result counts in the summary (report_subject()). A
 * driver declares its tests and units by TAP name (lib/engine/driver.h),
 * and the name says what it checks: a test's name starts with its unit
 * ("geode-trng/tsel2: throughput": the probe column of geode-trng), an
 * absent unit's with the stage it would have fed and the engine ("kat:
 * aesni (AES-NI engine)": aesni's KAT column; "rng: rdseed source":
 * rdseed's RNG column). engine (cap bytes) gets the unit's name.
 */
static enum rsum_col driver_subject(const char *name, bool unit, char *engine, size_t cap)
{
	static const struct { const char *stage; enum rsum_col col; } stage[] = {
		{ "kat: ", RSUM_KAT }, { "rng: ", RSUM_RNG },
	};
	enum rsum_col col = RSUM_PROBE;
	size_t i, n;

	for (i = 0; unit && i < sizeof(stage) / sizeof(stage[0]); i++) {
		n = strlen(stage[i].stage);
		if (strncmp(name, stage[i].stage, n) == 0) {
			name += n;
			col = stage[i].col;
			break;
		}
	}
	for (n = 0; name[n] && name[n] != ':' && name[n] != ' ' && n + 1 < cap; n++)
		engine[n] = name[n];
	engine[n] = '\0';
	return col;
}

static bool expect_none;

void driver_run_expect_none(bool none)
{
	expect_none = none;
}

void driver_run_probe(const struct driver *d, const struct driver_facts *f)
{
	struct driver_probe p;
	unsigned u;

	p.n = 0;
	d->probe(f, &p);
	driver_flush_log(d);
	for (u = 0; u < p.n; u++) {
		const struct driver_unit *x = &p.unit[u];
		char engine[32];

		if (x->present)
			continue;
		report_subject(engine, driver_subject(x->name, true, engine, sizeof(engine)));
		if (x->promised && !expect_none)
			tap_result(false, "%s: %s", x->name, x->reason);
		else if (x->promised) {
			tap_skip(x->reason, "%s (promised unit not expected: expect=none)", x->name);
			report_partial("a promised unit dropped (expect=none)");
		}
		else
			tap_skip(x->reason, "%s", x->name);
		report_subject(NULL, RSUM_PROBE);
	}
}

struct test_call {
	const struct driver_test *t;
	enum drv_status status;
	char detail[320];
};

static void call_test(void *p)
{
	struct test_call *c = p;
	c->status = c->t->run(c->t->ctx, c->detail, sizeof(c->detail));
}

static const char *const status_word[] = { "passed", "failed", "skipped" };

/*
 * A probe of undocumented behaviour: its outcome, a fault or a hang
 * included, is a finding: "ok N - name # finding: OUTCOME" and the record
 * "# @finding driver=D test=NAME outcome=passed|failed|fault|timeout
 * detail=TEXT t=T" (NAME and TEXT escaped as record values), never `not
 * ok`; the driver's log lines after it say the same in words. A probe
 * that skips (its unit is absent) probed nothing: an ordinary SKIP line.
 */
/*
 * A finding's budget: each probe is a handful of operations (4 CTR
 * blocks, one DMA block, one 1024-bit montmul), milliseconds on the
 * slowest part, and a hang is one of the outcomes it exists to report
 * (OpenSSL cites CTR errata on C7 steppings): two seconds, not the 10
 * minutes of an ordinary test.
 */
#define FINDING_BUDGET_MS	2000u

static void run_finding(const struct driver *d, const struct driver_test *t, struct test_call *c)
{
	char why[96], esc_name[200], esc_detail[360], note[100];
	const char *outcome, *detail;

	why[0] = '\0';
	if (!report_guarded_try(t->name, call_test, c, FINDING_BUDGET_MS, why, sizeof(why)))
		outcome = why[0] == 't' ? "timeout" : "fault";
	else if (c->status == DRV_SKIP) {
		tap_skip(c->detail[0] ? c->detail : "not applicable", "%s", t->name);
		return;
	} else
		outcome = status_word[c->status];
	detail = why[0] ? why : c->detail;
	esc_value(esc_name, sizeof(esc_name), t->name, sizeof(esc_name), sizeof(esc_name) - 1);
	esc_value(esc_detail, sizeof(esc_detail), detail, sizeof(esc_detail), sizeof(esc_detail) - 1);
	tap_diag("@finding driver=%s test=%s outcome=%s detail=%s", d->name, esc_name, outcome,
		 esc_detail);
	fmt_snprintf(note, sizeof(note), "finding: %s", outcome);
	report_result_note(true, t->name, note);
}

/* One self-test as one TAP line: PASS "name (note)", FAIL "name: detail", SKIP "name # SKIP why". */
static void run_one(const struct driver *d, const struct driver_test *t)
{
	struct test_call c;

	if (!report_selected(t->name)) {
		tap_skip("not selected by only=", "%s", t->name);
		return;
	}
	c.t = t;
	c.status = DRV_FAIL;
	c.detail[0] = '\0';
	if (t->finding) {
		run_finding(d, t, &c);
		return;
	}
	if (!report_guarded_call(t->name, call_test, &c, TAP_RUN_BUDGET_MS))
		return;		/* the fault or timeout line is printed */
	switch (c.status) {
	case DRV_PASS:
		if (c.detail[0])
			tap_result(true, "%s (%s)", t->name, c.detail);
		else
			tap_result(true, "%s", t->name);
		break;
	case DRV_SKIP:
		tap_skip(c.detail[0] ? c.detail : "not applicable", "%s", t->name);
		break;
	default:
		if (c.detail[0])
			tap_result(false, "%s: %s", t->name, c.detail);
		else
			tap_result(false, "%s", t->name);
		break;
	}
}

void driver_run_tests(const struct driver *d)
{
	unsigned j;

	for (j = 0; j < d->ntests; j++) {
		char engine[32];

		report_subject(engine, driver_subject(d->tests[j].name, false, engine, sizeof(engine)));
		run_one(d, &d->tests[j]);
		report_subject(NULL, RSUM_PROBE);
		driver_flush_log(d);
	}
}
