/*
 * libFuzzer target for lib/platform/cmdline.c: arbitrary bytes, NUL-terminated, as a
 * kernel command line. Checks that every warning is one bounded line of
 * printable ASCII, that the warning count agrees, that every option lands in
 * its documented range, and that cmdline_describe() fits its buffer.
 *
 * Build: make fuzz (mk/fuzz.mk); longer runs: make fuzz-long. By hand
 * (Debian clang 14 ships libclang_rt.fuzzer):
 *   mkdir -p build/host /tmp/cmdline_corpus
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. lib/platform/cmdline.c \
 *       lib/util/fmt.c tests/fuzz/fuzz_cmdline.c -o build/host/fuzz_cmdline
 *   UBSAN_OPTIONS=halt_on_error=1 build/host/fuzz_cmdline -max_total_time=60 \
 *       -dict=tests/fuzz/cmdline.dict /tmp/cmdline_corpus tests/fuzz/corpus_cmdline
 * New inputs go to the first directory, keeping the seed corpus small.
 * halt_on_error makes an undefined-behaviour report a failure, not a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/platform/cmdline.h"

static unsigned calls;

static void check(int ok)
{
	if (!ok)
		abort();
}

static void check_printable(const char *s, size_t max)
{
	size_t i, len = strlen(s);

	check(len <= max);
	for (i = 0; i < len; i++)
		check(s[i] >= 0x20 && s[i] < 0x7f);
}

/* 0..max characters of a-z 0-9 '-', NUL-terminated in its array. */
static void check_name(const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		check(i < max);
		check((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '-');
	}
}

static void on_warning(void *ctx, const char *msg)
{
	(void)ctx;
	calls++;
	check_printable(msg, CMDLINE_WARN_MAX - 1);
	check(strncmp(msg, "cmdline: ", 9) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cq_options opt;
	char summary[CMDLINE_DESCRIBE_MAX];
	char *line = malloc(size + 1);
	int n;

	if (line == NULL)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	calls = 0;
	n = cmdline_parse(line, &opt, on_warning, NULL);
	check(n >= 0 && (unsigned)n == calls && opt.warnings == calls);

	check(opt.console_port >= -1 && opt.console_port <= 3);
	check(opt.console_baud == 0 || opt.console_baud == 9600 ||
	      opt.console_baud == 19200 || opt.console_baud == 38400 ||
	      opt.console_baud == 57600 || opt.console_baud == 115200);
	check(opt.console_port >= 0 || opt.console_baud == 0);
	check(opt.on_finish == CQ_FINISH_HALT || opt.on_finish == CQ_FINISH_REBOOT);
	check(opt.bench == CQ_BENCH_QUICK || opt.bench == CQ_BENCH_FULL ||
	      opt.bench == CQ_BENCH_OFF);
	check(opt.bench_ms <= 60000);
	check(opt.rng_bytes == 0 ||
	      (opt.rng_bytes >= 2500 && opt.rng_bytes <= 16u << 20));
	check(opt.has_seed || opt.seed == 0);
	check_name(opt.emulate, CQ_EMULATE_MAX);
	check_name(opt.fault, CQ_FAULT_MAX);
	check(opt.emulate[0] != '\0' || opt.fault[0] == '\0');
	check_printable(opt.only, CQ_ONLY_MAX);
	check(strchr(opt.only, ' ') == NULL);
	check_printable(opt.loader_image, CQ_LOADER_IMAGE_MAX);

	cmdline_describe(&opt, summary, sizeof(summary));
	check_printable(summary, CMDLINE_DESCRIBE_MAX - 2);

	free(line);
	return 0;
}
