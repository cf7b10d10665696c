/*
 * cpuid-decode: decode an InstLatx64-format CPUID dump with the kernel's
 * decoder (lib/platform/cpuid.c) and print the result.
 *
 * usage: cpuid-decode --kv DUMP
 *        cpuid-decode --help     (the usage on stdout, exit 0)
 * Prints one KEY=VALUE line per field of cpuid_kv(), for the first logical
 * CPU in the dump. Exit status: 0 ok, 2 bad usage or an unreadable,
 * malformed or unusable dump (with a message on stderr). A dump without
 * leaf 0 (vendor, highest leaf) or leaf 1 (family, model, stepping,
 * feature flags) is unusable: decoding it would print zeros as if a CPU
 * had them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/platform/cpuid.h"
#include "lib/host/cpuid_dump.h"

#define DUMP_MAX_BYTES	(1024 * 1024)	/* real dumps are 1-50 KB */
#define EXIT_USAGE	2

static const char *progname = "cpuid-decode";

static void usage(FILE *to, int status)
{
	fprintf(to, "usage: %s --kv DUMP\n"
		"  DUMP: an InstLatx64-format CPUID dump; prints KEY=VALUE lines\n", progname);
	exit(status);
}

/* The leaves without which nothing decoded means anything (Intel SDM vol. 2A, CPUID). */
static const uint32_t needed_leaves[] = { 0, 1 };

/* Reads the whole file into a malloc'd buffer; exits on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
		exit(EXIT_USAGE);
	}
	buf = malloc(DUMP_MAX_BYTES + 1);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", progname);
		exit(EXIT_USAGE);
	}
	n = fread(buf, 1, DUMP_MAX_BYTES + 1, f);
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: read error: %s\n", progname, path,
			strerror(errno));
		exit(EXIT_USAGE);
	}
	fclose(f);
	if (n > DUMP_MAX_BYTES) {
		fprintf(stderr, "%s: %s: larger than %d bytes\n", progname,
			path, DUMP_MAX_BYTES);
		exit(EXIT_USAGE);
	}
	*len = n;
	return buf;
}

static void print_kv(void *ctx, const char *key, const char *value)
{
	(void)ctx;
	printf("%s=%s\n", key, value);
}

int main(int argc, char **argv)
{
	static struct cpuid_dump dump;
	struct cpu_info ci;
	struct cpuid_regs r;
	unsigned line;
	size_t i;
	size_t len;
	char *text;
	int err;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		usage(stdout, 0);
	if (argc != 3 || strcmp(argv[1], "--kv") != 0)
		usage(stderr, EXIT_USAGE);
	text = read_file(argv[2], &len);
	err = cpuid_dump_parse(&dump, text, len, &line);
	if (err) {
		if (line)
			fprintf(stderr, "%s: %s:%u: %s\n", progname, argv[2],
				line, cpuid_dump_strerror(err));
		else
			fprintf(stderr, "%s: %s: %s\n", progname, argv[2],
				cpuid_dump_strerror(err));
		return EXIT_USAGE;
	}
	free(text);
	for (i = 0; i < sizeof(needed_leaves) / sizeof(needed_leaves[0]); i++) {
		if (!cpuid_dump_query(&dump, needed_leaves[i], 0, &r)) {
			fprintf(stderr, "%s: %s: no CPUID leaf %u: not a usable dump\n",
				progname, argv[2], (unsigned)needed_leaves[i]);
			return EXIT_USAGE;
		}
	}
	cpuid_decode(&ci, cpuid_dump_query, &dump);
	cpuid_kv(&ci, print_kv, NULL);
	return fflush(stdout) == 0 ? 0 : 1;
}
