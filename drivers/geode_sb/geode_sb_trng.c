/*
 * Geode LX true random number generator as RNG sources, one per T_SEL
 * post-processing mode, and a probe of the test mode (T_TM).
 * See geode_sb.h; MSR CTRL and RANDOM_NUM(_STATUS) in geode_sb_reg.h.
 *
 * Claims (docs/rng-verdict.md): only T_SEL 3 (LFSR + whitener, what every
 * BSD driver selects) is held to full entropy. Nobody uses or published
 * T_SEL 0 (raw noise), 1 (LFSR only) or 2 (whitener only): they are
 * characterised (RNG_CLAIM_CHARACTERISE), their statistics printed as
 * information. Nothing public describes T_TM's output, so it is no RNG
 * source at all: the probe geode_sb_trng_t_test_mode() reads what it gives
 * (valid words or none, the first words, a few figures) and reports it.
 *
 * A read selects its mode in MSR CTRL (only when it differs from the mode
 * in force) and then, per 32-bit word, waits (bounded) for
 * RANDOM_NUM_STATUS bit 0 and reads RANDOM_NUM. After a mode switch the
 * first word is discarded: it may have been latched under the old mode.
 * The test-mode probe always puts CTRL back to the default afterwards,
 * so deterministic output never outlives its own read. It runs with T_SEL
 * 0, so no post-processing can make the deterministic stream look random.
 *
 * A dead noise source whose STATUS still says valid shows as words that
 * repeat: each read stops with an error when the last GEODE_SB_TRNG_STUCK_WORDS
 * words each equal the word 1 to GEODE_SB_TRNG_PERIODS words before them
 * (period 1: stuck; SP 800-90B 4.4.1's repetition count test, on words).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/timer.h"
#include "lib/rng/ent.h"
#include "lib/rng/sp800_90b.h"
#include "lib/util/bytes.h"
#include "lib/util/fmt.h"
#include "lib/util/wait.h"
#include "drivers/geode_sb/geode_sb_int.h"
#include "drivers/geode_sb/geode_sb_reg.h"

#define TRNG_SOURCES	5
#define TRNG_TEST_MODE	4	/* index of the test-mode source */

struct trng_mode {
	unsigned tsel;		/* T_SEL value */
	bool test_mode;		/* T_TM */
	uint64_t bytes;		/* delivered since the probe */
};

/*
 * The sources and their modes: geode_sb_trng_register() fills them in from
 * tsel_text. Source i < 4 reads T_SEL i (GEODE_SB_T_SEL_NONE ..
 * GEODE_SB_T_SEL_BOTH are 0..3); source TRNG_TEST_MODE, never registered,
 * is read only by the T_TM probe.
 */
static struct trng_mode modes[TRNG_SOURCES];
static struct rng_source sources[TRNG_SOURCES];

/* T_SEL 0-3: the source's name, description and (T_SEL 0-2) why it is only characterised. */
static const struct {
	const char *name, *description, *claim_why;
} tsel_text[4] = {
	{ "geode-trng/tsel0", "Geode LX TRNG, T_SEL 0: raw noise",
	  "T_SEL 0 raw noise: no driver uses it, nobody published its entropy" },
	{ "geode-trng/tsel1", "Geode LX TRNG, T_SEL 1: LFSR post-processing",
	  "T_SEL 1 LFSR only: no driver uses it, nobody published its entropy" },
	{ "geode-trng/tsel2", "Geode LX TRNG, T_SEL 2: whitener post-processing",
	  "T_SEL 2 whitener only: no driver uses it, nobody published its entropy" },
	{ "geode-trng/tsel3", "Geode LX TRNG, T_SEL 3: LFSR + whitener (the BSDs' setting)", NULL },
};

/* T_SEL 0-3: the throughput line's "T_SEL <n>: <what>", the description's, the claim's. */
static const char *const tsel_what[4] = {
	"raw noise, no post-processing", "LFSR", "whitener", "LFSR + whitener",
};

static uint64_t ctrl_now;	/* CTRL as last written by us; 0 = unknown */

static int trng_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got);

static uint64_t ctrl_for(const struct trng_mode *m)
{
	uint64_t v = geode_sb_info()->ctrl_set;
	v &= ~(uint64_t)(GEODE_SB_CTRL_T_SEL_MASK | GEODE_SB_CTRL_T_TM);
	v |= GEODE_SB_CTRL_T_NE | ((uint64_t)m->tsel << GEODE_SB_CTRL_T_SEL_SHIFT);
	if (m->test_mode)
		v |= GEODE_SB_CTRL_T_TM;
	return v;
}

/* Writes CTRL = v unless it already is. Returns 0, 1 (switched) or ENGINE_EHW. */
static int ctrl_write(const char *name, uint64_t v)
{
	if (v == ctrl_now)
		return 0;
	if (hw_wrmsr_safe(GEODE_SB_MSR_CTRL, v) != 0) {
		ctrl_now = 0;
		geode_sb_trng_error(name, "wrmsr 0x%08x (CTRL) <- 0x%llx raised #GP", GEODE_SB_MSR_CTRL,
			       (unsigned long long)v);
		return ENGINE_EHW;
	}
	ctrl_now = v;
	return 1;
}

/* One poll of RANDOM_NUM_STATUS (ctx: where the status read goes). */
static bool trng_valid(void *ctx)
{
	uint32_t *st = ctx;

	*st = geode_sb_rd(GEODE_SB_RANDOM_NUM_STATUS);
	return (*st & GEODE_SB_RNS_VALID) != 0;
}

/*
 * One 32-bit word, waiting at most GEODE_SB_TRNG_WAIT_US for the valid bit
 * (lib/util/wait.h: one more look after the deadline).
 */
static int trng_word(const char *name, uint32_t *w)
{
	uint64_t limit = tsc_ticks_for_us(GEODE_SB_TRNG_WAIT_US), el = 0, ctrl = 0;
	unsigned long polls = 0;
	uint32_t st = 0;

	if (wait_poll_max(trng_valid, &st, hw_rdtsc, limit, GEODE_SB_MAX_POLLS, &el, &polls)) {
		*w = geode_sb_rd(GEODE_SB_RANDOM_NUM);
		return 0;
	}
	hw_rdmsr_safe(GEODE_SB_MSR_CTRL, &ctrl);
	geode_sb_trng_error(name, "RANDOM_NUM_STATUS not valid after %llu cycles (limit %llu, %lu polls): STATUS=0x%08x CTRL=0x%llx",
			    (unsigned long long)el, (unsigned long long)limit, polls, st,
			    (unsigned long long)ctrl);
	return ENGINE_ETIMEOUT;
}

static int trng_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct trng_mode *m = r->ctx;
	uint32_t hist[GEODE_SB_TRNG_PERIODS];
	unsigned run[GEODE_SB_TRNG_PERIODS + 1];
	size_t done = 0, n, i, words = 0;
	uint32_t w = 0;
	unsigned k;
	int rc;

	if (got)
		*got = 0;
	if (!geode_sb_info()->rng_ok) {
		geode_sb_trng_error(r->name, "not available: %s",
			       geode_sb_info()->ok ? geode_sb_st.rng_why : geode_sb_absent_reason());
		return ENGINE_EHW;
	}
	memset(run, 0, sizeof(run));
	rc = ctrl_write(r->name, ctrl_for(m));
	if (rc == 1)
		rc = trng_word(r->name, &w);	/* latched under the previous mode */
	while (rc == 0 && done < len) {
		rc = trng_word(r->name, &w);
		if (rc)
			break;
		if (!m->test_mode) {
			for (k = 1; k <= GEODE_SB_TRNG_PERIODS; k++) {
				run[k] = (words >= k && w == hist[k - 1]) ? run[k] + 1 : 0;
				if (run[k] + k < GEODE_SB_TRNG_STUCK_WORDS)
					continue;
				if (k == 1)
					geode_sb_trng_error(r->name, "output stuck at 0x%08x for %u consecutive words while RANDOM_NUM_STATUS says valid (repetition count test, SP 800-90B 4.4.1)",
						       w, run[k] + 1);
				else
					geode_sb_trng_error(r->name, "output repeats every %u words (%u words, 0x%08x ...) while RANDOM_NUM_STATUS says valid: noise source dead",
						       k, run[k] + k, w);
				rc = ENGINE_EHW;
				break;
			}
			if (rc)
				break;
			memmove(hist + 1, hist, sizeof(hist) - sizeof(hist[0]));
			hist[0] = w;
			words++;
		}
		n = len - done < 4 ? len - done : 4;
		for (i = 0; i < n; i++)
			buf[done + i] = (uint8_t)(w >> (8 * i));
		done += n;
	}
	if (m->test_mode && ctrl_write(r->name, geode_sb_info()->ctrl_set) < 0 && rc == 0)
		rc = ENGINE_EHW;
	m->bytes += done;
	if (got)
		*got = done;
	return rc;
}

void geode_sb_trng_reset(void)
{
	unsigned i;
	ctrl_now = 0;
	for (i = 0; i < TRNG_SOURCES; i++)
		modes[i].bytes = 0;
}

void geode_sb_trng_register(void)
{
	struct rng_source *r;
	unsigned i;

	ctrl_now = geode_sb_info()->ctrl_set;
	for (i = 0; i < TRNG_SOURCES; i++) {
		r = &sources[i];
		r->ctx = &modes[i];
		r->read = trng_read;
		r->claim = RNG_CLAIM_CHARACTERISE;
		if (i == TRNG_TEST_MODE) {
			modes[i].tsel = GEODE_SB_T_SEL_NONE;
			modes[i].test_mode = true;
			r->name = "geode-trng/test-mode";
			r->description = "Geode LX TRNG in test mode (T_TM): output undocumented";
			r->claim_why = "test mode: nothing public describes its output";
			break;
		}
		modes[i].tsel = i;
		r->name = tsel_text[i].name;
		r->description = tsel_text[i].description;
		if (i == GEODE_SB_T_SEL_BOTH) {	/* what the BSDs use: held to full entropy */
			r->claim = RNG_CLAIM_FULL;
			continue;
		}
		r->claim_h_micro = GEODE_SB_TRNG_RAW_CLAIM;
		r->claim_why = tsel_text[i].claim_why;
	}
	for (i = 0; i < TRNG_TEST_MODE; i++) {
		if (engine_register_rng(&sources[i]) != ENGINE_OK)
			drv_log(&geode_sb_log, "RNG registry full: %s not registered", sources[i].name);
	}
}

/*
 * Reads up to GEODE_SB_TRNG_BENCH_BYTES (or for GEODE_SB_TRNG_BENCH_US) after a
 * first small read that takes the mode switch out of the timing.
 */
static int bench(const struct rng_source *r, size_t *bytes, uint64_t *cycles)
{
	static uint8_t buf[256];
	uint64_t t0, cap = tsc_ticks_for_us(GEODE_SB_TRNG_BENCH_US);
	size_t got = 0;
	int rc;

	*bytes = 0;
	*cycles = 0;
	rc = r->read(r, buf, 4, &got);
	t0 = hw_rdtsc();
	while (rc == 0 && *bytes < GEODE_SB_TRNG_BENCH_BYTES && hw_rdtsc() - t0 < cap) {
		rc = r->read(r, buf, sizeof(buf), &got);
		*bytes += got;
	}
	*cycles = hw_rdtsc() - t0;
	memset(buf, 0, sizeof(buf));
	return rc;
}

static uint8_t tm_buf[GEODE_SB_TRNG_TM_BYTES];
static struct sp90b_counts tm_counts;
static struct ent_ctx tm_ent;

/*
 * T_TM probe: what test mode gives, as information. Nothing public says
 * what its output is or whether STATUS goes valid in it, so only one
 * thing can fail: CTRL left with T_TM set afterwards (the driver's own
 * duty). Reads up to GEODE_SB_TRNG_TM_BYTES, for at most GEODE_SB_TRNG_BENCH_US.
 */
enum drv_status geode_sb_trng_t_test_mode(const void *ctx, char *d, size_t cap)
{
	const struct rng_source *r = &sources[TRNG_TEST_MODE];
	struct ent_result er;
	struct sp90b_mcv mcv;
	char sh[16];
	size_t got = 0, n;
	uint64_t ctrl = 0, t0, lim = tsc_ticks_for_us(GEODE_SB_TRNG_BENCH_US);
	bool restored;
	int rc = 0;
	(void)ctx;

	if (geode_sb_skip(GEODE_SB_NEED_RNG, d, cap))
		return DRV_SKIP;
	t0 = hw_rdtsc();
	while (rc == 0 && got < sizeof(tm_buf) && hw_rdtsc() - t0 < lim) {
		n = 0;
		rc = r->read(r, tm_buf + got, 256, &n);
		got += n;
	}
	restored = hw_rdmsr_safe(GEODE_SB_MSR_CTRL, &ctrl) == 0 && !(ctrl & GEODE_SB_CTRL_T_TM);
	if (!restored) {
		geode_sb_wipe(tm_buf, sizeof(tm_buf));
		fmt_snprintf(d, cap, "CTRL=0x%llx still has test mode on after the read",
			     (unsigned long long)ctrl);
		return DRV_FAIL;
	}
	if (got < 8) {
		if (rc)
			fmt_snprintf(d, cap, "information: %u bytes, no valid word in test mode: %s; CTRL back to 0x%llx",
				     (unsigned)got, geode_sb_last_error(), (unsigned long long)ctrl);
		else
			fmt_snprintf(d, cap, "information: %u bytes, no valid word in test mode; CTRL back to 0x%llx",
				     (unsigned)got, (unsigned long long)ctrl);
		geode_sb_wipe(tm_buf, sizeof(tm_buf));
		return DRV_PASS;
	}
	sp90b_counts_init(&tm_counts);
	sp90b_counts_feed(&tm_counts, tm_buf, got);
	sp90b_mcv(&tm_counts, &mcv);
	ent_init(&tm_ent, false);
	ent_feed(&tm_ent, tm_buf, got);
	ent_finish(&tm_ent, &er);
	ent_fmt(&er, ENT_ENTROPY, 3, sh, sizeof(sh));
	/* The first two words as RANDOM_NUM gave them (trng_read stores them little-endian). */
	fmt_snprintf(d, cap, "information: %u bytes%s, first words 0x%08x 0x%08x, Shannon %s bits/byte, MCV min-entropy %u.%02u bits/byte; CTRL back to 0x%llx",
		     (unsigned)got, rc ? " before an error" : "", le32_get(tm_buf), le32_get(tm_buf + 4), sh,
		     (unsigned)(mcv.h_micro / SP90B_MICRO),
		     (unsigned)(mcv.h_micro % SP90B_MICRO / 10000), (unsigned long long)ctrl);
	geode_sb_wipe(tm_buf, sizeof(tm_buf));
	return DRV_PASS;
}

/*
 * Throughput of T_SEL i: measured and printed. T_SEL 3 (full-entropy
 * claim) fails when it stops delivering; T_SEL 0-2 are characterised, so
 * the same is information there (nothing documents their output).
 * ctx: the T_SEL value (const unsigned *, 0-3).
 */
enum drv_status geode_sb_trng_t_throughput(const void *ctx, char *d, size_t cap)
{
	unsigned i = *(const unsigned *)ctx;
	size_t bytes;
	uint64_t cycles;

	if (geode_sb_skip(GEODE_SB_NEED_RNG, d, cap))
		return DRV_SKIP;
	if (bench(&sources[i], &bytes, &cycles) != 0) {
		if (sources[i].claim == RNG_CLAIM_CHARACTERISE) {
			fmt_snprintf(d, cap, "information: %u bytes, then %s", (unsigned)bytes,
				     geode_sb_last_error());
			return DRV_PASS;
		}
		fmt_snprintf(d, cap, "%s", geode_sb_last_error());
		return DRV_FAIL;
	}
	fmt_snprintf(d, cap, "%llu bytes/s%s: %u bytes in %llu cycles; T_SEL %u: %s",
		     cycles ? (unsigned long long)(bytes * geode_sb_ticks_per_s() / cycles) : 0ull,
		     engine_emulated(sources[i].name) ? ", emulated" : "", (unsigned)bytes,
		     (unsigned long long)cycles, i, tsel_what[i]);
	return bytes > 0 && cycles > 0 ? DRV_PASS : DRV_FAIL;
}

