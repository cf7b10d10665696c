/*
 * padlock-xstore/divN: the PadLock RNG through xstore, one source per
 * divisor (EDX = 0..3) [PG][LRNG][OSSL].
 *
 * Claims (docs/rng-verdict.md): only divisor 3 is held to full entropy.
 * Linux via-rng (and the Zhaoxin RNG driver after it) uses EDX = 3,
 * VIA_RNG_CHUNK_1, and calls it the recommended rate; the 2, 4 and 8
 * bytes per store of divisors 2, 1 and 0 trade randomness for speed
 * ("lesser randomness"). So divisors 0-2 are characterised
 * (RNG_CLAIM_CHARACTERISE): their figures are printed, and nothing about
 * them (statistics, an empty FIFO, a status, the self-test) is a failure.
 *
 * xstore stores whole 8-byte units whatever it reports, so it always
 * stores into an aligned driver buffer with slack and the valid bytes are
 * copied out. A store is judged on what Linux reads on every family, the
 * byte count (VIA_XSTORE_CNT_MASK): a non-zero count must cover the
 * divisor's random bytes (8, 4, 2, 1 [LRNG VIA_RNG_CHUNK_*]; divisors 2
 * and 3 store them in the low bytes of a 32-bit unit, so a count of up to
 * 8 is taken as that many bytes stored, of which only the divisor's are
 * used). A count of 0 means the FIFO was empty (Nehemiah: four 8-byte
 * buffers filled by a whitener); the driver stores again, bounded
 * (lib/util/wait.h), XSTORE_EMPTY_MAX times or XSTORE_EMPTY_CYCLES TSC
 * cycles, then gives up.
 *
 * The status bits: on the C3 and C7 the status is a copy of RNG MSR
 * 0x110B [PG], which the driver set up: a store that says the RNG is off
 * or raw bits on is an error there; a DC bias (bits 10-12, which
 * firmware may leave and no public driver clears) and the string filter
 * bits are reported once per divisor, never a rejection by themselves.
 * The Nano and Zhaoxin parts have no RNG MSR and no source documents
 * their status bits: they are reported, not judged.
 *
 * RNG MSR 0x110B (C3 and C7; the Nano has none [LRNG]): reported at probe
 * and set up like Linux via-rng, with its masks: string filter enable and
 * failed, the count bits 22:16 (0x7F << 16), the xstore count 0x0F and raw
 * bits cleared, the other bits kept as found (the DC bias too), RNG and
 * noise source A enabled, source B too on the C3 Nehemiah stepping >= 8
 * and the C7; written only when that changes it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "lib/util/wait.h"
#include "drivers/padlock/padlock_insn.h"
#include "drivers/padlock/padlock_int.h"
#include "drivers/padlock/padlock_reg.h"

#define XSTORE_EMPTY_MAX	(1u << 20)	/* consecutive empty stores before giving up */
#define XSTORE_EMPTY_CYCLES	200000000ull	/* ... or this many TSC cycles (0.2 s at 1 GHz) */
#define RNG_TEST_BYTES		256		/* bytes read per divisor by padlock_rng_tests */
#define XSTORE_JUDGED		3		/* the divisor Linux via-rng uses [LRNG] */

struct xstore_ctx {
	uint32_t divisor;
	uint64_t stores, empty;		/* xstores of the last read, and how many found the FIFO empty */
	uint32_t last_status;
	bool status_noted;		/* unjudged status bits reported once */
	char why[120];			/* why the last read stopped, "" if it did not */
};

/*
 * padlock_rng_register() fills in the contexts and the sources from
 * xstore_text; test_divisor() sets the divisor again.
 */
static struct xstore_ctx xstore_ctx[XSTORE_DIVISORS];
static struct rng_source xstore_sources[XSTORE_DIVISORS];

/*
 * Divisor 0-3: the source's name and description, a store yields 8 >> divisor
 * bytes [LRNG]; and (0-2) why it is only characterised.
 */
static const struct {
	const char *name, *description, *claim_why;
} xstore_text[XSTORE_DIVISORS] = {
	{ "padlock-xstore/div0", "VIA PadLock RNG, xstore divisor 0 (8 bytes per store)",
	  "xstore divisor 0 (8 bytes per store): Linux via-rng uses divisor 3 as the recommended rate, the faster ones give lesser randomness: characterised" },
	{ "padlock-xstore/div1", "VIA PadLock RNG, xstore divisor 1 (4 bytes per store)",
	  "xstore divisor 1 (4 bytes per store): Linux via-rng uses divisor 3 as the recommended rate, the faster ones give lesser randomness: characterised" },
	{ "padlock-xstore/div2", "VIA PadLock RNG, xstore divisor 2 (2 bytes per store)",
	  "xstore divisor 2 (2 bytes per store): Linux via-rng uses divisor 3 as the recommended rate, the faster ones give lesser randomness: characterised" },
	{ "padlock-xstore/div3", "VIA PadLock RNG, xstore divisor 3 (1 byte per store, Linux via-rng's rate)", NULL },
};

/* Where xstore writes: the valid bytes, then the rest of the 8-byte unit. */
static uint8_t xstore_buf[2 * XSTORE_UNIT_BYTES] __attribute__((aligned(PADLOCK_ALIGN)));

static int xstore_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got);

/*
 * Whether a store's status bits are acceptable on this CPU: on the C3 and
 * C7 (status = RNG MSR copy [PG]) the RNG reads enabled and raw bits off;
 * elsewhere no status bit is documented, so any is [LRNG].
 */
static bool xstore_status_ok(uint32_t status)
{
	if (!padlock_dev.rng_has_msr)
		return true;
	return (status & XSTORE_ENABLED) && !(status & RNG_MSR_RAW_BITS);
}

/* Reports, once per divisor, status bits that are set but not judged (see above). */
static void xstore_note_status(struct xstore_ctx *c, uint32_t status)
{
	uint32_t bits = status & XSTORE_STATE_MASK;

	if (c->status_noted || !bits)
		return;
	c->status_noted = true;
	if (padlock_dev.rng_has_msr)
		drv_log(&padlock_log, "rng: xstore divisor %u status 0x%08x: DC bias %u, string filter bits 0x%x set (reported, not judged: the status copies RNG MSR 0x110B, and a DC bias left by firmware is no rejection by itself)",
			c->divisor, status, (status & RNG_MSR_DC_BIAS) >> RNG_MSR_DC_BIAS_SHIFT,
			(status & (RNG_MSR_FILTER_EN | RNG_MSR_FILTER_FAIL)) >> 14);
	else
		drv_log(&padlock_log, "rng: xstore divisor %u status 0x%08x: bits 10-14 = 0x%02x set (reported, not judged: this CPU has no RNG MSR 0x110B and no source documents its status bits; Linux via-rng reads only the byte count)",
			c->divisor, status, bits >> 10);
}

/* Valid bytes of one store with this divisor [LRNG]. */
static unsigned xstore_chunk(uint32_t divisor)
{
	return XSTORE_UNIT_BYTES >> divisor;
}

/* One xstore and what it returned. */
struct xstore_poll {
	struct xstore_ctx *c;
	uint8_t *dst;
	uint32_t status;
};

/* One store; done unless the FIFO was empty (a clean status with count 0). */
static bool xstore_once(void *p)
{
	struct xstore_poll *x = p;

	x->status = padlock_xstore(x->dst, x->c->divisor);
	x->c->stores++;
	x->c->last_status = x->status;
	if ((x->status & XSTORE_COUNT_MASK) != 0 || !xstore_status_ok(x->status))
		return true;
	x->c->empty++;
	return false;
}

static int xstore_read(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got)
{
	struct xstore_ctx *c = r->ctx;
	struct xstore_poll x = { c, NULL, 0 };
	unsigned chunk = xstore_chunk(c->divisor);
	uint32_t saved, count;
	unsigned long polls = 0;
	size_t done = 0, n;
	int rc = ENGINE_OK;

	c->why[0] = '\0';
	c->stores = c->empty = 0;
	saved = padlock_enter();
	while (done < len) {
		x.dst = PADLOCK_QUIRK(no_xstore_slack) ? buf + done : xstore_buf;
		/* An empty FIFO: store again, bounded (lib/util/wait.h), a last look included. */
		if (!xstore_once(&x) &&
		    !wait_poll_max(xstore_once, &x, hw_rdtsc, XSTORE_EMPTY_CYCLES, XSTORE_EMPTY_MAX, NULL, &polls)) {
			fmt_snprintf(c->why, sizeof(c->why), "FIFO empty for %lu stores in a row", polls + 1);
			rc = ENGINE_ETIMEOUT;
			break;
		}
		xstore_note_status(c, x.status);
		count = x.status & XSTORE_COUNT_MASK;
		if (!xstore_status_ok(x.status)) {
			fmt_snprintf(c->why, sizeof(c->why), "status 0x%08x: %s", x.status,
				     (x.status & XSTORE_ENABLED) ? "raw bits on (whitener bypassed)" : "RNG not enabled");
			rc = ENGINE_EHW;
			break;
		}
		if (count < chunk || count > XSTORE_UNIT_BYTES) {
			fmt_snprintf(c->why, sizeof(c->why), "status 0x%08x: byte count %u, the divisor stores %u",
				     x.status, count, chunk);
			rc = ENGINE_EHW;
			break;
		}
		n = len - done < chunk ? len - done : chunk;
		if (x.dst != buf + done)
			memcpy(buf + done, xstore_buf, n);
		done += n;
	}
	padlock_leave(saved);
	memset(xstore_buf, 0, sizeof(xstore_buf));
	if (got)
		*got = done;
	return rc;
}

int padlock_rng_register(void)
{
	struct rng_source *r;
	unsigned i;
	int rc;

	for (i = 0; i < XSTORE_DIVISORS; i++) {
		r = &xstore_sources[i];
		memset(&xstore_ctx[i], 0, sizeof(xstore_ctx[i]));
		xstore_ctx[i].divisor = i;
		r->name = xstore_text[i].name;
		r->description = xstore_text[i].description;
		r->ctx = &xstore_ctx[i];
		r->read = xstore_read;
		r->claim = RNG_CLAIM_FULL;
		if (i == XSTORE_JUDGED)
			continue;
		/* Characterised at the default assessment claim (1 bit per byte), as the Geode's raw modes. */
		r->claim = RNG_CLAIM_CHARACTERISE;
		r->claim_why = xstore_text[i].claim_why;
	}
	for (i = 0; i < XSTORE_DIVISORS; i++) {
		rc = engine_register_rng(&xstore_sources[i]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static void rng_msr_describe(const char *what, uint64_t v)
{
	uint32_t lo = (uint32_t)v;
	drv_log(&padlock_log, "rng: MSR 0x110B %s = 0x%08x: enable=%u sources=%s dc-bias=%u raw-bits=%u string-filter=%u filter-failed=%u filter-count=%u",
		 what, lo, (lo & RNG_MSR_ENABLE) ? 1 : 0,
		 (lo & (RNG_MSR_SRC1 | RNG_MSR_SRC2)) == (RNG_MSR_SRC1 | RNG_MSR_SRC2) ? "A+B" :
		 (lo & RNG_MSR_SRC1) ? "A" : (lo & RNG_MSR_SRC2) ? "B" : "none",
		 (lo & RNG_MSR_DC_BIAS) >> RNG_MSR_DC_BIAS_SHIFT,
		 (lo & RNG_MSR_RAW_BITS) ? 1 : 0, (lo & RNG_MSR_FILTER_EN) ? 1 : 0,
		 (lo & RNG_MSR_FILTER_FAIL) ? 1 : 0,
		 (lo & RNG_MSR_FILTER_CNT) >> RNG_MSR_FILTER_CNT_SHIFT);
}

void padlock_rng_setup(void)
{
	struct padlock_dev *d = &padlock_dev;
	uint64_t v, want;
	bool two_sources;

	d->rng_has_msr = !d->zhaoxin && d->family == PADLOCK_FAMILY_VIA &&
			 d->model < PADLOCK_MODEL_NANO;
	if (!d->rng_has_msr) {
		drv_log(&padlock_log, "rng: no RNG MSR 0x110B on this CPU (Nano, Zhaoxin): the CPUID enable bit only");
		return;
	}
	if (hw_rdmsr_safe(MSR_VIA_RNG, &v) != 0) {
		drv_log(&padlock_log, "rng: rdmsr 0x110B faulted: RNG settings unknown");
		return;
	}
	d->rng_msr_ok = true;
	d->rng_msr_boot = d->rng_msr = v;
	rng_msr_describe("as found", v);
	two_sources = d->model > PADLOCK_MODEL_NEHEMIAH ||
		      (d->model == PADLOCK_MODEL_NEHEMIAH &&
		       d->stepping >= PADLOCK_NEHEMIAH_2RNG_STEPPING);
	want = v & ~(uint64_t)(RNG_MSR_LINUX_CNT_CLEAR | RNG_MSR_LINUX_XSTORE_CNT |
			       RNG_MSR_FILTER_EN | RNG_MSR_FILTER_FAIL | RNG_MSR_RAW_BITS);
	want |= RNG_MSR_ENABLE | RNG_MSR_SRC1 | (two_sources ? RNG_MSR_SRC2 : 0);
	if (want == v)
		return;
	if (hw_wrmsr_safe(MSR_VIA_RNG, want) != 0 || hw_rdmsr_safe(MSR_VIA_RNG, &v) != 0) {
		drv_log(&padlock_log, "rng: writing MSR 0x110B = 0x%08x faulted", (uint32_t)want);
		return;
	}
	d->rng_msr = v;
	rng_msr_describe("set to", v);
}

/*
 * The RNG test of one divisor (ctx: const unsigned *, 0-3): RNG_TEST_BYTES
 * read, every store's count and judged status bits right, bytes not all
 * equal. Divisor 3 fails otherwise; divisors 0-2 (characterised) report
 * it as information.
 */
enum drv_status padlock_t_xstore(const void *ctx, char *d, size_t cap)
{
	unsigned i = *(const unsigned *)ctx;
	const struct rng_source *r = &xstore_sources[i];
	struct xstore_ctx *c = r->ctx;
	uint8_t buf[RNG_TEST_BYTES];
	size_t got = 0, k;
	bool varied = false, ok;
	int rc;

	if (padlock_unit_skip(padlock_dev.rng, "RNG", d, cap))
		return DRV_SKIP;
	c->divisor = i;
	memset(buf, 0, sizeof(buf));
	rc = r->read(r, buf, sizeof(buf), &got);
	for (k = 1; k < got; k++)
		varied |= buf[k] != buf[0];
	memset(buf, 0, sizeof(buf));
	ok = rc == ENGINE_OK && got == sizeof(buf) && varied;
	if (!ok && r->claim == RNG_CLAIM_CHARACTERISE)
		fmt_snprintf(d, cap, "information: %u bytes in %llu stores (%llu empty), last status 0x%08x, rc %d",
			     (unsigned)got, (unsigned long long)c->stores, (unsigned long long)c->empty,
			     c->last_status, rc);
	else
		fmt_snprintf(d, cap, "%u bytes in %llu stores (%llu empty), last status 0x%08x, rc %d",
			     (unsigned)got, (unsigned long long)c->stores, (unsigned long long)c->empty,
			     c->last_status, rc);
	if (c->why[0])
		fmt_append(d, cap, ": %s", c->why);
	else if (rc == ENGINE_OK && !varied)
		fmt_append(d, cap, ": all %u bytes equal", (unsigned)got);
	return ok || r->claim == RNG_CLAIM_CHARACTERISE ? DRV_PASS : DRV_FAIL;
}
