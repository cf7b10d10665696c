/*
 * The TAP writer of the C host harnesses (the test programs of
 * tests/kernel/ and tests/drivers/): TAP version 13 results numbered on
 * stdout.
 *
 *   ok(cond, what)               one result; returns cond
 *   okf(cond, fmt, ...)          the same with a printf-style name
 *   ok_skip(why, fmt, ...)       "ok N - name # SKIP why"
 *   tap_diag_lines(prefix, text) each line of text after prefix (a "#" comment)
 *   tap_plan()                   "1..n"; returns the exit status (1 on any failure)
 *   tap_guard(prog, seconds, h)  a hang ends in "Bail out!", a crash in one
 *                                more "not ok" and the plan (tap_crashed)
 *
 * tap_vline, ok_vskip and tap_vdiag take a va_list, for a harness's own
 * printf-style wrappers under the names its callers use.
 *
 * n counts the results, failed the failures. For one .c file each: the
 * state is static.
 */
#ifndef CQ_TESTS_HOST_TAP_OK_H
#define CQ_TESTS_HOST_TAP_OK_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int n, failed;

static __attribute__((format(printf, 3, 0))) int tap_vline(int cond, const char *suffix, const char *fmt,
							  va_list ap)
{
	n++;
	printf("%sok %d - ", cond ? "" : "not ", n);
	vprintf(fmt, ap);
	printf("%s\n", suffix);
	if (!cond)
		failed++;
	fflush(stdout);
	return cond;
}

static __attribute__((format(printf, 2, 3), unused)) int okf(int cond, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cond = tap_vline(cond, "", fmt, ap);
	va_end(ap);
	return cond;
}

static __attribute__((unused)) int ok(int cond, const char *what)
{
	return okf(cond, "%s", what);
}

static __attribute__((format(printf, 2, 0), unused)) void ok_vskip(const char *why, const char *fmt, va_list ap)
{
	char suffix[256];

	snprintf(suffix, sizeof(suffix), " # SKIP %s", why);
	tap_vline(1, suffix, fmt, ap);
}

static __attribute__((format(printf, 2, 3), unused)) void ok_skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ok_vskip(why, fmt, ap);
	va_end(ap);
}

/* One "# " comment line. */
static __attribute__((format(printf, 1, 0), unused)) void tap_vdiag(const char *fmt, va_list ap)
{
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

/* Each line of text (the last may lack its newline) as prefix + line; prefix
 * starts with "#" so that the lines are TAP comments. */
static __attribute__((unused)) void tap_diag_lines(const char *prefix, const char *text)
{
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		printf("%s%.*s\n", prefix, (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
	}
	fflush(stdout);
}

static __attribute__((unused)) int tap_plan(void)
{
	printf("1..%d\n", n);
	fflush(stdout);
	return failed ? 1 : 0;
}

/* ---- the guard: a hang or a crash still ends the TAP stream ---- */

static const char *tap_prog = "test";			/* the harness's name in those lines */
static const char *volatile tap_phase = "start";	/* the part running: set before each */

/* Appends str, then the decimal v, to buf at *len (cap bytes): async-signal-safe. */
static void tap_put_str(char *buf, size_t *len, size_t cap, const char *str)
{
	while (*str && *len < cap)
		buf[(*len)++] = *str++;
}

static void tap_put_uint(char *buf, size_t *len, size_t cap, unsigned v)
{
	char d[12];
	unsigned k = 0;

	do
		d[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (k > 0 && *len < cap)
		buf[(*len)++] = d[--k];
}

/*
 * A crash in a signal handler: one more result, "not ok N - PROG crashed
 * (signal S) in PHASE", then the plan, with write(2) to fd 1 (nothing of
 * stdio); exits 1 (3 when the write fails). A harness that moved stdout
 * puts it back before calling this.
 */
static __attribute__((unused)) void tap_crashed(int sig)
{
	char buf[256];
	size_t len = 0;

	tap_put_str(buf, &len, sizeof(buf), "not ok ");
	tap_put_uint(buf, &len, sizeof(buf), (unsigned)n + 1);
	tap_put_str(buf, &len, sizeof(buf), " - ");
	tap_put_str(buf, &len, sizeof(buf), tap_prog);
	tap_put_str(buf, &len, sizeof(buf), " crashed (signal ");
	tap_put_uint(buf, &len, sizeof(buf), (unsigned)sig);
	tap_put_str(buf, &len, sizeof(buf), ") in ");
	tap_put_str(buf, &len, sizeof(buf), tap_phase);
	tap_put_str(buf, &len, sizeof(buf), "\n1..");
	tap_put_uint(buf, &len, sizeof(buf), (unsigned)n + 1);
	tap_put_str(buf, &len, sizeof(buf), "\n");
	if (write(1, buf, len) < 0)
		_exit(3);
	_exit(1);
}

/* The alarm: "Bail out! PROG hung (alarm)"; exits 2 (3 when the write fails). */
static void tap_hung(int sig)
{
	char buf[128];
	size_t len = 0;

	(void)sig;
	tap_put_str(buf, &len, sizeof(buf), "Bail out! ");
	tap_put_str(buf, &len, sizeof(buf), tap_prog);
	tap_put_str(buf, &len, sizeof(buf), " hung (alarm)\n");
	if (write(1, buf, len) < 0)
		_exit(3);
	_exit(2);
}

/*
 * Guards the whole program (prog: its name in the lines above): SIGALRM
 * after seconds ends it in tap_hung (prove would otherwise wait for ever),
 * SIGSEGV, SIGBUS, SIGILL and SIGFPE in on_crash (NULL: tap_crashed).
 */
static __attribute__((unused)) void tap_guard(const char *prog, unsigned seconds, void (*on_crash)(int))
{
	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	unsigned i;

	tap_prog = prog;
	signal(SIGALRM, tap_hung);
	for (i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		signal(crash_signals[i], on_crash ? on_crash : tap_crashed);
	alarm(seconds);
}

#endif
