/*
 * cpuid-decode: decode an InstLatx64-format CPUID dump with the kernel's
 * decoder (lib/cpuid.c) and print the result.
 *
 * usage: cpuid-decode --kv DUMP
 * Prints one KEY=VALUE line per field of cpuid_kv(), for the first logical
 * CPU in the dump. Exit status: 0 ok, 2 bad usage or unreadable/malformed
 * dump (with a message on stderr).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid.h"
#include "cpuid_dump.h"

#define DUMP_MAX_BYTES	(1024 * 1024)	/* real dumps are 1-50 KB */
#define EXIT_USAGE	2

static const char *progname = "cpuid-decode";

static void usage(void)
{
	fprintf(stderr, "usage: %s --kv DUMP\n", progname);
	exit(EXIT_USAGE);
}

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
	unsigned line;
	size_t len;
	char *text;
	int err;

	if (argc != 3 || strcmp(argv[1], "--kv") != 0)
		usage();
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
	cpuid_decode(&ci, cpuid_dump_query, &dump);
	cpuid_kv(&ci, print_kv, NULL);
	return fflush(stdout) == 0 ? 0 : 1;
}
