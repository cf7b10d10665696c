/*
 * cavp [--engine NAME] FILE.rsp...: runs NIST CAVP response files through
 * an engine of the registry (default "software") and prints, per file,
 *     FILE: N passed, M failed[, K skipped]
 * followed, when something failed, by the first failure's detail indented
 * by two spaces. The kind of each file (AES KAT/MMT/MCT of a mode and key
 * size, SHA messages or Monte) comes from its NIST name; see lib/host/cavp_rsp.h.
 *
 * `cavp --help` prints the usage line on stdout and exits 0.
 *
 * Exit status: 0 when every record of every file passed; 1 when a record
 * failed; 2 on bad usage or a file that cannot be run: unreadable, a name
 * of no known kind, malformed (the message names the line), no engine of
 * that name for the file's algorithm (the message lists the names there
 * are), or an engine that does not claim the file's (key size, mode,
 * direction). Errors go to stderr as "cavp: FILE: ...".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/host/cavp_rsp.h"
#include "lib/engine/engine.h"
#include "lib/vectors/kat.h"

#define LINE_CAP	(1u << 20)	/* longest line, bytes (SHA-256 LongMsg: ~21 KB) */
#define DATA_CAP	(1u << 19)	/* longest PLAINTEXT/CIPHERTEXT/Msg, bytes */
#define CHUNK		65536		/* bytes read at a time */
#define BUF_ALIGN	64		/* data buffer alignment, bytes */

enum { EXIT_PASS = 0, EXIT_FAILED = 1, EXIT_ERROR = 2 };

struct first_note {
	unsigned n;
	char text[KAT_NOTE_MAX];
};

static void keep_first(void *ctx, const char *line)
{
	struct first_note *f = ctx;
	if (f->n++ == 0)
		snprintf(f->text, sizeof(f->text), "%s", line);
}

/*
 * Hook for engines backed by device models or emulators (Geode LX, PadLock,
 * AES-NI drivers run on the host): a build of this tool that links model
 * glue defines cavp_register_model_engines() to probe its drivers, which
 * register their engines; it is called after the software engines are
 * registered. The plain build defines none (a weak reference stays NULL).
 */
void cavp_register_model_engines(void) __attribute__((weak));

static struct aes_session session __attribute__((aligned(BUF_ALIGN)));

/* The names of the engines that could run a file of kind k, as "a, b", into buf. */
static void engine_names(const struct cavp_kind *k, char *buf, size_t n)
{
	const char *sep = "";
	size_t len = 0;
	unsigned i, count = k->aes ? engine_aes_count() : engine_hash_count();

	buf[0] = '\0';
	for (i = 0; i < count && len < n; i++) {
		const char *name;

		if (k->aes) {
			name = engine_aes(i)->name;
		} else {
			if (engine_hash(i)->alg != k->alg)
				continue;
			name = engine_hash(i)->name;
		}
		len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, name);
		sep = ", ";
	}
	if (buf[0] == '\0')
		snprintf(buf, n, "none");
}

/* Opens path for reading; NULL after an error message (a folder is refused too). */
static FILE *open_file(const char *path)
{
	struct stat st;
	FILE *fp = fopen(path, "rb");

	if (!fp) {
		fprintf(stderr, "cavp: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "cavp: %s: %s\n", path, strerror(EISDIR));
		fclose(fp);
		return NULL;
	}
	return fp;
}

/* Runs one file. Returns an exit status. */
static int run_file(const char *path, const char *engine_name, char *line, uint8_t *a,
		    uint8_t *b, uint8_t *work)
{
	static char chunk[CHUNK];
	struct cavp_kind kind;
	struct cavp_parser p;
	struct cavp_run run;
	struct first_note first = { 0, "" };
	const struct aes_engine *aes = NULL;
	const struct hash_engine *hash = NULL;
	char names[256];
	FILE *fp;
	size_t n;
	int rc = 0;

	fp = open_file(path);
	if (!fp)
		return EXIT_ERROR;
	if (cavp_kind_from_name(path, &kind) != 0) {
		fprintf(stderr, "cavp: %s: not a CAVP file name this tool knows "
			"(e.g. CBCMMT128.rsp, ECBMCT256.rsp, SHA256ShortMsg.rsp, SHA1Monte.rsp)\n",
			path);
		fclose(fp);
		return EXIT_ERROR;
	}
	if (kind.aes)
		aes = engine_aes_find(engine_name);
	else
		hash = engine_hash_find(engine_name, kind.alg);
	if (cavp_run_init(&run, &kind, aes, hash, &session, work, DATA_CAP, keep_first,
			  &first) != 0) {
		engine_names(&kind, names, sizeof(names));
		fprintf(stderr, "cavp: %s: no %s engine named '%s' (engines: %s)\n", path,
			kind.aes ? "AES" : hash_alg_name(kind.alg), engine_name, names);
		fclose(fp);
		return EXIT_ERROR;
	}
	cavp_init(&p, &kind, line, LINE_CAP, a, b, DATA_CAP, cavp_run_record, &run);
	while (rc == 0 && (n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		rc = cavp_feed(&p, chunk, n);
	if (rc == 0 && ferror(fp)) {
		fprintf(stderr, "cavp: %s: read error\n", path);
		fclose(fp);
		return EXIT_ERROR;
	}
	fclose(fp);
	if (rc == 0)
		rc = cavp_finish(&p);
	if (rc != 0) {
		fprintf(stderr, "cavp: %s: %s\n", path, cavp_error(&p));
		return EXIT_ERROR;
	}
	printf("%s: %u passed, %u failed", path, run.passed, run.failed);
	if (run.skipped)
		printf(", %u skipped (longer than the engine's max_len)", run.skipped);
	printf("\n");
	if (first.n)
		printf("  %s\n", first.text);
	return run.failed ? EXIT_FAILED : EXIT_PASS;
}

static void usage(FILE *to)
{
	fprintf(to, "usage: cavp [--engine NAME] FILE.rsp...\n");
}

int main(int argc, char **argv)
{
	const char *engine_name = "software";
	char *line;
	uint8_t *a, *b, *work;
	int i = 1, status = EXIT_PASS, rc;

	if (i < argc && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
		usage(stdout);
		return EXIT_PASS;
	}
	if (i + 1 < argc && strcmp(argv[i], "--engine") == 0) {
		engine_name = argv[i + 1];
		i += 2;
	} else if (i < argc && strncmp(argv[i], "--engine=", 9) == 0) {
		engine_name = argv[i] + 9;
		i++;
	}
	if (i >= argc || argv[i][0] == '-') {
		usage(stderr);
		return EXIT_ERROR;
	}
	engine_register_software();
	if (cavp_register_model_engines)
		cavp_register_model_engines();
	line = malloc(LINE_CAP);
	/* Aligned for any engine's align (64 covers those we know). */
	a = aligned_alloc(BUF_ALIGN, DATA_CAP);
	b = aligned_alloc(BUF_ALIGN, DATA_CAP);
	work = aligned_alloc(BUF_ALIGN, DATA_CAP);
	if (!line || !a || !b || !work) {
		fprintf(stderr, "cavp: out of memory\n");
		return EXIT_ERROR;
	}
	for (; i < argc; i++) {
		rc = run_file(argv[i], engine_name, line, a, b, work);
		if (rc > status)
			status = rc;
	}
	free(line);
	free(a);
	free(b);
	free(work);
	return status;
}
