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
 *
 * tap_vline, ok_vskip and tap_vdiag take a va_list, for a harness's own
 * printf-style wrappers under the names its callers use.
 *
 * n counts the results, failed the failures. For one .c file each: the
 * state is static.
 */
#ifndef CQ_TESTS_HOST_TAP_OK_H
#define CQ_TESTS_HOST_TAP_OK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

#endif
