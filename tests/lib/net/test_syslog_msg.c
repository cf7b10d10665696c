/* Unit tests for lib/net/syslog_msg.c: RFC 5424 messages for report lines (header, MSGID, severity, cut). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/net/syslog_msg.h"

static size_t fmt_line(char *out, size_t cap, unsigned long seq, const char *line, bool *cut)
{
	return syslog_format(out, cap, "CQ-TEST-42", seq, line, strlen(line), cut);
}

static void test_whole_message(void **state)
{
	char out[512];
	bool cut = true;
	size_t n;
	const char *line = "# @cipher engine=software alg=aes-128-cbc t=1.9";
	static const char want[] =
		"<134>1 - CQ-TEST-42 cryptoqual - cipher [meta sequenceId=\"7\"] # @cipher engine=software alg=aes-128-cbc t=1.9";
	(void)state;
	n = fmt_line(out, sizeof(out), 7, line, &cut);
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(out, want, n);
	assert_false(cut);
}

static void test_msgid_and_severity(void **state)
{
	static const struct { const char *line, *id; unsigned sev; } c[] = {
		{ "ok 12 - kat: software sha1", "result", 6 },
		{ "not ok 13 - kat: aesni aes-128-ecb encrypt", "result", 3 },
		{ "# cryptoqual: PASS (98 ok, 0 not ok, 24 skipped)", "verdict", 5 },
		{ "# cryptoqual: FAIL (1 ok, 1 not ok, 0 skipped)", "verdict", 3 },
		{ "1..122", "plan", 6 },
		{ "Bail out! #GP outside any test", "bailout", 2 },
		{ "# summary: engine probe", "summary", 6 },
		{ "TAP version 13", "tap", 6 },
		{ "# warning: console: ttyS3 did not answer", "diag", 4 },
		{ "# pci: 00:00.0 8086:1237", "diag", 6 },
		{ "", "diag", 6 },
		{ "# @", "diag", 6 },
		{ "# @stage name=boot", "stage", 6 },
		{ "# @a=b", "a", 6 },
		{ "# @0123456789012345678901234567890123456789 x", "01234567890123456789012345678901", 6 },
	};
	char id[SYSLOG_MSGID_MAX + 1];
	unsigned i;
	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		syslog_msgid(c[i].line, strlen(c[i].line), id);
		assert_string_equal(id, c[i].id);
		assert_int_equal(syslog_severity(c[i].line, strlen(c[i].line)), c[i].sev);
	}
}

/* An empty line: no MSG, no blank after the structured data. */
static void test_empty_line(void **state)
{
	char out[256];
	bool cut;
	size_t n = fmt_line(out, sizeof(out), 1, "", &cut);
	static const char want[] = "<134>1 - CQ-TEST-42 cryptoqual - diag [meta sequenceId=\"1\"]";
	(void)state;
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(out, want, n);
}

static void test_cut(void **state)
{
	char out[80], line[200];
	bool cut = false;
	size_t n;
	(void)state;
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	n = fmt_line(out, sizeof(out), 2147483647ul, line, &cut);
	assert_int_equal(n, sizeof(out));
	assert_true(cut);
	{
		static const char head[] = "<134>1 - CQ-TEST-42 cryptoqual - diag [meta sequenceId=\"2147483647\"] x";
		assert_memory_equal(out, head, sizeof(head) - 1);
		assert_int_equal(out[sizeof(out) - 1], 'x');
	}
	/* Too small for the header: nothing. */
	assert_int_equal(fmt_line(out, 20, 1, "ok 1 - a", &cut), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_message),
		cmocka_unit_test(test_msgid_and_severity),
		cmocka_unit_test(test_empty_line),
		cmocka_unit_test(test_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
