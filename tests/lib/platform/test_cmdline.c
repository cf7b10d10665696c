/* Unit tests for lib/platform/cmdline.c: every option, loader prefixes, limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/platform/cmdline.h"

#define NKEEP	8	/* warnings kept for inspection */

struct warnings {
	int n;
	char msg[NKEEP][CMDLINE_WARN_MAX];
};

static struct warnings w;
static struct cq_options o;

/* Checks the callback contract on every warning, keeps the first NKEEP. */
static void collect(void *ctx, const char *msg)
{
	struct warnings *ws = ctx;
	size_t i, len = strlen(msg);

	assert_true(len < CMDLINE_WARN_MAX);
	assert_int_equal(strncmp(msg, "cmdline: ", 9), 0);
	for (i = 0; i < len; i++)
		assert_true(msg[i] >= 0x20 && msg[i] < 0x7f);
	if (ws->n < NKEEP)
		strcpy(ws->msg[ws->n], msg);
	ws->n++;
}

/* Parses line into o, warnings into w; checks the count agrees three ways. */
static int parse(const char *line)
{
	int r;

	memset(&w, 0, sizeof(w));
	memset(&o, 0xa5, sizeof(o));	/* parse must set every field */
	r = cmdline_parse(line, &o, collect, &w);
	assert_int_equal(r, w.n);
	assert_int_equal(o.warnings, (unsigned)w.n);
	return r;
}

static void parse_clean(const char *line)
{
	assert_int_equal(parse(line), 0);
}

static void parse_warns(const char *line, const char *expect)
{
	assert_int_equal(parse(line), 1);
	if (expect != NULL)
		assert_string_equal(w.msg[0], expect);
}

static const char *describe(void)
{
	static char buf[CMDLINE_DESCRIBE_MAX];

	cmdline_describe(&o, buf, sizeof(buf));
	return buf;
}

static void assert_defaults(void)
{
	assert_int_equal(o.console_port, -1);
	assert_int_equal(o.console_baud, 0);
	assert_int_equal(o.on_finish, CQ_FINISH_HALT);
	assert_int_equal(o.bench, CQ_BENCH_QUICK);
	assert_int_equal(o.bench_ms, 0);
	assert_int_equal(o.rng_bytes, 0);
	assert_false(o.has_seed);
	assert_string_equal(o.emulate, "");
	assert_string_equal(o.fault, "");
	assert_string_equal(o.only, "");
	assert_false(o.verbose);
	assert_string_equal(o.loader_image, "");
	assert_string_equal(o.expect, "");
	assert_string_equal(o.asset, "");
	assert_string_equal(o.tag, "");
}

static void test_null_and_empty(void **state)
{
	(void)state;
	parse_clean(NULL);
	assert_defaults();
	assert_string_equal(describe(), "console=default bench=quick bench_ms=default "
			    "rng_bytes=default seed=default on_finish=halt");
	parse_clean("");
	assert_defaults();
	parse_clean(" \t \r\n ");
	assert_defaults();
	memset(&o, 0xa5, sizeof(o));
	cmdline_defaults(&o);
	assert_defaults();
	assert_int_equal(o.warnings, 0);
}

static void test_console(void **state)
{
	static const unsigned bauds[] = { 9600, 19200, 38400, 57600, 115200 };
	char line[64];
	size_t i;

	(void)state;
	parse_clean("console=ttyS0");
	assert_int_equal(o.console_port, 0);
	assert_int_equal(o.console_baud, 0);
	assert_string_equal(describe(), "console=ttyS0 bench=quick bench_ms=default "
			    "rng_bytes=default seed=default on_finish=halt");
	for (i = 0; i < sizeof(bauds) / sizeof(bauds[0]); i++) {
		snprintf(line, sizeof(line), "console=ttyS%zu,%u", i % 4, bauds[i]);
		parse_clean(line);
		assert_int_equal(o.console_port, (int)(i % 4));
		assert_int_equal(o.console_baud, bauds[i]);
	}
	parse_warns("console=ttyS4", "cmdline: value out of range in 'console=ttyS4' ignored "
		    "(expected ttyS0..ttyS3[,9600|19200|38400|57600|115200])");
	parse_warns("console=ttyS0,1234", "cmdline: value out of range in "
		    "'console=ttyS0,1234' ignored "
		    "(expected ttyS0..ttyS3[,9600|19200|38400|57600|115200])");
	parse_warns("console=", "cmdline: missing value in 'console=' ignored "
		    "(expected ttyS0..ttyS3[,9600|19200|38400|57600|115200])");
	parse_warns("console", NULL);
	assert_non_null(strstr(w.msg[0], "missing value"));
	parse_warns("console=ttyS0,", NULL);
	assert_non_null(strstr(w.msg[0], "bad value"));
	parse_warns("console=ttyS0,115200n8", NULL);
	parse_warns("console=ttyS", NULL);
	parse_warns("console=ttyS12", NULL);
	parse_warns("console=com1", NULL);
	parse_warns("console=ttys0", NULL);
	parse_warns("console=ttyS0;9600", NULL);
	assert_int_equal(o.console_port, -1);
	assert_int_equal(o.console_baud, 0);
	/* An invalid later value leaves the earlier one. */
	parse_warns("console=ttyS1,57600 console=ttyS2,300", NULL);
	assert_int_equal(o.console_port, 1);
	assert_int_equal(o.console_baud, 57600);
	assert_string_equal(describe(), "console=ttyS1,57600 bench=quick bench_ms=default "
			    "rng_bytes=default seed=default on_finish=halt");
}

static void test_on_finish_and_bench(void **state)
{
	(void)state;
	parse_clean("on_finish=reboot");
	assert_int_equal(o.on_finish, CQ_FINISH_REBOOT);
	parse_clean("on_finish=reboot on_finish=halt");
	assert_int_equal(o.on_finish, CQ_FINISH_HALT);
	parse_warns("on_finish=poweroff", "cmdline: bad value in 'on_finish=poweroff' ignored "
		    "(expected halt|reboot)");
	assert_int_equal(o.on_finish, CQ_FINISH_HALT);
	parse_warns("on_finish=halt2", NULL);
	parse_warns("on_finish=hal", NULL);

	parse_clean("bench=full");
	assert_int_equal(o.bench, CQ_BENCH_FULL);
	parse_clean("bench=off");
	assert_int_equal(o.bench, CQ_BENCH_OFF);
	parse_clean("bench=off bench=quick");
	assert_int_equal(o.bench, CQ_BENCH_QUICK);
	parse_warns("bench=full bench=Full", NULL);	/* case matters */
	assert_int_equal(o.bench, CQ_BENCH_FULL);
	parse_warns("bench", "cmdline: missing value in 'bench' ignored "
		    "(expected quick|full|off)");
}

static void test_selftest(void **state)
{
	(void)state;
	parse_clean("");
	assert_int_equal(o.selftest, CQ_SELFTEST_NONE);
	parse_clean("selftest=fault-in-test");
	assert_int_equal(o.selftest, CQ_SELFTEST_FAULT_IN_TEST);
	assert_non_null(strstr(describe(), " selftest=fault-in-test"));
	parse_clean("selftest=fault-outside");
	assert_int_equal(o.selftest, CQ_SELFTEST_FAULT_OUTSIDE);
	parse_clean("selftest=vectors");
	assert_int_equal(o.selftest, CQ_SELFTEST_VECTORS);
	parse_clean("selftest=hang");
	assert_int_equal(o.selftest, CQ_SELFTEST_HANG);
	parse_clean("selftest=stack-smash");
	assert_int_equal(o.selftest, CQ_SELFTEST_STACK_SMASH);
	assert_non_null(strstr(describe(), " selftest=stack-smash"));
	parse_clean("selftest=double-fault-outside");
	assert_int_equal(o.selftest, CQ_SELFTEST_DOUBLE_FAULT_OUTSIDE);
	parse_warns("selftest=crash", "cmdline: bad value in 'selftest=crash' ignored "
		    "(expected none|fault-in-test|fault-outside|vectors|hang|stack-smash|double-fault-outside)");
	assert_int_equal(o.selftest, CQ_SELFTEST_NONE);
}

static void test_bench_ms(void **state)
{
	(void)state;
	parse_clean("bench_ms=1");
	assert_int_equal(o.bench_ms, 1);
	parse_clean("bench_ms=60000");
	assert_int_equal(o.bench_ms, 60000);
	parse_clean("bench_ms=0x10");
	assert_int_equal(o.bench_ms, 16);
	parse_clean("bench_ms=250 bench_ms=0");	/* 0 = back to the default */
	assert_int_equal(o.bench_ms, 0);
	parse_warns("bench_ms=60001", "cmdline: value out of range in 'bench_ms=60001' "
		    "ignored (expected 1..60000, 0 = default)");
	parse_warns("bench_ms=99999999999", NULL);
	assert_non_null(strstr(w.msg[0], "out of range"));
	parse_warns("bench_ms=12x", "cmdline: bad value in 'bench_ms=12x' ignored "
		    "(expected 1..60000, 0 = default)");
	parse_warns("bench_ms=-1", NULL);
	parse_warns("bench_ms=+5", NULL);
	parse_warns("bench_ms=0x", NULL);
	parse_warns("bench_ms=5k", NULL);	/* no suffixes here */
	parse_warns("bench_ms=", NULL);
	assert_non_null(strstr(w.msg[0], "missing value"));
	assert_int_equal(o.bench_ms, 0);
	parse_warns("bench_ms=100 bench_ms=junk", NULL);
	assert_int_equal(o.bench_ms, 100);
	assert_non_null(strstr(describe(), " bench_ms=100 "));
}

static void test_rng_bytes(void **state)
{
	static const struct { const char *line; uint32_t value; } ok[] = {
		{ "rng_bytes=2500", 2500 },
		{ "rng_bytes=16777216", 16u << 20 },
		{ "rng_bytes=4k", 4096 },
		{ "rng_bytes=64K", 65536 },
		{ "rng_bytes=1m", 1u << 20 },
		{ "rng_bytes=16M", 16u << 20 },
		{ "rng_bytes=0x1000", 4096 },
		{ "rng_bytes=0", 0 },
	};
	static const char *const bad[] = {
		"rng_bytes=2499", "rng_bytes=16777217", "rng_bytes=17M", "rng_bytes=2k",
		"rng_bytes=4096M", "rng_bytes=4294967296", "rng_bytes=k",
		"rng_bytes=4kk", "rng_bytes=4g", "rng_bytes=1.5M", "rng_bytes=",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		parse_clean(ok[i].line);
		assert_int_equal(o.rng_bytes, ok[i].value);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse_warns(bad[i], NULL);
		assert_int_equal(o.rng_bytes, 0);
	}
	parse_warns("rng_bytes=17M", "cmdline: value out of range in 'rng_bytes=17M' ignored "
		    "(expected 2500..16M, k/M suffix, 0 = default)");
	parse_clean("rng_bytes=1M");
	assert_non_null(strstr(describe(), " rng_bytes=1048576 "));
}

static void test_seed(void **state)
{
	(void)state;
	parse_clean("seed=0");
	assert_true(o.has_seed);
	assert_int_equal(o.seed, 0);
	assert_non_null(strstr(describe(), " seed=0x00000000 "));
	parse_clean("seed=0xdeadBEEF");
	assert_true(o.has_seed);
	assert_int_equal(o.seed, 0xdeadbeef);
	assert_non_null(strstr(describe(), " seed=0xdeadbeef "));
	parse_clean("seed=4294967295");
	assert_int_equal(o.seed, UINT32_MAX);
	parse_clean("seed=0XFFFFFFFF");
	assert_int_equal(o.seed, UINT32_MAX);
	parse_clean("seed=1 seed=2");
	assert_int_equal(o.seed, 2);
	parse_warns("seed=4294967296", "cmdline: value out of range in 'seed=4294967296' "
		    "ignored (expected 0..0xffffffff)");
	assert_false(o.has_seed);
	parse_warns("seed=0x100000000", NULL);
	assert_non_null(strstr(w.msg[0], "out of range"));
	parse_warns("seed=0x1g", NULL);
	assert_non_null(strstr(w.msg[0], "bad value"));
	parse_warns("seed=0x", NULL);
	parse_warns("seed=1k", NULL);
	parse_warns("seed=", NULL);
	assert_false(o.has_seed);
	parse_warns("seed=7 seed=x", NULL);
	assert_true(o.has_seed);
	assert_int_equal(o.seed, 7);
}

static void test_emulate(void **state)
{
	(void)state;
	parse_clean("emulate=net5501");
	assert_string_equal(o.emulate, "net5501");
	assert_string_equal(o.fault, "");
	parse_clean("emulate=net5501,fault=dma-timeout");
	assert_string_equal(o.emulate, "net5501");
	assert_string_equal(o.fault, "dma-timeout");
	assert_non_null(strstr(describe(), " emulate=net5501,fault=dma-timeout"));
	parse_clean("emulate=abcdefghijklmn-,fault=abcdefghijklmnopqrstuvwxyz-0123");
	assert_string_equal(o.emulate, "abcdefghijklmn-");
	assert_string_equal(o.fault, "abcdefghijklmnopqrstuvwxyz-0123");
	/* A later emulate= replaces both strings. */
	parse_clean("emulate=a,fault=b emulate=c");
	assert_string_equal(o.emulate, "c");
	assert_string_equal(o.fault, "");

	parse_warns("emulate=abcdefghijklmnop", NULL);		/* 16 chars */
	parse_warns("emulate=a,fault=abcdefghijklmnopqrstuvwxyz-01234", NULL);
	parse_warns("emulate=Net5501", "cmdline: bad value in 'emulate=Net5501' ignored "
		    "(expected PROFILE[,fault=FAULT] of a-z 0-9 -, max 15/31 chars)");
	parse_warns("emulate=net_5501", NULL);
	parse_warns("emulate=a,foo=b", NULL);
	parse_warns("emulate=a,fault=", NULL);
	parse_warns("emulate=a,", NULL);
	parse_warns("emulate=a,fault", NULL);
	parse_warns("emulate=,fault=x", NULL);
	parse_warns("emulate=a,fault=x,fault=y", NULL);
	parse_warns("emulate=a,fault=X", NULL);
	parse_warns("emulate=", NULL);
	assert_string_equal(o.emulate, "");
	assert_string_equal(o.fault, "");
	parse_warns("emulate=a,fault=b emulate=c,fault=D", NULL);
	assert_string_equal(o.emulate, "a");
	assert_string_equal(o.fault, "b");
}

static void test_only_and_verbose(void **state)
{
	char line[128];

	(void)state;
	parse_clean("only=aes-cbc");
	assert_string_equal(o.only, "aes-cbc");
	memset(line, 0, sizeof(line));
	memcpy(line, "only=", 5);
	memset(line + 5, 'x', 63);
	parse_clean(line);
	assert_int_equal(strlen(o.only), 63);
	line[5 + 63] = 'x';
	parse_warns(line, NULL);
	assert_non_null(strstr(w.msg[0], "out of range"));
	assert_string_equal(o.only, "");
	parse_warns("only=", NULL);
	parse_warns("only=\x01", NULL);

	parse_clean("verbose");
	assert_true(o.verbose);
	parse_warns("verbose=1", "cmdline: unexpected value in 'verbose=1' ignored "
		    "(expected no value)");
	assert_false(o.verbose);
	parse_warns("verbose=", NULL);
	assert_false(o.verbose);
	parse_clean("only=sha verbose");
	assert_non_null(strstr(describe(), "on_finish=halt only=sha verbose"));
}

static void test_loader_prefix(void **state)
{
	(void)state;
	/* GRUB 2: arguments only. */
	parse_clean("bench=full verbose");
	assert_string_equal(o.loader_image, "");
	assert_int_equal(o.bench, CQ_BENCH_FULL);
	/* QEMU -kernel: the path as given, then -append. */
	parse_clean("/path/k.elf bench=off");
	assert_string_equal(o.loader_image, "/path/k.elf");
	assert_int_equal(o.bench, CQ_BENCH_OFF);
	parse_clean("cryptoqual.elf verbose");
	assert_string_equal(o.loader_image, "cryptoqual.elf");
	assert_true(o.verbose);
	parse_clean("cq.bin");
	assert_string_equal(o.loader_image, "cq.bin");
	parse_clean("cq.gz");
	assert_string_equal(o.loader_image, "cq.gz");
	/* iPXE: the URL first. */
	parse_clean("http://10.0.0.1/cq.elf seed=5");
	assert_string_equal(o.loader_image, "http://10.0.0.1/cq.elf");
	assert_int_equal(o.seed, 5);
	parse_clean("tftp://10.0.0.1/boot/cq");
	assert_string_equal(o.loader_image, "tftp://10.0.0.1/boot/cq");
	parse_clean("http://h/cq.elf?ver=2 verbose");	/* '=' after the '/' */
	assert_string_equal(o.loader_image, "http://h/cq.elf?ver=2");
	assert_true(o.verbose);
	parse_clean("  (hd0,msdos1)/boot/cryptoqual.elf  on_finish=reboot ");
	assert_string_equal(o.loader_image, "(hd0,msdos1)/boot/cryptoqual.elf");
	assert_int_equal(o.on_finish, CQ_FINISH_REBOOT);
	/* A long URL is cut and marked. */
	parse_clean("http://10.0.0.1/a/very/long/path/to/the/kernel/image/of/cryptoqual.elf");
	assert_int_equal(strlen(o.loader_image), CQ_LOADER_IMAGE_MAX);
	assert_string_equal(o.loader_image,
			    "http://10.0.0.1/a/very/long/path/to/the/kernel/image/of/cryp...");
	/* Non-printable bytes are not kept raw. */
	parse_clean("/boot/\x01\xff.elf");
	assert_string_equal(o.loader_image, "/boot/??.elf");
	/* Only the first token can be the image. */
	parse_warns("verbose /boot/cq.elf", "cmdline: unknown option '/boot/cq.elf' ignored");
	assert_string_equal(o.loader_image, "");
	/* Not a path: an unknown option. */
	parse_warns("kernel verbose", "cmdline: unknown option 'kernel' ignored");
	assert_string_equal(o.loader_image, "");
	parse_warns("x.elf=1", "cmdline: unknown option 'x.elf=1' ignored");
}

static void test_unknown_and_escaping(void **state)
{
	char line[256];
	const char *q;

	(void)state;
	parse_warns("foo=bar", "cmdline: unknown option 'foo=bar' ignored");
	parse_warns("=", "cmdline: unknown option '=' ignored");
	parse_warns("=5", "cmdline: unknown option '=5' ignored");
	parse_warns("Verbose", "cmdline: unknown option 'Verbose' ignored");
	parse_warns("a\x01z=\x7f\\\xff", "cmdline: unknown option 'a\\x01z=\\x7f\\x5c\\xff' ignored");
	/* Quotes are not special. */
	assert_int_equal(parse("only=\"a b\""), 1);
	assert_string_equal(o.only, "\"a");
	assert_string_equal(w.msg[0], "cmdline: unknown option 'b\"' ignored");
	/* A long token is quoted up to 48 characters, then "...". */
	memset(line, 0, sizeof(line));
	memset(line, 'z', 200);
	parse_warns(line, NULL);
	q = strchr(w.msg[0], '\'');
	assert_non_null(q);
	assert_int_equal(strlen(q), 1 + 48 + 3 + strlen("' ignored"));
	assert_string_equal(q + 1 + 48, "...' ignored");
	/* Escapes are not split: 47 plain bytes leave no room for \x01. */
	memset(line, 0, sizeof(line));
	memset(line, 'z', 47);
	line[47] = 1;
	parse_warns(line, NULL);
	q = strchr(w.msg[0], '\'');
	assert_string_equal(q + 1 + 47, "...' ignored");
	/* 44 + 4 fits exactly. */
	line[44] = 1;
	line[45] = '\0';
	parse_warns(line, NULL);
	q = strchr(w.msg[0], '\'');
	assert_string_equal(q + 1 + 44, "\\x01' ignored");
	/* Many bad tokens: each warns, all are counted. */
	assert_int_equal(parse("a b c d e f g h i j verbose"), 10);
	assert_true(o.verbose);
	assert_string_equal(w.msg[7], "cmdline: unknown option 'h' ignored");
}

static void test_separators_and_duplicates(void **state)
{
	(void)state;
	parse_clean("bench=full\tverbose\r\n");
	assert_int_equal(o.bench, CQ_BENCH_FULL);
	assert_true(o.verbose);
	parse_clean("\v\fseed=3\t\tseed=4 ");
	assert_int_equal(o.seed, 4);
	parse_clean("console=ttyS0,9600 console=ttyS1");
	assert_int_equal(o.console_port, 1);
	assert_int_equal(o.console_baud, 0);
	parse_clean("verbose verbose");
	assert_true(o.verbose);
}

static void test_long_lines(void **state)
{
	static char line[100000];
	size_t len;

	(void)state;
	/* Exactly CMDLINE_MAX bytes: parsed whole. */
	memset(line, ' ', CMDLINE_MAX);
	line[CMDLINE_MAX] = '\0';
	memcpy(line, "bench=full", 10);
	memcpy(line + CMDLINE_MAX - 10, "seed=12345", 10);
	parse_clean(line);
	assert_int_equal(o.seed, 12345);

	/* A blank right at the limit: everything after it dropped. */
	strcat(line, " verbose");
	parse_warns(line, "cmdline: line longer than 1024 bytes, last 8 bytes dropped");
	assert_int_equal(o.bench, CQ_BENCH_FULL);
	assert_int_equal(o.seed, 12345);
	assert_false(o.verbose);

	/* A token across the limit is dropped whole, not cut to "seed=". */
	memset(line, ' ', CMDLINE_MAX + 6);
	line[CMDLINE_MAX + 6] = '\0';
	memcpy(line, "bench=full", 10);
	memcpy(line + CMDLINE_MAX - 4, "seed=12345", 10);
	parse_warns(line, "cmdline: line longer than 1024 bytes, last 11 bytes dropped");
	assert_int_equal(o.bench, CQ_BENCH_FULL);
	assert_false(o.has_seed);

	/* One huge token: all of it dropped, no other warning. */
	len = sizeof(line) - 1;
	memset(line, 'a', len);
	line[len] = '\0';
	parse_warns(line, "cmdline: line longer than 1024 bytes, last 99999 bytes dropped");

	/* The same behind a loader path. */
	memcpy(line, "/boot/cq.elf verbose ", 21);
	parse_warns(line, "cmdline: line longer than 1024 bytes, last 99979 bytes dropped");
	assert_string_equal(o.loader_image, "/boot/cq.elf");
	assert_true(o.verbose);
}

static void test_no_callback(void **state)
{
	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(cmdline_parse("foo bar verbose", &o, NULL, NULL), 2);
	assert_int_equal(o.warnings, 2);
	assert_true(o.verbose);
	/* The count restarts on every parse. */
	assert_int_equal(cmdline_parse("verbose", &o, NULL, NULL), 0);
	assert_int_equal(o.warnings, 0);
}

static void test_describe(void **state)
{
	char small[16];
	char big[CMDLINE_DESCRIBE_MAX + 64];

	(void)state;
	parse_clean("console=ttyS1,57600 bench=full bench_ms=250 rng_bytes=64k seed=42 "
		    "on_finish=reboot emulate=net5501,fault=dma-timeout only=aes verbose");
	assert_string_equal(describe(), "console=ttyS1,57600 bench=full bench_ms=250 "
			    "rng_bytes=65536 seed=0x0000002a on_finish=reboot "
			    "emulate=net5501,fault=dma-timeout only=aes verbose");
	/* Cut to the buffer, always terminated. */
	memset(small, 'Q', sizeof(small));
	cmdline_describe(&o, small, sizeof(small));
	assert_string_equal(small, "console=ttyS1,5");
	small[0] = 'Q';
	cmdline_describe(&o, small, 0);
	assert_int_equal(small[0], 'Q');
	/* The longest possible summary fits CMDLINE_DESCRIBE_MAX. */
	parse_clean("console=ttyS3,115200 bench=quick bench_ms=60000 rng_bytes=16777216 "
		    "seed=0xffffffff on_finish=reboot emulate=abcdefghijklmno,"
		    "fault=abcdefghijklmnopqrstuvwxyz01234 "
		    "only=abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0 "
		    "verbose selftest=fault-outside passes=10000 duration=10080");
	cmdline_describe(&o, big, sizeof(big));
	assert_true(strlen(big) < CMDLINE_DESCRIBE_MAX);
	assert_non_null(strstr(big, " verbose selftest=fault-outside passes=10000 duration=10080"));
}

/* The bounded soak: passes= and duration= with their ranges. */
static void test_soak(void **state)
{
	(void)state;
	parse_clean("passes=3");
	assert_int_equal(o.passes, 3);
	assert_int_equal(o.duration_min, 0);
	parse_clean("duration=90 passes=0");
	assert_int_equal(o.duration_min, 90);
	assert_int_equal(o.passes, 0);
	assert_int_equal(parse("passes=10001"), 1);
	assert_int_equal(o.passes, 0);
	assert_int_equal(parse("duration=10081 passes=-1"), 2);
	assert_int_equal(o.duration_min, 0);
}

/* expect= takes engine names or none; asset= and tag= printable text; all echoed. */
static void test_expect_asset_tag(void **state)
{
	(void)state;
	parse_clean("expect=geode-sb,padlock-ace asset=RACK7-U12 tag=batch#3");
	assert_string_equal(o.expect, "geode-sb,padlock-ace");
	assert_string_equal(o.asset, "RACK7-U12");
	assert_string_equal(o.tag, "batch#3");
	assert_non_null(strstr(describe(), " expect=geode-sb,padlock-ace asset=RACK7-U12 tag=batch#3"));
	parse_clean("expect=none");
	assert_string_equal(o.expect, "none");
	parse_warns("expect=Geode", "cmdline: bad value in 'expect=Geode' ignored "
		    "(expected ENGINE[,ENGINE...] of a-z 0-9 -, or none)");
	assert_string_equal(o.expect, "");
	parse_warns("expect=a,,b", NULL);
	parse_warns("expect=a,", NULL);
	parse_warns("expect=", NULL);
	parse_warns("asset=", NULL);
	parse_warns("asset=0123456789012345678901234567890123456789012345678901234567890123", NULL);
	assert_string_equal(o.asset, "");
	parse_clean("asset=012345678901234567890123456789012345678901234567890123456789012");
	assert_int_equal(strlen(o.asset), 63);
	/* The longest of every option still fits the description buffer. */
	parse_clean("expect=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
		    "asset=012345678901234567890123456789012345678901234567890123456789012 "
		    "tag=012345678901234567890123456789012345678901234567890123456789012 "
		    "only=012345678901234567890123456789012345678901234567890123456789012 "
		    "emulate=aaaaaaaaaaaaaaa,fault=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa console=ttyS3,57600 "
		    "bench_ms=60000 rng_bytes=16M seed=0xffffffff passes=10000 duration=10080 verbose "
		    "selftest=double-fault-outside on_finish=reboot bench=quick net=dhcp "
		    "syslog=255.255.255.254:65535 tftp=255.255.255.254:65535 ip=255.255.255.254 "
		    "netmask=255.255.255.255 gateway=255.255.255.254 next-server=255.255.255.254 "
		    "BOOTIF=01-aa-bb-cc-dd-ee-ff");
	printf("# longest options summary: %zu characters\n", strlen(describe()));
	assert_true(strlen(describe()) < CMDLINE_DESCRIBE_MAX - 1);
	assert_non_null(strstr(describe(), " BOOTIF=01-aa-bb-cc-dd-ee-ff"));
	assert_non_null(strstr(describe(), " tag=012345678901234567890123456789012345678901234567890123456789012"));
}

/* The network options: net=, syslog=, tftp=, ip= in both forms, the iPXE variables, BOOTIF=. */
static void test_net(void **state)
{
	(void)state;
	parse_clean("");
	assert_int_equal(o.net, CQ_NET_AUTO);
	assert_int_equal(o.syslog_ip, 0);
	assert_int_equal(o.ip, 0);
	assert_false(o.has_bootif);
	assert_null(strstr(describe(), "net="));	/* the default line is unchanged */
	parse_clean("net=off");
	assert_int_equal(o.net, CQ_NET_OFF);
	assert_non_null(strstr(describe(), " net=off"));
	parse_clean("net=dhcp");
	assert_int_equal(o.net, CQ_NET_DHCP);
	parse_warns("net=yes", "cmdline: bad value in 'net=yes' ignored (expected auto|off|dhcp)");
	assert_int_equal(o.net, CQ_NET_AUTO);

	parse_clean("syslog=10.0.2.2:5514 tftp=10.0.2.2");
	assert_int_equal(o.syslog_ip, 0x0A000202);
	assert_int_equal(o.syslog_port, 5514);
	assert_int_equal(o.tftp_ip, 0x0A000202);
	assert_int_equal(o.tftp_port, 0);
	assert_non_null(strstr(describe(), " syslog=10.0.2.2:5514 tftp=10.0.2.2"));
	parse_warns("syslog=loghost", "cmdline: bad value in 'syslog=loghost' ignored (expected A.B.C.D[:PORT])");
	parse_warns("syslog=10.0.2.2:0", NULL);
	parse_warns("syslog=10.0.2.2:65536", NULL);
	parse_warns("tftp=10.0.2.2:", NULL);
	parse_warns("tftp=0.0.0.0", NULL);
	assert_int_equal(o.tftp_ip, 0);

	/* PXELINUX IPAPPEND 1. */
	parse_clean("ip=192.168.1.20:192.168.1.1:192.168.1.254:255.255.255.0");
	assert_int_equal(o.ip, 0xC0A80114);
	assert_int_equal(o.next_server, 0xC0A80101);
	assert_int_equal(o.gateway, 0xC0A801FE);
	assert_int_equal(o.netmask, 0xFFFFFF00);
	assert_non_null(strstr(describe(), " ip=192.168.1.20 netmask=255.255.255.0 gateway=192.168.1.254 next-server=192.168.1.1"));
	/* iPXE: ${ip} ${netmask} ${gateway} ${next-server} as options. */
	parse_clean("ip=10.0.2.15 netmask=255.255.255.0 gateway=10.0.2.2 next-server=10.0.2.2");
	assert_int_equal(o.ip, 0x0A00020F);
	assert_int_equal(o.netmask, 0xFFFFFF00);
	assert_int_equal(o.gateway, 0x0A000202);
	assert_int_equal(o.next_server, 0x0A000202);
	parse_warns("ip=10.0.2.15:10.0.2.2", NULL);
	parse_warns("ip=1.2.3.4:1.2.3.5:1.2.3.6:255.0.255.0", NULL);
	parse_warns("ip=0.0.0.0:1.2.3.5:1.2.3.6:255.0.0.0", NULL);
	parse_warns("ip=1.2.3.4:1.2.3.5:1.2.3.6:255.0.0.0:9", NULL);
	parse_warns("ip=dhcp", NULL);	/* the Linux form means nothing here */
	assert_int_equal(o.ip, 0);
	parse_warns("netmask=255.0.255.0", NULL);
	parse_warns("netmask=0.0.0.0", NULL);
	parse_warns("gateway=10.0.2", NULL);
	parse_warns("next-server=", NULL);

	parse_clean("BOOTIF=01-52-54-00-12-34-5A");
	assert_true(o.has_bootif);
	assert_int_equal(o.bootif[0], 0x52);
	assert_int_equal(o.bootif[5], 0x5A);
	assert_non_null(strstr(describe(), " BOOTIF=01-52-54-00-12-34-5a"));
	parse_warns("BOOTIF=52-54-00-12-34-56", NULL);
	parse_warns("BOOTIF=01-52-54-00-12-34-5g", NULL);
	parse_warns("BOOTIF=01:52:54:00:12:34:56", NULL);
	assert_false(o.has_bootif);
	/* An image path with a colon before any '=' is still the loader's. */
	parse_clean("tftp://10.0.2.2/cq.elf ip=10.0.2.15");
	assert_string_equal(o.loader_image, "tftp://10.0.2.2/cq.elf");
}

/* net=auto: on for a network boot only. */
static void test_net_wanted(void **state)
{
	const char *why = NULL;
	(void)state;
	parse_clean("");
	assert_false(cmdline_net_wanted(&o, NULL, &why));
	assert_non_null(strstr(why, "not a network boot"));
	assert_false(cmdline_net_wanted(&o, "GRUB 2.06-13+deb12u1", NULL));
	assert_true(cmdline_net_wanted(&o, "iPXE 1.21.1+ (g7e2d)", &why));
	assert_non_null(strstr(why, "iPXE or PXELINUX"));
	assert_true(cmdline_net_wanted(&o, "PXELINUX 6.04", NULL));
	assert_false(cmdline_net_wanted(&o, "SYSLINUX 6.04", NULL));
	parse_clean("ip=10.0.2.15");
	assert_true(cmdline_net_wanted(&o, "GRUB", &why));
	assert_non_null(strstr(why, "ip="));
	parse_clean("BOOTIF=01-52-54-00-12-34-56");
	assert_true(cmdline_net_wanted(&o, NULL, &why));
	assert_non_null(strstr(why, "BOOTIF="));
	parse_clean("ip=10.0.2.15 net=off");
	assert_false(cmdline_net_wanted(&o, "iPXE", &why));
	assert_string_equal(why, "net=off");
	parse_clean("net=dhcp");
	assert_true(cmdline_net_wanted(&o, "", &why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_empty),
		cmocka_unit_test(test_net),
		cmocka_unit_test(test_net_wanted),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_on_finish_and_bench),
		cmocka_unit_test(test_selftest),
		cmocka_unit_test(test_bench_ms),
		cmocka_unit_test(test_rng_bytes),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_emulate),
		cmocka_unit_test(test_only_and_verbose),
		cmocka_unit_test(test_loader_prefix),
		cmocka_unit_test(test_unknown_and_escaping),
		cmocka_unit_test(test_separators_and_duplicates),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_no_callback),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_soak),
		cmocka_unit_test(test_expect_asset_tag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
