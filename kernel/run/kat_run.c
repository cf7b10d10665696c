/*
 * kat: the known-answer tests and the cross-check as TAP tests, each under
 * tap_run's fault guard. See kat.h; the work is done by lib/vectors/kat.c and
 * lib/vectors/crosscheck.c.
 */
#include "kernel/run/kat_run.h"

#include <stdbool.h>
#include <string.h>

#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "lib/vectors/kat.h"
#include "kernel/platform/memmap.h"
#include "kernel/run/report.h"

#define BUF_ALIGN	64	/* suits every engine's alignment (PadLock, Geode: 16) */
#define NAME_MAX	160	/* a test name */
#define NOTES_KEPT	8	/* note lines printed per test */
#define REFERENCE	"software"

static struct {
	bool tried;
	bool ok;		/* the AES buffers exist */
	struct kat_buffers b;
	uint8_t *hash_buf;
	size_t hash_cap;
} buf;

/* One test's parameters and the notes it produced. */
struct test_ctx {
	const struct aes_engine *e, *ref;
	const struct hash_engine *h, *href;
	unsigned key_bits;
	enum aes_mode mode;
	enum aes_dir dir;
	uint32_t seed;
	struct kat_result r;
	unsigned nnotes;
	char notes[NOTES_KEPT][KAT_NOTE_MAX];
};

/* Allocates the buffers once: sessions, three 16 KiB data buffers, and a
 * hash buffer of up to 1 MB (smaller when memory is short). */
static void buffers_init(void)
{
	static const size_t hash_sizes[] = { KAT_MILLION_A, XC_MAX_BYTES };
	unsigned i;

	if (buf.tried)
		return;
	buf.tried = true;
	buf.b.session = mem_alloc(sizeof(struct aes_session), BUF_ALIGN);
	buf.b.ref = mem_alloc(sizeof(struct aes_session), BUF_ALIGN);
	buf.b.in = mem_alloc(XC_MAX_BYTES, BUF_ALIGN);
	buf.b.out = mem_alloc(XC_MAX_BYTES, BUF_ALIGN);
	buf.b.ref_out = mem_alloc(XC_MAX_BYTES, BUF_ALIGN);
	buf.b.cap = XC_MAX_BYTES;
	buf.ok = buf.b.session && buf.b.ref && buf.b.in && buf.b.out && buf.b.ref_out;
	for (i = 0; i < sizeof(hash_sizes) / sizeof(hash_sizes[0]) && !buf.hash_buf; i++) {
		buf.hash_buf = mem_alloc(hash_sizes[i], BUF_ALIGN);
		buf.hash_cap = buf.hash_buf ? hash_sizes[i] : 0;
	}
	if (!buf.ok)
		tap_diag("kat: mem_alloc could not give the %u-byte test buffers",
			 3 * XC_MAX_BYTES + 2 * (unsigned)sizeof(struct aes_session));
}

static void keep_note(void *ctx, const char *line)
{
	struct test_ctx *t = ctx;
	if (t->nnotes < NOTES_KEPT)
		fmt_snprintf(t->notes[t->nnotes], KAT_NOTE_MAX, "%s", line);
	t->nnotes++;
}

/* The notes as `#   ` lines, after the test's result line. */
static void print_notes(const struct test_ctx *t)
{
	unsigned i;
	for (i = 0; i < t->nnotes && i < NOTES_KEPT; i++)
		tap_diag("  %s", t->notes[i]);
	if (t->nnotes > NOTES_KEPT)
		tap_diag("  ... and %u more", t->nnotes - NOTES_KEPT);
}

static bool passed(const struct test_ctx *t)
{
	return t->r.run > 0 && t->r.failed == 0;
}

static bool run_aes_kat(void *ctx)
{
	struct test_ctx *t = ctx;
	char src[64];

	kat_aes_run(t->e, t->key_bits, t->mode, t->dir, &buf.b, keep_note, t, &t->r);
	if (!passed(t))		/* the test name leaves the sources out: say them where it matters */
		kat_note(keep_note, t, "vectors: %s",
			 kat_aes_sources(t->key_bits, t->mode, t->dir, src, sizeof(src)));
	return passed(t);
}

static bool run_hash_kat(void *ctx)
{
	struct test_ctx *t = ctx;
	kat_hash_run(t->h, buf.hash_buf, buf.hash_cap, keep_note, t, &t->r);
	return passed(t);
}

static bool run_aes_xc(void *ctx)
{
	struct test_ctx *t = ctx;
	xc_aes_run(t->e, t->ref, t->key_bits, t->mode, t->dir, t->seed, &buf.b, keep_note, t,
		   &t->r);
	return passed(t);
}

static bool run_hash_xc(void *ctx)
{
	struct test_ctx *t = ctx;
	xc_hash_run(t->h, t->href, t->seed, buf.b.in, buf.b.cap, keep_note, t, &t->r);
	return passed(t);
}

/* Runs fn as one TAP test, then prints its notes. */
static void run_test(const char *name, bool (*fn)(void *), struct test_ctx *t)
{
	t->nnotes = 0;
	memset(&t->r, 0, sizeof(t->r));
	tap_run(name, fn, t);
	print_notes(t);
}

static bool is_hardware(const char *name)
{
	return strcmp(name, REFERENCE) != 0;
}

/* "CTR" for the skip reason. */
static const char *mode_upper(enum aes_mode m, char *s, size_t n)
{
	const char *p = aes_mode_name(m);
	size_t i;
	for (i = 0; p[i] && i + 1 < n; i++)
		s[i] = (p[i] >= 'a' && p[i] <= 'z') ? (char)(p[i] - 'a' + 'A') : p[i];
	s[i] = '\0';
	return s;
}

/* What a hardware engine leaves out of the 3 x 5 x 2 grid, mode by mode. */
static void report_unclaimed(const struct aes_engine *e, enum aes_mode m)
{
	char up[16], missing[96];	/* at most 6 x "256 decrypt, " */
	unsigned k, d, claimed = 0;
	size_t len = 0;

	for (k = 0; k < AES_KEYSIZES; k++)
		for (d = 0; d < AES_DIR_COUNT; d++)
			if (aes_engine_supports(e, aes_keysize_bits(k), m, d))
				claimed++;
	if (claimed == 0) {
		char reason[80];
		fmt_snprintf(reason, sizeof(reason), "the %s engine does not implement %s here", e->name,
			     mode_upper(m, up, sizeof(up)));
		tap_skip(reason, "kat: %s aes-%s", e->name, aes_mode_name(m));
		return;
	}
	missing[0] = '\0';
	for (k = 0; k < AES_KEYSIZES; k++)
		for (d = 0; d < AES_DIR_COUNT; d++)
			if (!aes_engine_supports(e, aes_keysize_bits(k), m, d))
				len += fmt_snprintf(missing + len, len < sizeof(missing) ?
						    sizeof(missing) - len : 0, "%s%u %s",
						    len ? ", " : "", aes_keysize_bits(k),
						    aes_dir_name(d));
	if (missing[0])
		tap_diag("kat: %s aes-%s not claimed: %s", e->name, aes_mode_name(m), missing);
}

static void describe_engines(void)
{
	unsigned i;
	for (i = 0; i < engine_aes_count(); i++) {
		const struct aes_engine *e = engine_aes(i);
		tap_diag("engine: aes %s: %s (align %u, max_len %u%s)", e->name, e->description,
			 e->align, (unsigned)e->max_len, engine_emulated(e->name) ? ", emulated" : "");
	}
	for (i = 0; i < engine_hash_count(); i++) {
		const struct hash_engine *h = engine_hash(i);
		tap_diag("engine: %s %s: %s (max_len %u%s)", hash_alg_name(h->alg), h->name,
			 h->description, (unsigned)h->max_len, engine_emulated(h->name) ? ", emulated" : "");
	}
}

/*
 * One test per key size x mode x direction that e claims: its KAT (kat)
 * or its cross-check against ref with the given seed (!kat). The KATs go
 * mode by mode, each mode after the line on what e leaves out of it; the
 * cross-checks go key size by key size.
 */
static void claimed_triples(const struct aes_engine *e, const struct aes_engine *ref,
			    uint32_t seed, bool kat, struct test_ctx *t)
{
	char name[NAME_MAX];
	unsigned outer, inner, k, m, d;
	bool no_ref = !kat && !ref;

	report_subject(e->name, kat ? RSUM_KAT : RSUM_XCHECK);
	for (outer = 0; outer < (kat ? AES_MODE_COUNT : AES_KEYSIZES); outer++) {
		if (kat && is_hardware(e->name))
			report_unclaimed(e, outer);
		for (inner = 0; inner < (kat ? AES_KEYSIZES : AES_MODE_COUNT); inner++) {
			k = kat ? inner : outer;
			m = kat ? outer : inner;
			for (d = 0; d < AES_DIR_COUNT; d++) {
				unsigned bits = aes_keysize_bits(k);
				if (!aes_engine_supports(e, bits, m, d))
					continue;
				if (kat)
					fmt_snprintf(name, sizeof(name), "kat: %s aes-%u-%s %s", e->name,
						     bits, aes_mode_name(m), aes_dir_name(d));
				else
					fmt_snprintf(name, sizeof(name), "crosscheck: %s aes-%u-%s %s vs %s",
						     e->name, bits, aes_mode_name(m), aes_dir_name(d),
						     REFERENCE);
				if (no_ref || !buf.ok) {
					tap_result(false, "%s # %s", name, no_ref ?
						   "no software reference engine" : "no buffer memory");
					continue;
				}
				memset(t, 0, sizeof(*t));
				t->e = e;
				t->ref = ref;
				t->key_bits = bits;
				t->mode = m;
				t->dir = d;
				t->seed = seed;
				run_test(name, kat ? run_aes_kat : run_aes_xc, t);
			}
		}
	}
	report_subject(NULL, RSUM_PROBE);
}

void kat_run_all(void)
{
	static struct test_ctx t;
	char name[NAME_MAX], src[64];
	unsigned i;

	buffers_init();
	describe_engines();
	tap_diag("kat: AES vectors: FIPS-197 C.1-C.3 (AES-128, -192, -256) in each mode of SP 800-38A F.1-F.5 (ECB, CBC, CFB128, OFB, CTR); a failure names its vector");
	for (i = 0; i < engine_aes_count(); i++)
		claimed_triples(engine_aes(i), NULL, 0, true, &t);
	for (i = 0; i < engine_hash_count(); i++) {
		const struct hash_engine *h = engine_hash(i);
		fmt_snprintf(name, sizeof(name), "kat: %s %s (%s)", h->name, hash_alg_name(h->alg),
			     kat_hash_sources(h->alg, src, sizeof(src)));
		report_subject(h->name, RSUM_KAT);
		if (!buf.hash_buf)
			tap_result(false, "%s # no buffer memory", name);
		else {
			memset(&t, 0, sizeof(t));
			t.h = h;
			run_test(name, run_hash_kat, &t);
		}
		report_subject(NULL, RSUM_PROBE);
	}
}

void crosscheck_run_all(uint32_t seed)
{
	static struct test_ctx t;
	const struct aes_engine *ref = engine_aes_find(REFERENCE);
	char name[NAME_MAX];
	unsigned i, hw_aes = 0, hw_hash = 0;

	buffers_init();
	tap_diag("crosscheck: seed=0x%08x; AES at %u lengths (16 B to 16 KiB), hashes at %u (0 B to 16 KiB), against %s",
		 seed, XC_AES_LENGTHS, XC_HASH_LENGTHS, REFERENCE);
	for (i = 0; i < engine_aes_count(); i++) {
		if (!is_hardware(engine_aes(i)->name))
			continue;
		hw_aes++;
		claimed_triples(engine_aes(i), ref, seed, false, &t);
	}
	if (hw_aes == 0) {
		report_subject(NULL, RSUM_XCHECK);
		tap_skip("no hardware AES engine registered",
			 "crosscheck: hardware AES engines vs software");
		report_subject(NULL, RSUM_PROBE);
	}

	for (i = 0; i < engine_hash_count(); i++) {
		const struct hash_engine *h = engine_hash(i), *href;
		if (!is_hardware(h->name))
			continue;
		hw_hash++;
		href = engine_hash_find(REFERENCE, h->alg);
		fmt_snprintf(name, sizeof(name), "crosscheck: %s %s vs %s",
			     h->name, hash_alg_name(h->alg), REFERENCE);
		report_subject(h->name, RSUM_XCHECK);
		if (!href || !buf.ok)
			tap_result(false, "%s # %s", name,
				   href ? "no buffer memory" : "no software reference engine");
		else {
			memset(&t, 0, sizeof(t));
			t.h = h;
			t.href = href;
			t.seed = seed;
			run_test(name, run_hash_xc, &t);
		}
		report_subject(NULL, RSUM_PROBE);
	}
	if (hw_hash == 0)
		tap_diag("crosscheck: no hardware hash engine registered");
}
