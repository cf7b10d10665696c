/*
 * Geode LX true random number generator as RNG sources, one per T_SEL
 * post-processing mode, and the test mode (T_TM) as a known-bad source.
 * See geode_sb.h; MSR CTRL and RANDOM_NUM(_STATUS) in glx_sb_reg.h.
 *
 * A read selects its mode in MSR CTRL (only when it differs from the mode
 * in force) and then, per 32-bit word, waits (bounded) for
 * RANDOM_NUM_STATUS bit 0 and reads RANDOM_NUM. After a mode switch the
 * first word is discarded: it may have been latched under the old mode.
 * The test-mode source always puts CTRL back to the default afterwards,
 * so deterministic output never outlives its own read. It runs with T_SEL
 * 0, so no post-processing can make the deterministic stream look random.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/timer.h"
#include "lib/util/fmt.h"
#include "drivers/geode_sb/geode_sb_int.h"
#include "drivers/geode_sb/glx_sb_reg.h"

#define TRNG_SOURCES	5
#define TRNG_TEST_MODE	4	/* index of the test-mode source */

struct trng_mode {
	unsigned tsel;		/* T_SEL value */
	bool test_mode;		/* T_TM */
	const char *what;
	uint64_t bytes;		/* delivered since the probe */
};

static struct trng_mode modes[TRNG_SOURCES] = {
	{ GLX_SB_T_SEL_NONE, false, "T_SEL 0: raw noise, no post-processing", 0 },
	{ GLX_SB_T_SEL_LFSR, false, "T_SEL 1: LFSR", 0 },
	{ GLX_SB_T_SEL_WHITEN, false, "T_SEL 2: whitener", 0 },
	{ GLX_SB_T_SEL_BOTH, false, "T_SEL 3: LFSR + whitener", 0 },
	{ GLX_SB_T_SEL_NONE, true, "T_TM test mode, T_SEL 0: deterministic output", 0 },
};

static uint64_t ctrl_now;	/* CTRL as last written by us; 0 = unknown */

static int trng_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got);

static struct rng_source sources[TRNG_SOURCES] = {
	{ "geode-trng/tsel0", "Geode LX TRNG, T_SEL 0: raw noise", false, &modes[0], trng_read },
	{ "geode-trng/tsel1", "Geode LX TRNG, T_SEL 1: LFSR post-processing", false,
	  &modes[1], trng_read },
	{ "geode-trng/tsel2", "Geode LX TRNG, T_SEL 2: whitener post-processing", false,
	  &modes[2], trng_read },
	{ "geode-trng/tsel3", "Geode LX TRNG, T_SEL 3: LFSR + whitener (the BSDs' setting)",
	  false, &modes[3], trng_read },
	{ "geode-trng/test-mode",
	  "Geode LX TRNG in test mode (T_TM): deterministic, a self-check that must FAIL",
	  true, &modes[4], trng_read },
};

static uint64_t ctrl_for(const struct trng_mode *m)
{
	uint64_t v = geode_sb_info()->ctrl_set;
	v &= ~(uint64_t)(GLX_SB_CTRL_T_SEL_MASK | GLX_SB_CTRL_T_TM);
	v |= GLX_SB_CTRL_T_NE | ((uint64_t)m->tsel << GLX_SB_CTRL_T_SEL_SHIFT);
	if (m->test_mode)
		v |= GLX_SB_CTRL_T_TM;
	return v;
}

/* Writes CTRL = v unless it already is. Returns 0, 1 (switched) or ENGINE_EHW. */
static int ctrl_write(const char *name, uint64_t v)
{
	if (v == ctrl_now)
		return 0;
	if (hw_wrmsr_safe(GLX_SB_MSR_CTRL, v) != 0) {
		ctrl_now = 0;
		glx_sb_error("%s: wrmsr 0x%08x (CTRL) <- 0x%llx raised #GP", name, GLX_SB_MSR_CTRL,
			     (unsigned long long)v);
		return ENGINE_EHW;
	}
	ctrl_now = v;
	return 1;
}

/* One 32-bit word, waiting at most GEODE_TRNG_WAIT_US for the valid bit. */
static int trng_word(const char *name, uint32_t *w)
{
	uint64_t t0 = hw_rdtsc(), limit = tsc_ticks_for_us(GEODE_TRNG_WAIT_US), el, ctrl = 0;
	uint32_t st, polls = 0;

	for (;;) {
		st = glx_sb_rd(GLX_SB_RANDOM_NUM_STATUS);
		polls++;
		if (st & GLX_SB_RNS_VALID) {
			*w = glx_sb_rd(GLX_SB_RANDOM_NUM);
			return 0;
		}
		el = hw_rdtsc() - t0;
		if (el > limit || polls >= GEODE_SB_MAX_POLLS) {
			hw_rdmsr_safe(GLX_SB_MSR_CTRL, &ctrl);
			glx_sb_error("%s: RANDOM_NUM_STATUS not valid after %llu cycles (limit %llu, %u polls): STATUS=0x%08x CTRL=0x%llx",
				     name, (unsigned long long)el, (unsigned long long)limit, polls, st,
				     (unsigned long long)ctrl);
			return ENGINE_ETIMEOUT;
		}
	}
}

static int trng_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct trng_mode *m = r->ctx;
	size_t done = 0, n, i;
	uint32_t w = 0, prev = 0;
	unsigned run = 0;
	int rc;

	if (got)
		*got = 0;
	if (!geode_sb_info()->ok) {
		glx_sb_error("%s: not available: %s", r->name, geode_sb_absent_reason());
		return ENGINE_EHW;
	}
	rc = ctrl_write(r->name, ctrl_for(m));
	if (rc == 1)
		rc = trng_word(r->name, &w);	/* latched under the previous mode */
	while (rc == 0 && done < len) {
		rc = trng_word(r->name, &w);
		if (rc)
			break;
		if (!m->test_mode) {
			run = (done && w == prev) ? run + 1 : 1;
			prev = w;
			if (run >= GEODE_TRNG_STUCK_WORDS) {
				glx_sb_error("%s: output stuck at 0x%08x for %u consecutive words (repetition count test, SP 800-90B 4.4.1)",
					     r->name, w, run);
				rc = ENGINE_EHW;
				break;
			}
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

void geode_trng_reset(void)
{
	unsigned i;
	ctrl_now = 0;
	for (i = 0; i < TRNG_SOURCES; i++)
		modes[i].bytes = 0;
}

void geode_trng_register(void)
{
	unsigned i;
	ctrl_now = geode_sb_info()->ctrl_set;
	for (i = 0; i < TRNG_SOURCES; i++) {
		if (engine_register_rng(&sources[i]) != ENGINE_OK)
			drv_log(&geode_sb_log, "RNG registry full: %s not registered", sources[i].name);
	}
}

/*
 * Reads up to GEODE_TRNG_BENCH_BYTES (or for GEODE_TRNG_BENCH_US) after a
 * first small read that takes the mode switch out of the timing.
 */
static int bench(const struct rng_source *r, size_t *bytes, uint64_t *cycles)
{
	static uint8_t buf[256];
	uint64_t t0, cap = tsc_ticks_for_us(GEODE_TRNG_BENCH_US);
	size_t got = 0;
	int rc;

	*bytes = 0;
	*cycles = 0;
	rc = r->read(r, buf, 4, &got);
	t0 = hw_rdtsc();
	while (rc == 0 && *bytes < GEODE_TRNG_BENCH_BYTES && hw_rdtsc() - t0 < cap) {
		rc = r->read(r, buf, sizeof(buf), &got);
		*bytes += got;
	}
	*cycles = hw_rdtsc() - t0;
	memset(buf, 0, sizeof(buf));
	return rc;
}

/* Why the TRNG tests skip: no block, or its probe failed. NULL when ready. */
static const char *trng_skip(void)
{
	const struct geode_sb_info *in = geode_sb_info();
	if (!in->found)
		return geode_sb_absent_reason();
	if (!in->ok)
		return "geode-sb probe failed";
	return NULL;
}

enum drv_status geode_trng_t_test_mode(char *d, size_t cap)
{
	const struct rng_source *r = &sources[TRNG_TEST_MODE];
	const char *skip = trng_skip();
	uint8_t buf[64];
	size_t got = 0;
	uint64_t ctrl = 0;
	bool registered, restored;
	int rc;

	if (skip) {
		fmt_snprintf(d, cap, "%s", skip);
		return DRV_SKIP;
	}
	registered = engine_rng_find(r->name) == r;
	rc = r->read(r, buf, sizeof(buf), &got);
	restored = hw_rdmsr_safe(GLX_SB_MSR_CTRL, &ctrl) == 0 && !(ctrl & GLX_SB_CTRL_T_TM);
	if (rc == 0 && got == sizeof(buf))
		drv_log(&geode_sb_log, "geode-trng/test-mode: first words 0x%02x%02x%02x%02x 0x%02x%02x%02x%02x",
			buf[3], buf[2], buf[1], buf[0], buf[7], buf[6], buf[5], buf[4]);
	memset(buf, 0, sizeof(buf));
	if (rc != 0) {
		fmt_snprintf(d, cap, "%s", geode_sb_last_error());
		return DRV_FAIL;
	}
	if (!restored) {
		fmt_snprintf(d, cap, "CTRL=0x%llx still has test mode on after the read",
			     (unsigned long long)ctrl);
		return DRV_FAIL;
	}
	fmt_snprintf(d, cap, "%u bytes read, CTRL back to 0x%llx", (unsigned)got,
		     (unsigned long long)ctrl);
	return registered && r->known_bad ? DRV_PASS : DRV_FAIL;
}

/* Throughput of T_SEL i: measured, printed, judged only on delivering bytes. */
static enum drv_status throughput(unsigned i, char *d, size_t cap)
{
	const char *skip = trng_skip();
	size_t bytes;
	uint64_t cycles;

	if (skip) {
		fmt_snprintf(d, cap, "%s", skip);
		return DRV_SKIP;
	}
	if (bench(&sources[i], &bytes, &cycles) != 0) {
		fmt_snprintf(d, cap, "%s", geode_sb_last_error());
		return DRV_FAIL;
	}
	fmt_snprintf(d, cap, "%llu bytes/s%s: %u bytes in %llu cycles; %s",
		     cycles ? (unsigned long long)(bytes * glx_sb_ticks_per_s() / cycles) : 0ull,
		     engine_emulated(sources[i].name) ? ", emulated" : "", (unsigned)bytes,
		     (unsigned long long)cycles, modes[i].what);
	return bytes > 0 && cycles > 0 ? DRV_PASS : DRV_FAIL;
}

enum drv_status geode_trng_t_tsel0(char *d, size_t cap) { return throughput(0, d, cap); }
enum drv_status geode_trng_t_tsel1(char *d, size_t cap) { return throughput(1, d, cap); }
enum drv_status geode_trng_t_tsel2(char *d, size_t cap) { return throughput(2, d, cap); }
enum drv_status geode_trng_t_tsel3(char *d, size_t cap) { return throughput(3, d, cap); }
