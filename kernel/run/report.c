/* report: the TAP version 13 report and the end of the run. See report.h. */
#include "kernel/run/report.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "lib/util/escape.h"
#include "lib/util/fmt.h"
#include "lib/util/run_summary.h"
#include "kernel/platform/console.h"
#include "kernel/platform/exceptions.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/x86.h"

static struct {
	unsigned n;
	unsigned ok, not_ok, skipped;
	bool is_qemu;
	enum finish_action finish;
	const char *only;
	bool have_tsc;
	uint64_t t0;             /* TSC at report_begin() */
	uint64_t last_line;      /* TSC when the last line was printed */
	uint64_t stage_t0;       /* TSC when the current stage began */
	char stage[24];          /* its name, "" before the first */
	uint64_t hz;             /* TSC ticks per second, 0 before calibration */
	struct rsum sum;         /* the last screen */
	const char *subject;     /* report_subject(): NULL for the platform */
	enum rsum_col subject_col;
	char partial[200];       /* why the run is partial, reasons joined by ", "; "" for a whole run */
	unsigned pass;           /* the soak pass running (1..), 0 outside the soak */
	unsigned skips_hidden;   /* SKIP results not printed in soak passes */
	unsigned oks_quiet;      /* ok results of soak passes: counted, not printed */
	bool pass_failed;        /* the running soak pass printed a not ok */
	void (*before_plan)(void);   /* report_set_finish_hooks() */
	void (*after_verdict)(void);
} rep;

#define NAME_MAX_CHARS 480      /* a test name on the line, escaped */
#define DIAG_BYTES     768      /* a diagnostic line, formatted */
#define HEARTBEAT_S    10       /* at most this long without a line */

void report_partial(const char *fmt, ...)
{
	char why[120];
	size_t k = strlen(rep.partial);
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (k + strlen(why) + 3 >= sizeof(rep.partial)) {
		/* Full: the verdict line still says partial, and that more was cut. */
		if (k + 5 < sizeof(rep.partial) && (k < 5 || strcmp(rep.partial + k - 5, ", ...") != 0))
			fmt_snprintf(rep.partial + k, sizeof(rep.partial) - k, ", ...");
		return;
	}
	fmt_snprintf(rep.partial + k, sizeof(rep.partial) - k, "%s%s", k ? ", " : "", why);
}

const char *report_partial_reasons(void)
{
	return rep.partial;
}

void report_set_only(const char *pattern)
{
	rep.only = (pattern && pattern[0]) ? pattern : NULL;
}

/* Whether needle occurs in hay. */
static bool contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return true;
	return false;
}

bool report_selected(const char *name)
{
	return !rep.only || contains(name, rep.only);
}

/* Whether the CPU has a TSC (CPUID.1:EDX bit 4), asked before cpu_init(). */
static bool cpu_has_tsc(void)
{
	struct cpuid_regs r;
	hw_cpuid(0, 0, &r);
	if (r.eax < 1)
		return false;
	hw_cpuid(1, 0, &r);
	return (r.edx >> 4) & 1;
}

static uint64_t now(void)
{
	return rep.have_tsc ? hw_rdtsc() : 0;
}

/* Tenths of a second between two TSC readings, or -1 before calibration. */
static int64_t tenths(uint64_t from, uint64_t to)
{
	uint64_t hz = rep.hz;
	if (!rep.have_tsc || hz == 0 || to < from)
		return -1;
	return (int64_t)((to - from) / (hz / 10 ? hz / 10 : 1));
}

int64_t report_tenths(void)
{
	return tenths(rep.t0, now());
}

size_t report_time(char *buf, size_t n)
{
	int64_t t = tenths(rep.t0, now());
	if (t < 0)
		return fmt_snprintf(buf, n, "unknown");
	return fmt_fixed(buf, n, t, 1);
}

void report_set_clock(uint64_t tsc_hz)
{
	rep.hz = tsc_hz;
}

void report_speed(const char *engine, uint64_t bytes_per_s, uint64_t sw_bytes_per_s, bool rng,
		  bool emulated)
{
	rsum_speed(&rep.sum, engine, bytes_per_s, sw_bytes_per_s, rng, emulated);
}

void report_reference(const char *engine)
{
	rsum_reference(&rep.sum, engine);
}

void report_box(const char *key, const char *model, const char *bios, const char *version)
{
	rsum_box(&rep.sum, key, model, bios, version);
}

/* The platform's report hook (kernel/platform/console.h): its lines are the report's. */
static void platform_diag(const char *text)
{
	tap_diag("%s", text);
}

static const struct console_report platform_report = { platform_diag, report_bail_out };

void report_begin(void)
{
	console_set_report(&platform_report);
	rsum_init(&rep.sum);
	rep.have_tsc = cpu_has_tsc();
	rep.t0 = rep.last_line = rep.stage_t0 = now();
	/* The blank line first: a marker glued to the end of an earlier boot's
	 * last line (its line end lost at a reset) still stands on a line of
	 * its own, where qualreport looks for a boot's start. */
	kprintf("\nTAP version 13\n");
}

void report_set_qemu(bool is_qemu)
{
	rep.is_qemu = is_qemu;
}

void report_set_finish(enum finish_action a)
{
	rep.finish = a;
}

unsigned report_ok(void) { return rep.ok; }
unsigned report_not_ok(void) { return rep.not_ok; }
unsigned report_skipped(void) { return rep.skipped; }

void report_set_pass(unsigned pass)
{
	rep.pass = pass;
	rep.pass_failed = false;
}

unsigned report_oks_quiet(void)
{
	return rep.oks_quiet;
}

void report_soak_pass(unsigned pass, unsigned not_ok)
{
	rsum_soak(&rep.sum, pass, not_ok);
}

unsigned report_skips_hidden(void)
{
	return rep.skips_hidden;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;
	char line[DIAG_BYTES], t[24];

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* A soak pass prints what changed: its diagnostics from its first
	 * not ok on (what explains it), warnings, and its records. */
	if (rep.pass && !rep.pass_failed && line[0] != '@' && strncmp(line, "warning: ", 9) != 0)
		return;
	rep.last_line = now();
	if (line[0] == '@') {
		/* Every machine-readable record carries the seconds since start,
		 * and inside the soak the pass that produced it. */
		report_time(t, sizeof(t));
		if (rep.pass)
			kprintf("# %s pass=%u t=%s\n", line, rep.pass, t);
		else
			kprintf("# %s t=%s\n", line, t);
	} else {
		kprintf("# %s\n", line);
		if (line[0] == ' ' && line[1] == ' ')
			rsum_detail(&rep.sum, line + 2);	/* "#   " lines: a failure's detail */
	}
}

void report_tick(void)
{
	char t[24];
	int64_t quiet = tenths(rep.last_line, now());
	if (quiet < 10 * HEARTBEAT_S)
		return;
	report_time(t, sizeof(t));
	rep.last_line = now();
	kprintf("# heartbeat: t=%s stage=%s\n", t, rep.stage[0] ? rep.stage : "start");
}

void report_stage(const char *name)
{
	char t[24], d[24];
	uint64_t at = now();
	int64_t took = tenths(rep.stage_t0, at);

	if (rep.stage[0]) {
		if (took < 0)
			fmt_snprintf(d, sizeof(d), "unknown");
		else
			fmt_fixed(d, sizeof(d), took, 1);
		report_time(t, sizeof(t));
		rep.last_line = at;
		kprintf("# @stage name=%s seconds=%s t=%s\n", rep.stage, d, t);
		rsum_stage(&rep.sum, rep.stage, took);
	}
	rep.stage_t0 = at;
	fmt_snprintf(rep.stage, sizeof(rep.stage), "%s", name ? name : "");
}

/*
 * One result line. name is escaped ('#' as \#, control bytes as \xNN,
 * bounded) so that nothing in it reads as a directive or a second line;
 * suffix (" # SKIP reason", " # fault: ...") is the report's own text.
 */
static void result_line(bool ok, bool skip, const char *name, const char *suffix)
{
	char esc[NAME_MAX_CHARS + 1];

	if (rep.pass && ok && !skip) {
		/* In a soak pass an ok is no news: counted on the pass's status
		 * line (and in the summary's rows), not printed, not numbered. */
		rep.oks_quiet++;
		rsum_result(&rep.sum, 0, true, false, "", rep.subject, rep.subject_col);
		return;
	}
	if (rep.pass && !ok)
		rep.pass_failed = true;
	rep.n++;
	esc_tap_name(esc, sizeof(esc), name, NAME_MAX_CHARS, NAME_MAX_CHARS);
	rep.last_line = now();
	kprintf("%s %u - %s%s\n", ok ? "ok" : "not ok", rep.n, esc, suffix);
	if (skip)
		rep.skipped++;
	else if (ok)
		rep.ok++;
	else
		rep.not_ok++;
	rsum_result(&rep.sum, rep.n, ok, skip, esc, rep.subject, rep.subject_col);
}

void report_subject(const char *engine, enum rsum_col col)
{
	rep.subject = engine;
	rep.subject_col = col;
}

bool tap_result(bool ok, const char *fmt, ...)
{
	va_list ap;
	char name[NAME_MAX_CHARS + 1];

	va_start(ap, fmt);
	fmt_vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	result_line(ok, false, name, "");
	return ok;
}

void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;
	char name[NAME_MAX_CHARS + 1], suffix[NAME_MAX_CHARS + 16];
	size_t o;

	va_start(ap, fmt);
	fmt_vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (rep.pass) {
		rep.skips_hidden++;	/* printed once, in the first run */
		return;
	}
	o = fmt_snprintf(suffix, sizeof(suffix), " # SKIP ");
	esc_line(suffix + o, sizeof(suffix) - o, reason, NAME_MAX_CHARS, NAME_MAX_CHARS);
	result_line(true, true, name, suffix);
}

struct run_ctx {
	bool (*fn)(void *ctx);
	void *ctx;
	bool result;
};

static void run_trampoline(void *p)
{
	struct run_ctx *r = p;
	r->result = r->fn(r->ctx);
}

/*
 * The watchdog (kernel/platform/watchdog.c) is referenced weakly: host
 * programs that link this file without it (tests/host, the PadLock
 * emulator harness) run their tests without one.
 */
extern void watchdog_arm(unsigned budget_ms, int level) __attribute__((weak));
extern void watchdog_disarm(void) __attribute__((weak));
extern int guard_level(void) __attribute__((weak));   /* there whenever the watchdog is */

bool report_guarded_try(const char *name, void (*fn)(void *ctx), void *ctx, unsigned budget_ms,
			char *why, size_t cap)
{
	struct fault_info fi;
	bool done;

	memset(&fi, 0, sizeof(fi));
	if (watchdog_arm)
		watchdog_arm(budget_ms, guard_level());
	done = guard_run(name, fn, ctx, &fi);
	if (watchdog_disarm)
		watchdog_disarm();
	if (done)
		return true;
	if (fi.kind == FAULT_TIMEOUT)
		fmt_snprintf(why, cap, "timeout: ran past its %u ms budget (stopped at EIP %08x)",
			     budget_ms, fi.eip);
	else if (fi.kind == FAULT_BAD_STACK)
		fmt_snprintf(why, cap, "fault: %s with ESP %08x outside the kernel stack",
			     exc_mnemonic(fi.vector), fi.esp);
	else
		fmt_snprintf(why, cap, "fault: %s at EIP %08x", exc_mnemonic(fi.vector), fi.eip);
	return false;
}

bool report_guarded_call(const char *name, void (*fn)(void *ctx), void *ctx, unsigned budget_ms)
{
	char why[96];

	if (report_guarded_try(name, fn, ctx, budget_ms, why, sizeof(why)))
		return true;
	/* The ending is the report's own text, added after the escaped name. */
	report_result_note(false, name, why);
	return false;
}

void report_result_note(bool ok, const char *name, const char *note)
{
	char suffix[112];

	fmt_snprintf(suffix, sizeof(suffix), " # %s", note);
	result_line(ok, false, name, suffix);
}

bool tap_run_budget(const char *name, bool (*fn)(void *ctx), void *ctx, unsigned budget_ms)
{
	struct run_ctx r = { fn, ctx, false };

	if (!report_selected(name)) {
		tap_skip("not selected by only=", "%s", name);
		return false;   /* it did not run: callers must not use its results */
	}
	if (!report_guarded_call(name, run_trampoline, &r, budget_ms))
		return false;
	return tap_result(r.result, "%s", name);
}

bool tap_run(const char *name, bool (*fn)(void *ctx), void *ctx)
{
	return tap_run_budget(name, fn, ctx, TAP_RUN_BUDGET_MS);
}

void report_set_finish_hooks(void (*before_plan)(void), void (*after_verdict)(void))
{
	rep.before_plan = before_plan;
	rep.after_verdict = after_verdict;
}

static void __attribute__((noreturn)) finish_machine(uint8_t qemu_status)
{
	char why[96], line[128];

	if (rep.after_verdict)
		rep.after_verdict();

	/* The verdict's last byte leaves the UART before QEMU exits or the box resets. */
	if (!console_drain(why, sizeof(why))) {
		fmt_snprintf(line, sizeof(line), "# warning: console: %s\n", why);
		console_emergency(line);
	}
	if (rep.is_qemu)
		hw_outb(QEMU_EXIT_PORT, qemu_status);   /* QEMU ends here */
	if (rep.finish == FINISH_REBOOT) {
		/* 8042 pulse reset line, then the PCI reset control register (0xCF9). */
		hw_outb(0x64, 0xFE);
		hw_outb(0xCF9, 0x06);
	}
	for (;;) {
		x86_cli();
		x86_hlt();
	}
}

static void summary_line(void *ctx, const char *text)
{
	(void)ctx;
	kprintf("# %s\n", text);
}

void report_finish(void)
{
	bool pass = rep.not_ok == 0;
	char t[24];

	report_stage("");
	report_time(t, sizeof(t));
	kprintf("# @run seconds=%s tests=%u ok=%u not_ok=%u skipped=%u t=%s\n", t, rep.n, rep.ok,
		rep.not_ok, rep.skipped, t);
	rsum_format(&rep.sum, t, rep.ok, rep.not_ok, rep.skipped, summary_line, NULL);
	if (rep.before_plan)
		rep.before_plan();
	kprintf("1..%u\n", rep.n);
	if (rep.partial[0])
		kprintf("# cryptoqual: %s (%u ok, %u not ok, %u skipped; partial: %s)\n",
			pass ? "PASS" : "FAIL", rep.ok, rep.not_ok, rep.skipped, rep.partial);
	else
		kprintf("# cryptoqual: %s (%u ok, %u not ok, %u skipped)\n", pass ? "PASS" : "FAIL",
			rep.ok, rep.not_ok, rep.skipped);
	finish_machine(pass ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL);
}

void report_bail_out(const char *reason)
{
	char esc[80];
	esc_line(esc, sizeof(esc), reason, 200, 72);
	/*
	 * Then the plan of the results so far: TAP::Parser counts a log
	 * without a plan as a parse error even after a bail-out, and npm's
	 * tap-parser reads nothing after a plan that ends the results (so the
	 * plan cannot come first).
	 */
	kprintf("Bail out! %s\n", esc);
	kprintf("1..%u\n", rep.n);
	kprintf("# cryptoqual: FAIL (%u ok, %u not ok, %u skipped; crashed: %s)\n",
		rep.ok, rep.not_ok, rep.skipped, esc);
	finish_machine(QEMU_EXIT_CRASH);
}
