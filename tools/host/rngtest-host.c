/*
 * rngtest-host: the kernel's RNG statistics (lib/rng/rng_quality.h) on bytes
 * read from stdin, printed in the terms of rng-tools' `rngtest` and
 * Walker's `ent`, so the same bytes can be checked against both
 * (tests/lib/rng/rngtest-compare.t).
 *
 * usage: rngtest-host [--claim H] [--bits] [--strict] < DATA
 *        rngtest-host --gen KIND --bytes N [--seed S] > DATA
 *
 * Analysis prints, on stdout:
 *   rngtest: ...      the counter lines rngtest prints, same words, same counts
 *   sp800-90b: ...    health tests and MCV / Markov estimates (claim H bits
 *                     per byte, default 8, alpha 2^-20)
 *   ent: ...          ent's figures, worded as ent words them (--bits: as
 *                     `ent -b`); ent-terse: ... the two lines of `ent -t`
 *   repeat: ..., linear-complexity: ...
 *   verdict: TEST: pass|fail|skip (reason), then verdict: pass|fail
 * --strict counts the FIPS blocks as FIPS 140-2 describes the tests instead
 * of as rngtest does (the two differ only on rare blocks, see rngtest.h).
 * Exit status 0 (whatever the verdicts), 2 on bad usage or a read error.
 *
 * --gen writes N test bytes: prng (splitmix64 from --seed), biased55
 * (independent bits, P(1) = 0.55, from --seed), fips-edge (blocks on which
 * rngtest's counting differs from FIPS 140-2's description, see rngtest.h:
 * only matching rngtest's quirks gives rngtest's counts), or the name of a
 * self-check source (bad-zero, bad-pattern32, bad-biased55, bad-lfsr16,
 * bad-repeat2k).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rng/ent.h"
#include "lib/rng/rng_bad.h"
#include "lib/rng/rng_quality.h"
#include "lib/rng/rng_verdict.h"
#include "lib/util/splitmix64.h"

#define EXIT_USAGE	2
#define CHUNK		65536
#define EDGE_TRIES	200000	/* candidate blocks for one fips-edge block */

static const char *progname = "rngtest-host";

static void usage(void)
{
	fprintf(stderr, "usage: %s [--claim BITS_PER_BYTE] [--bits] [--strict] < DATA\n"
		"       %s --gen prng|biased55|fips-edge|bad-NAME --bytes N [--seed S] > DATA\n",
		progname, progname);
	exit(EXIT_USAGE);
}

/* "7.5" -> 7500000 micro-bits; 0 on a malformed number. */
static uint32_t parse_micro(const char *s)
{
	uint64_t whole = 0, frac = 0, scale = 1000000;

	if (!*s)
		return 0;
	while (*s >= '0' && *s <= '9')
		whole = whole * 10 + (uint64_t)(*s++ - '0');
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			scale /= 10;
			frac += (uint64_t)(*s++ - '0') * scale;
		}
	}
	if (*s || whole > 8)
		return 0;
	return (uint32_t)(whole * 1000000 + frac);
}

/* ---- generators ---- */

static void fill_prng(uint64_t *s, uint8_t *buf, size_t len)
{
	size_t i;
	uint64_t v = 0;

	for (i = 0; i < len; i++) {
		if (i % 8 == 0)
			v = splitmix64_next(s);
		buf[i] = (uint8_t)(v >> (8 * (i % 8)));
	}
}

/* Independent bits with P(1) = p1 / 2^32. */
static void fill_biased(uint64_t *s, uint32_t p1, uint8_t *buf, size_t len)
{
	size_t i;
	int j;

	for (i = 0; i < len; i++) {
		uint8_t v = 0;

		for (j = 0; j < 8; j++)
			v = (uint8_t)(v << 1 | ((uint32_t)(splitmix64_next(s) >> 32) < p1));
		buf[i] = v;
	}
}

static void emit(const uint8_t *buf, size_t len)
{
	if (fwrite(buf, 1, len, stdout) != len) {
		fprintf(stderr, "%s: write error: %s\n", progname, strerror(errno));
		exit(EXIT_USAGE);
	}
}

static unsigned poker_sum(const uint32_t *count)
{
	unsigned i, s = 0;

	for (i = 0; i < 16; i++)
		s += count[i] * count[i];
	return s;
}

/*
 * A block whose first bit is 0 (the previous block ended in 1): rngtest
 * adds one to nibble 15's count. Nibbles are moved between values other
 * than 15 until the plain sum of squares is in (HI - 2 c15 - 1, HI]: the
 * block passes poker as FIPS 140-2 counts it and fails as rngtest does.
 */
static void poker_edge_block(uint64_t *s, uint8_t *blk)
{
	uint32_t count[16] = { 0 };
	unsigned i, guard;

	fill_prng(s, blk, FIPS_BLOCK_BYTES);
	blk[0] &= 0x7f;
	for (i = 0; i < FIPS_BLOCK_BYTES; i++) {
		count[blk[i] >> 4]++;
		count[blk[i] & 15]++;
	}
	for (guard = 0; guard < 1000000; guard++) {
		unsigned sum = poker_sum(count), lo = FIPS_POKER_HI - 2 * count[15] - 1;
		uint64_t r = splitmix64_next(s);
		unsigned pos = 1 + (unsigned)(r % (2 * FIPS_BLOCK_BYTES - 1));   /* not byte 0's MSB nibble */
		unsigned to = (unsigned)((r >> 32) % 15), shift = pos % 2 ? 0 : 4;
		unsigned from = (blk[pos / 2] >> shift) & 15;

		if (sum > lo && sum <= FIPS_POKER_HI)
			return;
		if (from == 15 || to == from)
			continue;
		/* raise the sum when below the window, lower it when above */
		if ((sum <= lo) != (count[to] >= count[from]))
			continue;
		count[from]--;
		count[to]++;
		blk[pos / 2] = (uint8_t)((blk[pos / 2] & ~(15u << shift)) | to << shift);
	}
}

/*
 * fips-edge: 4 seed bytes, then blocks in turns of plain / runs-edge /
 * plain (ending in a 1 bit) / poker-edge. Edge blocks are kept only when
 * rngtest's counting and the strict one disagree on them.
 */
static void gen_fips_edge(uint64_t seed, uint64_t bytes)
{
	uint8_t blk[FIPS_BLOCK_BYTES];
	struct fips_carry compat = { 0, 0, false }, strict = { 0, 0, true };
	uint64_t done = 0, n;
	unsigned turn = 0;

	fill_prng(&seed, blk, FIPS_SEED_BYTES);
	compat.last32 = strict.last32 = (uint32_t)blk[0] | (uint32_t)blk[1] << 8 |
					(uint32_t)blk[2] << 16 | (uint32_t)blk[3] << 24;
	emit(blk, FIPS_SEED_BYTES);
	done = FIPS_SEED_BYTES;
	while (done < bytes) {
		struct fips_carry c = compat, t = strict;
		unsigned tries;

		for (tries = 0; tries < EDGE_TRIES; tries++) {
			c = compat;
			t = strict;
			switch (turn % 4) {
			case 1:   /* runs edge: bits with P(1) = 0.525 */
				fill_biased(&seed, 2254857830u, blk, FIPS_BLOCK_BYTES);
				break;
			case 3:
				poker_edge_block(&seed, blk);
				break;
			default:
				fill_prng(&seed, blk, FIPS_BLOCK_BYTES);
				if (turn % 4 == 2)
					blk[FIPS_BLOCK_BYTES - 1] |= 1;
				break;
			}
			if (fips_block(blk, &c, 0) != fips_block(blk, &t, 0) || turn % 2 == 0)
				break;
		}
		compat = c;
		strict = t;
		n = bytes - done < FIPS_BLOCK_BYTES ? bytes - done : FIPS_BLOCK_BYTES;
		emit(blk, (size_t)n);
		done += n;
		turn++;
	}
}

static int generate(const char *kind, uint64_t bytes, uint64_t seed)
{
	static uint8_t buf[CHUNK];
	const struct rng_source *src = 0;
	uint64_t done = 0;
	unsigned i;

	if (strcmp(kind, "fips-edge") == 0) {
		gen_fips_edge(seed, bytes);
		return 0;
	}
	rng_bad_reset();
	for (i = 0; i < RNG_BAD_COUNT; i++)
		if (strcmp(kind, rng_bad(i)->src->name) == 0)
			src = rng_bad(i)->src;
	if (!src && strcmp(kind, "prng") != 0 && strcmp(kind, "biased55") != 0) {
		fprintf(stderr, "%s: unknown generator '%s'\n", progname, kind);
		return EXIT_USAGE;
	}
	while (done < bytes) {
		size_t n = bytes - done < CHUNK ? (size_t)(bytes - done) : CHUNK, got = n;

		if (src)
			src->read(src, buf, n, &got);
		else if (kind[0] == 'p')
			fill_prng(&seed, buf, n);
		else
			fill_biased(&seed, 2362232013u, buf, n);   /* ceil(0.55 * 2^32) */
		emit(buf, got);
		done += got;
	}
	return 0;
}

/* ---- analysis ---- */

static void print_rngtest(const struct rngq_result *r)
{
	unsigned t;

	printf("rngtest: bits received from input: %llu\n", (unsigned long long)r->bytes * 8);
	printf("rngtest: FIPS 140-2 successes: %llu\n", (unsigned long long)r->fips_successes);
	printf("rngtest: FIPS 140-2 failures: %llu\n",
	       (unsigned long long)(r->fips_blocks - r->fips_successes));
	for (t = 0; t < FIPS_TESTS; t++)
		printf("rngtest: FIPS 140-2(2001-10-10) %s: %llu\n", fips_test_name(t),
		       (unsigned long long)r->fips_fail[t]);
}

static void micro(char *buf, size_t n, uint64_t v)
{
	snprintf(buf, n, "%llu.%06llu", (unsigned long long)(v / 1000000),
		 (unsigned long long)(v % 1000000));
}

static void print_90b(const struct rngq_result *r)
{
	char claim[24], mcv[24], mk[24], mk8[24], pu[32];

	micro(claim, sizeof(claim), r->claim_h_micro);
	micro(mcv, sizeof(mcv), r->mcv.h_micro);
	micro(mk, sizeof(mk), r->markov_micro);
	micro(mk8, sizeof(mk8), (uint64_t)r->markov_micro * 8);
	/* p_u = frac / 2^64, shown to 9 places */
	snprintf(pu, sizeof(pu), "0.%09llu", (unsigned long long)
		 fx128_divmod(fx128_mul(r->mcv.p_u_frac, 1000000000ull),
			      fx128_shl(fx128_from(1), 64), 0).lo);
	printf("sp800-90b: %llu 8-bit samples, claimed min-entropy %s bits per sample, alpha 2^-%u\n",
	       (unsigned long long)r->bytes, claim, SP90B_ALPHA_LOG2);
	printf("sp800-90b: repetition count test: cutoff %u, alarms %llu, longest run %llu\n",
	       r->rct_cutoff, (unsigned long long)r->rct_alarms, (unsigned long long)r->rct_longest);
	printf("sp800-90b: adaptive proportion test: window %u, cutoff %u, alarms %llu of %llu windows, "
	       "largest count %u\n", r->apt_window, r->apt_cutoff, (unsigned long long)r->apt_alarms,
	       (unsigned long long)r->apt_windows, r->apt_max);
	printf("sp800-90b: most common value estimate: %s bits per byte (byte 0x%02x seen %llu times, "
	       "p_u %s)\n", mcv, r->mcv.mode, (unsigned long long)r->mcv.mode_count,
	       r->mcv.p_u_frac == ~(uint64_t)0 ? "1" : pu);
	printf("sp800-90b: Markov estimate: %s bits per bit, %s bits per byte\n", mk, mk8);
}

static void print_ent(const struct ent_result *e)
{
	const char *unit = e->bits ? "bit" : "byte";
	char h[40], comp[40], chi[64], mean[40], pi[40], err[40], scc[40];

	ent_fmt(e, ENT_ENTROPY, 6, h, sizeof(h));
	ent_fmt(e, ENT_COMPRESSION, 0, comp, sizeof(comp));
	ent_fmt(e, ENT_CHISQ, 2, chi, sizeof(chi));
	ent_fmt(e, ENT_MEAN, 4, mean, sizeof(mean));
	ent_fmt(e, ENT_PI, 9, pi, sizeof(pi));
	ent_fmt(e, ENT_PI_ERROR, 2, err, sizeof(err));
	ent_fmt(e, ENT_SCC, 6, scc, sizeof(scc));
	printf("ent: Entropy = %s bits per %s.\n", h, unit);
	printf("ent: Optimum compression would reduce the size of this %llu %s file by %s percent.\n",
	       (unsigned long long)e->n, unit, comp);
	printf("ent: Chi square distribution for %llu samples is %s.\n", (unsigned long long)e->n, chi);
	printf("ent: Arithmetic mean value of data %ss is %s (%s = random).\n", unit, mean,
	       e->bits ? "0.5" : "127.5");
	printf("ent: Monte Carlo value for Pi is %s (error %s percent).\n", pi, err);
	if (e->scc_defined)
		printf("ent: Serial correlation coefficient is %s (totally uncorrelated = 0.0).\n", scc);
	else
		printf("ent: Serial correlation coefficient is undefined (all values equal!).\n");

	ent_fmt(e, ENT_CHISQ, 6, chi, sizeof(chi));
	ent_fmt(e, ENT_MEAN, 6, mean, sizeof(mean));
	ent_fmt(e, ENT_PI, 6, pi, sizeof(pi));
	printf("ent-terse: 0,File-%ss,Entropy,Chi-square,Mean,Monte-Carlo-Pi,Serial-Correlation\n",
	       unit);
	printf("ent-terse: 1,%llu,%s,%s,%s,%s,%s\n", (unsigned long long)e->n, h, chi, mean, pi, scc);
}

static int analyse(uint32_t claim, bool bits, bool strict)
{
	static struct rngq q;
	static struct ent_ctx eb;
	static uint8_t buf[CHUNK];
	struct rngq_result r;
	struct rngq_verdict v[RNGQ_TESTS];
	static const char *const status[] = { "pass", "fail", "skip" };
	unsigned failed, t;
	size_t n;

	rngq_init(&q, claim);
	q.fips.carry.strict = strict;
	ent_init(&eb, true);
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
		rngq_feed(&q, buf, n);
		if (bits)
			ent_feed(&eb, buf, n);
	}
	if (ferror(stdin)) {
		fprintf(stderr, "%s: read error: %s\n", progname, strerror(errno));
		return EXIT_USAGE;
	}
	rngq_result(&q, &r);
	failed = rngq_verdicts(&r, v);

	print_rngtest(&r);
	print_90b(&r);
	if (bits) {
		struct ent_result e;

		ent_finish(&eb, &e);
		print_ent(&e);
	} else {
		print_ent(&r.ent);
	}
	printf("repeat: %llu repeated %u-byte windows", (unsigned long long)r.repeat_hits,
	       RNG_REPEAT_WINDOW);
	if (r.repeat_hits)
		printf(", first at byte %llu, %llu bytes after its copy",
		       (unsigned long long)r.repeat_first, (unsigned long long)r.repeat_dist);
	printf("\nlinear-complexity: %llu of %llu tested %u-bit segments below %u, lowest %u\n",
	       (unsigned long long)r.lc_failed, (unsigned long long)r.lc_tested, RNG_LC_BITS,
	       RNG_LC_BITS / 2 - RNG_LC_MARGIN, r.lc_min);
	for (t = 0; t < RNGQ_TESTS; t++)
		printf("verdict: %s: %s (%s)\n", rngq_test_name(t), status[v[t].status], v[t].reason);
	printf("verdict: %s\n", failed ? "fail" : "pass");
	return 0;
}

int main(int argc, char **argv)
{
	const char *gen = 0;
	uint64_t bytes = 0, seed = 1;
	uint32_t claim = RNGQ_CLAIM_FULL;
	bool bits = false, strict = false, have_bytes = false;
	int i;

	for (i = 1; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "--bits") == 0 || strcmp(argv[i], "-b") == 0) {
			bits = true;
		} else if (strcmp(argv[i], "--strict") == 0) {
			strict = true;
		} else if (strcmp(argv[i], "--claim") == 0 && i + 1 < argc) {
			claim = parse_micro(argv[++i]);
			if (claim == 0 || claim > RNGQ_CLAIM_FULL)
				usage();
		} else if (strcmp(argv[i], "--gen") == 0 && i + 1 < argc) {
			gen = argv[++i];
		} else if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) {
			bytes = strtoull(argv[++i], &end, 0);
			if (*end)
				usage();
			have_bytes = true;
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = strtoull(argv[++i], &end, 0);
			if (*end)
				usage();
		} else {
			usage();
		}
	}
	if (gen) {
		if (!have_bytes)
			usage();
		return generate(gen, bytes, seed);
	}
	return analyse(claim, bits, strict);
}
